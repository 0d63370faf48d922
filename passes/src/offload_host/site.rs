//! One launch call being planned: the checks every form shares, v1 and v2
//! descriptors, the manifest check, and how each argument is passed.

use inkwell::AddressSpace;
use inkwell::module::Linkage;
use inkwell::targets::TargetData;
use inkwell::types::AnyType;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue, PointerValue};

use super::Options;
use super::check::{self, HostArg, HostKind, Signature};
use super::contract::{ArgSpec, DescriptorProblem, LaunchDescriptor, map_type};
use super::contract_v2::{self, DescriptorSource};
use super::error::{ArgProblem, Error, LaunchProblem};
use super::image::DeviceImage;
use super::plan::{ArgPlan, Grid, Launch, Size};
use crate::ir::{Type, Value, attributes, calls, naming};
use crate::kernel_manifest::{FloatKind, Param};

/// A launch call with what argument planning looks at.
pub struct Site<'a, 'ctx> {
    layout: &'a TargetData,
    call: InstructionValue<'ctx>,
    caller: FunctionValue<'ctx>,
    callee: FunctionValue<'ctx>,
    /// The kernel's symbol in the image.
    kernel: String,
    signature: Signature<'a>,
    image: &'a DeviceImage,
    /// The callee is used other than as a callee (computed once per callee).
    address_taken: bool,
}

/// What planning an argument may use besides its value.
#[derive(Clone, Copy)]
struct ArgContext<'p> {
    spec: ArgSpec,
    /// The kernel's parameter, from its manifest.
    param: Option<&'p Param>,
    /// v2: a pointer's size may come from the config at run time.
    run_time_size: bool,
    /// v1: whether a descriptor was visible (for the unknown-size message).
    described: bool,
}

/// A call being planned: the instruction, where it is, what it calls.
#[derive(Clone, Copy)]
pub struct Call<'ctx> {
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub callee: FunctionValue<'ctx>,
    /// The callee is used other than as a callee (computed once per callee).
    pub address_taken: bool,
}

impl<'a, 'ctx> Site<'a, 'ctx> {
    pub fn new(
        layout: &'a TargetData,
        call: Call<'ctx>,
        kernel: &str,
        signature: Signature<'a>,
        image: &'a DeviceImage,
    ) -> Site<'a, 'ctx> {
        Site {
            layout,
            call: call.call,
            caller: call.caller,
            callee: call.callee,
            kernel: kernel.to_owned(),
            signature,
            image,
            address_taken: call.address_taken,
        }
    }

    fn error(&self, problem: LaunchProblem) -> Error {
        Error::Launch {
            kernel: naming::display_symbol(&self.kernel),
            caller: naming::name_of(self.caller),
            problem,
        }
    }

    /// What every launch form must be: a plain call of a declaration that is
    /// used only as a callee, of a kernel the image holds.
    fn check_call(&self) -> Result<(), Error> {
        if self.callee.count_basic_blocks() > 0 {
            return Err(self.error(LaunchProblem::HasBody {
                callee: naming::name_of(self.callee),
            }));
        }
        self.image.check_kernel(&self.kernel).map_err(Error::MissingKernel)?;
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

    /// A v1 launch: `call @K(args...)`, described by `!offload.launch`,
    /// `@__offload_launch.K` or inference.
    pub fn plan_v1(
        &self,
        options: &Options,
        metadata: Option<Result<Vec<u64>, DescriptorProblem>>,
        global: Option<LaunchDescriptor>,
    ) -> Result<Launch<'ctx>, Error> {
        self.check_call()?;
        let described = metadata.is_some() || global.is_some();
        let descriptor = match metadata {
            Some(words) => words
                .and_then(|words| LaunchDescriptor::from_words(&words))
                .map_err(|p| self.error(LaunchProblem::Descriptor(p)))?,
            None => global.unwrap_or_default(),
        };
        let arguments = self.arguments(0)?;
        if !descriptor.args.is_empty() && descriptor.args.len() != arguments.len() {
            return Err(self.error(LaunchProblem::CountMismatch {
                described: descriptor.args.len(),
                passed: arguments.len(),
            }));
        }
        let specs: Vec<ArgSpec> = (0..arguments.len())
            .map(|i| descriptor.args.get(i).copied().unwrap_or_default())
            .collect();
        let args = self.plan_arguments(0, &arguments, &specs, false, described)?;
        let default = |given: u32, default: u32| if given == 0 { default } else { given };
        let dims = |given: [u32; 3], x: u32| [default(given[0], x), default(given[1], 1), default(given[2], 1)];
        let grid = Grid::Static {
            teams: dims(descriptor.teams, options.teams),
            threads: dims(descriptor.threads, options.threads),
            dyn_cgroup_mem: descriptor.dyn_cgroup_mem,
        };
        self.launch(grid, 0, args)
    }

    /// A v2 launch: `call @"__offload_launch2.K"(ptr %descriptor, ptr
    /// %config, args...)`.
    pub fn plan_v2(&self) -> Result<Launch<'ctx>, Error> {
        self.check_call()?;
        let operands = calls::arguments(Value::from(self.call));
        let is_pointer = |v: Option<&Value<'_>>| v.is_some_and(|v| v.ty().pointer_address_space() == Some(0));
        if !(is_pointer(operands.first()) && is_pointer(operands.get(1))) {
            return Err(self.error(LaunchProblem::V2Shape {
                callee: naming::name_of(self.callee),
            }));
        }
        let descriptor = contract_v2::read_descriptor(operands[0], self.layout).map_err(|source| match source {
            DescriptorSource::NotAGlobal { text } => self.error(LaunchProblem::DescriptorNotGlobal { text }),
            DescriptorSource::Global { name, problem } => self.error(LaunchProblem::DescriptorV2 {
                global: name,
                problem: Box::new(problem),
            }),
        })?;
        if descriptor.digest != 0 && descriptor.digest != self.image.digest {
            return Err(self.error(LaunchProblem::Digest {
                descriptor: descriptor.digest,
                image: self.image.digest,
                path: self.image.path.clone(),
            }));
        }
        let arguments = self.arguments(2)?;
        if descriptor.args.len() != arguments.len() {
            return Err(self.error(LaunchProblem::CountMismatch {
                described: descriptor.args.len(),
                passed: arguments.len(),
            }));
        }
        let specs: Vec<ArgSpec> = descriptor
            .args
            .iter()
            .map(|w| ArgSpec {
                map: w.map,
                size: w.size,
                len_arg: None,
            })
            .collect();
        let args = self.plan_arguments(2, &arguments, &specs, true, true)?;
        self.launch(Grid::Config, 2, args)
    }

    fn launch(&self, grid: Grid, first_arg: u32, args: Vec<ArgPlan>) -> Result<Launch<'ctx>, Error> {
        let returns_code = self.call.get_first_use().is_some();
        if returns_code {
            let ty = self.call.get_type();
            if ty != self.callee.get_type().get_context().i32_type().as_any_type_enum() {
                return Err(self.error(LaunchProblem::ResultUsed { ty: Type::from(ty).text() }));
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
        })
    }

    /// The kernel arguments (call operands from `first`) as inkwell values;
    /// a type no launch can pass (token, metadata, `target(...)`) is an
    /// error naming the argument.
    fn arguments(&self, first: u32) -> Result<Vec<BasicValueEnum<'ctx>>, Error> {
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

    /// Checks the arguments against the kernel's signature (count and kinds
    /// first, sizes once planned) and plans each.
    fn plan_arguments(
        &self,
        first: u32,
        arguments: &[BasicValueEnum<'ctx>],
        specs: &[ArgSpec],
        run_time_size: bool,
        described: bool,
    ) -> Result<Vec<ArgPlan>, Error> {
        let mismatch = |m| {
            self.error(LaunchProblem::Mismatch {
                mismatch: Box::new(m),
                source: self.signature_source(),
            })
        };
        let host: Vec<HostArg> = arguments.iter().enumerate().map(|(i, v)| self.host_arg(first + i as u32, *v)).collect();
        check::kinds(self.signature, &host).map_err(mismatch)?;
        let params = match self.signature {
            Signature::Manifest(m) => Some(&m.params),
            _ => None,
        };
        let plans = arguments
            .iter()
            .enumerate()
            .map(|(i, &value)| {
                let context = ArgContext {
                    spec: specs[i],
                    param: params.and_then(|p| p.get(i)),
                    run_time_size,
                    described,
                };
                self.plan_argument(first, i as u32, value, context, arguments)
                    .map_err(|problem| self.error(LaunchProblem::Argument { index: i as u32, problem }))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        check::sizes(self.signature, &plans).map_err(mismatch)?;
        Ok(plans)
    }

    fn signature_source(&self) -> String {
        match self.signature {
            Signature::Amdgpu(_) => format!("its .amdhsa.kernels in image '{}'", self.image.path),
            _ => format!("its manifest in image '{}'", self.image.path),
        }
    }

    /// What the host passes at call operand `operand`.
    fn host_arg(&self, operand: u32, value: BasicValueEnum<'ctx>) -> HostArg {
        let ty = value.get_type();
        let text = Type::from(ty).text();
        let kind = match value {
            BasicValueEnum::PointerValue(_) => match attributes::call_param_type(Value::from(self.call), operand, "byval") {
                Some(pointee) => {
                    let size = pointee.fixed_size().map_or(0, |t| self.layout.get_abi_size(&t));
                    return HostArg {
                        kind: HostKind::Byval { size },
                        text: format!("{text} byval({})", pointee.text()),
                    };
                }
                None => HostKind::Pointer,
            },
            BasicValueEnum::IntValue(int) => HostKind::Integer {
                bits: int.get_type().get_bit_width(),
            },
            BasicValueEnum::FloatValue(_) => HostKind::Float(FloatKind::of(Type::from(ty))),
            _ => HostKind::Aggregate {
                size: Type::from(ty).fixed_size().map_or(0, |t| self.layout.get_abi_size(&t)),
            },
        };
        HostArg { kind, text }
    }

    /// True when attribute `name` is on call operand `operand` (call or declaration).
    fn has_attr(&self, operand: u32, name: &str) -> bool {
        attributes::call_param(Value::from(self.call), operand, name).is_some()
    }

    /// How kernel argument `index` (`value`, call operand `first + index`)
    /// is passed, from its descriptor words or else its type, attributes and
    /// the kernel's manifest.
    fn plan_argument(
        &self,
        first: u32,
        index: u32,
        value: BasicValueEnum<'ctx>,
        context: ArgContext<'_>,
        arguments: &[BasicValueEnum<'ctx>],
    ) -> Result<ArgPlan, ArgProblem> {
        let ty = value.get_type();
        let store_size = self.layout.get_store_size(&ty);
        let spec = context.spec;
        match value {
            BasicValueEnum::PointerValue(pointer) => self.plan_pointer(first + index, pointer, context, arguments),
            BasicValueEnum::IntValue(int) => {
                let bits = int.get_type().get_bit_width();
                if bits > 64 {
                    return Err(ArgProblem::IntegerTooWide { bits });
                }
                literal(spec, store_size)
            }
            BasicValueEnum::FloatValue(float) => {
                if !matches!(self.layout.get_bit_size(&float.get_type()), 16 | 32 | 64) {
                    return Err(ArgProblem::FloatKind { ty: Type::from(ty).text() });
                }
                literal(spec, store_size)
            }
            BasicValueEnum::StructValue(_) | BasicValueEnum::ArrayValue(_) | BasicValueEnum::VectorValue(_) => {
                if spec.map & !map_type::TO != 0 {
                    return Err(ArgProblem::AggregateMap { map: spec.map });
                }
                Ok(ArgPlan::Spilled {
                    size: self.layout.get_abi_size(&ty),
                })
            }
            BasicValueEnum::ScalableVectorValue(_) => Err(ArgProblem::ScalableVector),
        }
    }

    fn plan_pointer(
        &self,
        operand: u32,
        pointer: PointerValue<'ctx>,
        context: ArgContext<'_>,
        arguments: &[BasicValueEnum<'ctx>],
    ) -> Result<ArgPlan, ArgProblem> {
        let spec = context.spec;
        if pointer.get_type().get_address_space() != AddressSpace::default() {
            return Err(ArgProblem::PointerAddressSpace);
        }
        if spec.map & map_type::LITERAL != 0 {
            return Ok(ArgPlan::Literal {
                map: spec.map,
                size: self.layout.get_store_size(&pointer.get_type()),
            });
        }
        let byval = attributes::call_param_type(Value::from(self.call), operand, "byval");
        // A struct the kernel takes by value is only read there: a copy.
        let copy = byval.is_some() || context.param.is_some_and(Param::is_by_value);
        let map = match (spec.map, copy) {
            (0, true) => map_type::TO,
            (0, false) => map_type::for_pointer(self.has_attr(operand, "readonly"), self.has_attr(operand, "writeonly")),
            (given, _) => given,
        };
        let size = self.pointer_size(operand, context, byval, arguments)?;
        Ok(ArgPlan::Mapped { map, size })
    }

    /// The bytes a pointer argument maps: the descriptor's SIZE (times the
    /// length argument for a v1 slice), else `byval(T)`'s size, else
    /// `dereferenceable(N)`, else the by-value size the manifest gives; else
    /// (v2) the config's size at run time. Unknown in v1 is an error rather
    /// than a silent 0.
    fn pointer_size(
        &self,
        operand: u32,
        context: ArgContext<'_>,
        byval: Option<Type<'ctx>>,
        arguments: &[BasicValueEnum<'ctx>],
    ) -> Result<Size, ArgProblem> {
        let spec = context.spec;
        if let Some(len_arg) = spec.len_arg {
            if spec.size == 0 {
                return Err(ArgProblem::LengthNeedsSize);
            }
            let Some(BasicValueEnum::IntValue(len)) = arguments.get(len_arg as usize) else {
                return Err(ArgProblem::LengthNotInteger { len_arg });
            };
            if len.get_type().get_bit_width() > 64 {
                return Err(ArgProblem::LengthTooWide { len_arg });
            }
            return Ok(Size::Elements {
                len_arg,
                element: spec.size,
            });
        }
        if spec.size != 0 {
            return Ok(Size::Bytes(spec.size));
        }
        if let Some(ty) = byval {
            let ty = ty.fixed_size().ok_or(ArgProblem::ByvalNotSized)?;
            return Ok(Size::Bytes(self.layout.get_abi_size(&ty)));
        }
        let attribute = ["dereferenceable", "dereferenceable_or_null"]
            .iter()
            .find_map(|attr| attributes::call_param(Value::from(self.call), operand, attr));
        if let Some(bytes) = attribute {
            return Ok(Size::Bytes(bytes));
        }
        if let Some(param) = context.param.filter(|p| p.is_by_value()) {
            return Ok(Size::Bytes(param.size));
        }
        if context.run_time_size {
            return Ok(Size::RunTime);
        }
        Err(ArgProblem::UnknownSize {
            described: context.described,
        })
    }
}

fn literal(spec: ArgSpec, size: u64) -> Result<ArgPlan, ArgProblem> {
    if spec.map & (map_type::TO | map_type::FROM) != 0 {
        return Err(ArgProblem::ScalarMapped { map: spec.map });
    }
    if spec.len_arg.is_some() {
        return Err(ArgProblem::ScalarLength);
    }
    // Without LITERAL the runtime reads the value's bits as a host address.
    if spec.map != 0 && spec.map & map_type::LITERAL == 0 {
        return Err(ArgProblem::ScalarNotLiteral { map: spec.map });
    }
    let map = if spec.map == 0 { map_type::LITERAL | map_type::IMPLICIT } else { spec.map };
    Ok(ArgPlan::Literal { map, size })
}
