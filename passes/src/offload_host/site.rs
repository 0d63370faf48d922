//! One launch call being planned, whatever its form: the checks every form
//! shares (a plain call of a declaration of a kernel of the image, used only
//! as a callee), its kernel arguments, and the planned [`Launch`]. How each
//! argument is passed is in [`super::arguments`]; the forms' own planning in
//! [`super::launch_v1::plan`] and [`super::launch_v2::plan`].

use inkwell::module::Linkage;
use inkwell::targets::TargetData;
use inkwell::types::AnyType;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue};

use super::check::Signature;
use super::error::{Error, LaunchProblem};
use super::image_set::ImageSet;
use super::launch_plan::{ArgPlan, Grid, ImageTie, Launch};
use crate::ir::{Type, Value, calls, naming};

/// A launch call with what argument planning looks at.
pub struct Site<'a, 'ctx> {
    pub layout: &'a TargetData,
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub callee: FunctionValue<'ctx>,
    /// The kernel's symbol in the image.
    pub kernel: String,
    pub signature: Signature<'a>,
    pub images: &'a ImageSet,
    /// The callee is used other than as a callee.
    pub address_taken: bool,
}

impl<'ctx> Site<'_, 'ctx> {
    /// A launch error naming the kernel and the caller.
    pub fn error(&self, problem: LaunchProblem) -> Error {
        Error::Launch {
            kernel: naming::display_symbol(&self.kernel),
            caller: naming::name_of(self.caller),
            problem,
        }
    }

    /// What every launch form must be: a plain call of a declaration that is
    /// used only as a callee, of a kernel every image holds.
    pub fn check_call(&self) -> Result<(), Error> {
        if self.callee.count_basic_blocks() > 0 {
            return Err(self.error(LaunchProblem::HasBody {
                callee: naming::name_of(self.callee),
            }));
        }
        self.images
            .check_kernel(&self.kernel)
            .map_err(Error::MissingKernel)?;
        if calls::is_invoke(Value::from(self.call)) {
            return Err(self.error(LaunchProblem::Invoke));
        }
        if self.callee.get_linkage() == Linkage::ExternalWeak {
            return Err(self.error(LaunchProblem::ExternWeak {
                callee: naming::name_of(self.callee),
            }));
        }
        if self.address_taken {
            return Err(self.error(LaunchProblem::AddressTaken {
                callee: naming::name_of(self.callee),
            }));
        }
        Ok(())
    }

    /// The planned launch; its result, when used, must be the `i32` code.
    pub fn launch(
        &self,
        grid: Grid,
        first_arg: u32,
        args: Vec<ArgPlan>,
    ) -> Result<Launch<'ctx>, Error> {
        let returns_code = self.call.get_first_use().is_some();
        if returns_code {
            let ty = self.call.get_type();
            if ty
                != self
                    .callee
                    .get_type()
                    .get_context()
                    .i32_type()
                    .as_any_type_enum()
            {
                return Err(self.error(LaunchProblem::ResultUsed {
                    ty: Type::from(ty).text(),
                }));
            }
        }
        Ok(Launch {
            call: self.call,
            caller: self.caller,
            kernel: self.kernel.clone(),
            grid,
            first_arg,
            args,
            returns_code,
            image_tie: ImageTie::Digest,
        })
    }

    /// The kernel arguments (call operands from `first`) as inkwell values;
    /// a type no launch can pass (token, metadata, `target(...)`) is an
    /// error naming the argument.
    pub fn arguments(&self, first: u32) -> Result<Vec<BasicValueEnum<'ctx>>, Error> {
        calls::arguments(Value::from(self.call))
            .into_iter()
            .skip(first as usize)
            .enumerate()
            .map(|(index, value)| {
                value.as_basic().ok_or_else(|| {
                    self.error(LaunchProblem::ArgumentType {
                        index: index as u32,
                        ty: value.ty().text(),
                    })
                })
            })
            .collect()
    }
}
