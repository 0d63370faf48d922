//! How each argument of a launch is passed: its kind checked against the
//! kernel's signature, then planned from its descriptor words, else its
//! type, attributes and the kernel's manifest (literal, mapped pointer, or
//! spilled aggregate) — the same for every launch form.

use inkwell::AddressSpace;
use inkwell::values::{BasicValueEnum, PointerValue};

use super::check::{self, HostArg, HostKind, Signature};
use super::descriptor::{ArgSpec, map_type};
use super::error::{ArgProblem, Error, LaunchProblem};
use super::launch_plan::{ArgPlan, Size};
use super::site::Site;
use crate::ir::{Type, Value, attributes};
use crate::kernel_manifest::{FloatKind, Param};

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

impl<'ctx> Site<'_, 'ctx> {
    /// Checks the arguments against the kernel's signature (count and kinds
    /// first, sizes once planned) and plans each.
    pub fn plan_arguments(
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
        let host: Vec<HostArg> = arguments
            .iter()
            .enumerate()
            .map(|(i, v)| self.host_arg(first + i as u32, *v))
            .collect();
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
                    .map_err(|problem| {
                        self.error(LaunchProblem::Argument {
                            index: i as u32,
                            problem,
                        })
                    })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        check::sizes(self.signature, &plans).map_err(mismatch)?;
        Ok(plans)
    }

    fn signature_source(&self) -> String {
        match self.signature {
            Signature::Amdgpu(_) => format!("its .amdhsa.kernels in {}", self.images.label()),
            _ => format!("its manifest in {}", self.images.label()),
        }
    }

    /// What the host passes at call operand `operand`.
    fn host_arg(&self, operand: u32, value: BasicValueEnum<'ctx>) -> HostArg {
        let ty = value.get_type();
        let text = Type::from(ty).text();
        let kind = match value {
            BasicValueEnum::PointerValue(_) => {
                match attributes::call_param_type(Value::from(self.call), operand, "byval") {
                    Some(pointee) => {
                        let size = pointee
                            .fixed_size()
                            .map_or(0, |t| self.layout.get_abi_size(&t));
                        return HostArg {
                            kind: HostKind::Byval { size },
                            text: format!("{text} byval({})", pointee.text()),
                        };
                    }
                    None => HostKind::Pointer,
                }
            }
            BasicValueEnum::IntValue(int) => HostKind::Integer {
                bits: int.get_type().get_bit_width(),
            },
            BasicValueEnum::FloatValue(_) => HostKind::Float(FloatKind::of(Type::from(ty))),
            _ => HostKind::Aggregate {
                size: Type::from(ty)
                    .fixed_size()
                    .map_or(0, |t| self.layout.get_abi_size(&t)),
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
            BasicValueEnum::PointerValue(pointer) => {
                self.plan_pointer(first + index, pointer, context, arguments)
            }
            BasicValueEnum::IntValue(int) => {
                let bits = int.get_type().get_bit_width();
                if bits > 64 {
                    return Err(ArgProblem::IntegerTooWide { bits });
                }
                literal(spec, store_size)
            }
            BasicValueEnum::FloatValue(float) => {
                if !matches!(self.layout.get_bit_size(&float.get_type()), 16 | 32 | 64) {
                    return Err(ArgProblem::FloatKind {
                        ty: Type::from(ty).text(),
                    });
                }
                literal(spec, store_size)
            }
            BasicValueEnum::StructValue(_)
            | BasicValueEnum::ArrayValue(_)
            | BasicValueEnum::VectorValue(_) => {
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
            (0, false) => map_type::for_pointer(
                self.has_attr(operand, "readonly"),
                self.has_attr(operand, "writeonly"),
            ),
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
    let map = if spec.map == 0 {
        map_type::LITERAL | map_type::IMPLICIT
    } else {
        spec.map
    };
    Ok(ArgPlan::Literal { map, size })
}
