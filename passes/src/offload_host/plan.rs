//! Planning: every launch and data-region call of the module, found and
//! checked before the module changes.

use std::collections::HashMap;

use inkwell::AddressSpace;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetData;
use inkwell::types::AnyType;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue, IntValue, PointerValue};

use super::contract::{self, ArgSpec, DataOp, DescriptorProblem, LaunchDescriptor, map_type};
use super::error::{ArgProblem, DataCallProblem, Error, LaunchProblem};
use super::image::DeviceImage;
use super::libomptarget;
use super::Options;
use crate::ir::{Value, attributes, calls, module_utils, naming};

/// How one argument is passed.
#[derive(Debug, Clone, Copy)]
pub enum ArgPlan {
    /// By value in the base-pointer slot (LITERAL|IMPLICIT or as given).
    Literal { map: u64, size: u64 },
    /// A pointer to mapped memory.
    Mapped { map: u64, size: Size },
    /// A first-class aggregate: spilled to an entry-block alloca, mapped TO.
    Spilled { size: u64 },
}

#[derive(Debug, Clone, Copy)]
pub enum Size {
    Bytes(u64),
    /// `len * element` with `len` from integer argument `len_arg`.
    Elements { len_arg: u32, element: u64 },
}

impl ArgPlan {
    pub fn map(&self) -> u64 {
        match *self {
            ArgPlan::Literal { map, .. } | ArgPlan::Mapped { map, .. } => map,
            ArgPlan::Spilled { .. } => map_type::TO,
        }
    }

    pub fn constant_size(&self) -> Option<u64> {
        match *self {
            ArgPlan::Literal { size, .. } | ArgPlan::Spilled { size } => Some(size),
            ArgPlan::Mapped { size: Size::Bytes(n), .. } => Some(n),
            ArgPlan::Mapped { size: Size::Elements { .. }, .. } => None,
        }
    }
}

/// One launch site, fully resolved. Argument values are read again when
/// the launch is lowered: an earlier launch's lowering replaces its call,
/// whose result a later launch may take as an argument or a length.
pub struct Launch<'ctx> {
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub kernel: String,
    pub teams: [u32; 3],
    pub threads: [u32; 3],
    pub dyn_cgroup_mem: u32,
    pub args: Vec<ArgPlan>,
    /// True when the call's i32 result is used: it receives the return code.
    pub returns_code: bool,
}

/// One explicit data-region call; its (pointer, size, map type) arguments
/// are read when it is lowered, for the same reason.
pub struct DataCall<'ctx> {
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub op: DataOp,
}

pub struct Plan<'ctx> {
    pub launches: Vec<Launch<'ctx>>,
    pub data_calls: Vec<DataCall<'ctx>>,
    /// Launched kernels in order of first launch.
    pub kernels: Vec<String>,
}

impl Plan<'_> {
    pub fn is_empty(&self) -> bool {
        self.launches.is_empty() && self.data_calls.is_empty()
    }
}

/// What is known about one callee while planning.
struct Callee {
    /// `@__offload_launch.K`, if the module has one.
    descriptor: Option<Result<LaunchDescriptor, DescriptorProblem>>,
    /// Some use of the function is not as a call's callee (looked at once
    /// per callee: per launch site it made planning quadratic in the sites).
    address_taken: bool,
}

pub fn plan<'ctx>(module: &Module<'ctx>, image: &DeviceImage, options: &Options) -> Result<Plan<'ctx>, Error> {
    let layout = crate::ir::types::target_data(module);
    let mut plan = Plan {
        launches: Vec::new(),
        data_calls: Vec::new(),
        kernels: Vec::new(),
    };
    let mut callees: HashMap<String, Callee> = HashMap::new();
    for (caller, call) in calls::all_calls(module) {
        let metadata = contract::call_metadata(module, call);
        let Some(callee) = calls::called_function(Value::from(call)).and_then(Value::as_function) else {
            if metadata.is_some() {
                return Err(Error::Launch {
                    kernel: "<indirect>".into(),
                    caller: naming::name_of(caller),
                    problem: LaunchProblem::Indirect,
                });
            }
            continue; // an ordinary indirect call
        };
        let name = naming::symbol(callee);
        if let Some(op) = DataOp::from_name(&name) {
            plan.data_calls.push(plan_data_call(caller, call, callee, op)?);
            continue;
        }
        let known = callees.entry(name.clone()).or_insert_with(|| {
            let f = Value::from(callee);
            Callee {
                descriptor: contract::global_descriptor(module, &name, &layout),
                address_taken: f.user_iter().any(|user| calls::called_value(user) != Some(f)),
            }
        });
        let marked = metadata.is_some() || known.descriptor.is_some();
        let implicit = image.has_kernel(&name) && callee.count_basic_blocks() == 0;
        if !(marked || implicit) {
            continue; // an ordinary call
        }
        let symbol = format!("{}{name}", contract::DESCRIPTOR_PREFIX);
        let global = match &known.descriptor {
            Some(Err(problem)) => {
                return Err(Error::Descriptor {
                    symbol,
                    problem: problem.clone(),
                });
            }
            Some(Ok(descriptor)) => Some(descriptor.clone()),
            None => None,
        };
        let site = Site {
            layout: &layout,
            call,
            caller,
            callee,
        };
        let launch = site.plan(image, options, metadata, global, known.address_taken)?;
        if !plan.kernels.contains(&launch.kernel) {
            plan.kernels.push(launch.kernel.clone());
        }
        plan.launches.push(launch);
    }
    if !plan.is_empty() {
        check_runtime_declarations(module)?;
        check_openmp_flag(module)?;
    }
    Ok(plan)
}

/// A launch call with what argument planning looks at.
struct Site<'a, 'ctx> {
    layout: &'a TargetData,
    call: InstructionValue<'ctx>,
    caller: FunctionValue<'ctx>,
    callee: FunctionValue<'ctx>,
}

impl<'ctx> Site<'_, 'ctx> {
    fn error(&self, problem: LaunchProblem) -> Error {
        Error::Launch {
            kernel: naming::name_of(self.callee),
            caller: naming::name_of(self.caller),
            problem,
        }
    }

    fn plan(
        &self,
        image: &DeviceImage,
        options: &Options,
        metadata: Option<Result<Vec<u64>, DescriptorProblem>>,
        global: Option<LaunchDescriptor>,
        address_taken: bool,
    ) -> Result<Launch<'ctx>, Error> {
        let name = naming::symbol(self.callee);
        if self.callee.count_basic_blocks() > 0 {
            return Err(self.error(LaunchProblem::HasBody));
        }
        image.check_kernel(&name).map_err(Error::MissingKernel)?;
        if calls::is_invoke(Value::from(self.call)) {
            return Err(self.error(LaunchProblem::Invoke));
        }
        if self.callee.get_linkage() == Linkage::ExternalWeak {
            return Err(self.error(LaunchProblem::ExternWeak));
        }
        if address_taken {
            return Err(self.error(LaunchProblem::AddressTaken));
        }
        let descriptor = match metadata {
            Some(words) => words
                .and_then(|words| LaunchDescriptor::from_words(&words))
                .map_err(|p| self.error(LaunchProblem::Descriptor(p)))?,
            None => global.unwrap_or_default(),
        };
        self.plan_launch(options, &descriptor, name)
    }

    fn plan_launch(&self, options: &Options, descriptor: &LaunchDescriptor, kernel: String) -> Result<Launch<'ctx>, Error> {
        let arguments = self.arguments()?;
        if !descriptor.args.is_empty() && descriptor.args.len() != arguments.len() {
            return Err(self.error(LaunchProblem::CountMismatch {
                described: descriptor.args.len(),
                passed: arguments.len(),
            }));
        }
        let args = arguments
            .iter()
            .enumerate()
            .map(|(i, &value)| {
                let spec = descriptor.args.get(i).copied().unwrap_or_default();
                self.plan_argument(i as u32, value, spec, &arguments)
                    .map_err(|problem| self.error(LaunchProblem::Argument { index: i as u32, problem }))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let returns_code = self.call.get_first_use().is_some();
        if returns_code {
            let ty = self.call.get_type();
            if ty != self.callee.get_type().get_context().i32_type().as_any_type_enum() {
                return Err(self.error(LaunchProblem::ResultUsed {
                    ty: crate::ir::Type::from(ty).text(),
                }));
            }
        }
        let default = |given: u32, default: u32| if given == 0 { default } else { given };
        let dims = |given: [u32; 3], x: u32| [default(given[0], x), default(given[1], 1), default(given[2], 1)];
        Ok(Launch {
            call: self.call,
            caller: self.caller,
            kernel,
            teams: dims(descriptor.teams, options.teams),
            threads: dims(descriptor.threads, options.threads),
            dyn_cgroup_mem: descriptor.dyn_cgroup_mem,
            args,
            returns_code,
        })
    }

    /// The call's arguments as inkwell values; a type no launch can pass
    /// (token, metadata, `target(...)`) is an error naming the argument.
    fn arguments(&self) -> Result<Vec<BasicValueEnum<'ctx>>, Error> {
        calls::arguments(Value::from(self.call))
            .into_iter()
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

    /// True when attribute `name` is on argument `index` (call or declaration).
    fn has_attr(&self, index: u32, name: &str) -> bool {
        attributes::call_param(Value::from(self.call), index, name).is_some()
    }

    /// How argument `index` (`value`) is passed, from its descriptor triple
    /// `spec` or else its type and attributes.
    fn plan_argument(
        &self,
        index: u32,
        value: BasicValueEnum<'ctx>,
        spec: ArgSpec,
        arguments: &[BasicValueEnum<'ctx>],
    ) -> Result<ArgPlan, ArgProblem> {
        let ty = value.get_type();
        let store_size = self.layout.get_store_size(&ty);
        match value {
            BasicValueEnum::PointerValue(pointer) => self.plan_pointer(index, pointer, spec, arguments),
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
                        ty: crate::ir::Type::from(ty).text(),
                    });
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
        index: u32,
        pointer: PointerValue<'ctx>,
        spec: ArgSpec,
        arguments: &[BasicValueEnum<'ctx>],
    ) -> Result<ArgPlan, ArgProblem> {
        if pointer.get_type().get_address_space() != AddressSpace::default() {
            return Err(ArgProblem::PointerAddressSpace);
        }
        if spec.map & map_type::LITERAL != 0 {
            return Ok(ArgPlan::Literal {
                map: spec.map,
                size: self.layout.get_store_size(&pointer.get_type()),
            });
        }
        let byval = attributes::call_param_type(Value::from(self.call), index, "byval");
        let map = match (spec.map, byval) {
            (0, Some(_)) => map_type::TO, // a struct by value: a copy
            (0, None) => map_type::for_pointer(self.has_attr(index, "readonly"), self.has_attr(index, "writeonly")),
            (given, _) => given,
        };
        let size = self.pointer_size(index, spec, byval, arguments)?;
        Ok(ArgPlan::Mapped { map, size })
    }

    /// The bytes a pointer argument maps: the descriptor's SIZE (times the
    /// length argument for a slice), else `byval(T)`'s size, else
    /// `dereferenceable(N)`; unknown is an error rather than a silent 0.
    fn pointer_size(
        &self,
        index: u32,
        spec: ArgSpec,
        byval: Option<crate::ir::Type<'ctx>>,
        arguments: &[BasicValueEnum<'ctx>],
    ) -> Result<Size, ArgProblem> {
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
        ["dereferenceable", "dereferenceable_or_null"]
            .iter()
            .find_map(|attr| attributes::call_param(Value::from(self.call), index, attr))
            .map(Size::Bytes)
            .ok_or(ArgProblem::UnknownSize)
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

fn plan_data_call<'ctx>(
    caller: FunctionValue<'ctx>,
    call: InstructionValue<'ctx>,
    callee: FunctionValue<'ctx>,
    op: DataOp,
) -> Result<DataCall<'ctx>, Error> {
    let error = |problem| Error::DataCall {
        callee: naming::name_of(callee),
        caller: naming::name_of(caller),
        problem,
    };
    if callee.count_basic_blocks() > 0 {
        return Err(error(DataCallProblem::HasBody));
    }
    if calls::is_invoke(Value::from(call)) {
        return Err(error(DataCallProblem::Invoke));
    }
    let args: Vec<Option<BasicValueEnum<'ctx>>> = calls::arguments(Value::from(call)).into_iter().map(Value::as_basic).collect();
    let narrow = |v: IntValue<'_>| v.get_type().get_bit_width() <= 64;
    match (args.as_slice(), call.get_first_use().is_some()) {
        (
            [Some(BasicValueEnum::PointerValue(p)), Some(BasicValueEnum::IntValue(size)), Some(BasicValueEnum::IntValue(map))],
            false,
        ) if narrow(*size) && narrow(*map) => {
            if p.get_type().get_address_space() != AddressSpace::default() {
                return Err(error(DataCallProblem::PointerAddressSpace));
            }
            Ok(DataCall { call, caller, op })
        }
        _ => Err(error(DataCallProblem::Shape)),
    }
}

/// Runtime functions the pass declares; an existing declaration with another
/// type is an error (found before anything changes).
fn check_runtime_declarations(module: &Module<'_>) -> Result<(), Error> {
    let types = libomptarget::Types::new(module.get_context());
    for (name, ty) in types.runtime_functions() {
        if let Some(existing) = module.get_function(name) {
            if existing.get_type() != ty {
                return Err(Error::RuntimeDeclaration {
                    name: name.to_owned(),
                    found: crate::ir::Type::from(existing.get_type()).text(),
                    expected: crate::ir::Type::from(ty).text(),
                });
            }
        } else if module.get_global(name).is_some() {
            return Err(Error::RuntimeGlobal { name: name.to_owned() });
        }
    }
    Ok(())
}

/// The `!"openmp"` module flag the pass adds is `Max` 51, as clang's. An
/// existing flag is kept when it links with that (behavior Max), an error
/// otherwise.
fn check_openmp_flag(module: &Module<'_>) -> Result<(), Error> {
    match module_utils::module_flag(module, "openmp") {
        None | Some((Some(libomptarget::MODULE_FLAG_MAX), Some(_))) => Ok(()),
        Some((behavior, value)) => Err(Error::OpenMpFlag { behavior, value }),
    }
}
