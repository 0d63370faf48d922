//! Planning: every launch (v1 and v2) and data-region call of the module,
//! found and checked against the image before the module changes.

use std::collections::HashMap;

use inkwell::AddressSpace;
use inkwell::module::Module;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue, IntValue};

use super::Options;
use super::check::Signature;
use super::contract::{self, DataOp, DescriptorProblem, LaunchDescriptor, map_type};
use super::contract_v2::LAUNCH2_PREFIX;
use super::error::{DataCallProblem, Error, LaunchProblem};
use super::image::DeviceImage;
use super::libomptarget;
use super::site::{Call, Site};
use crate::ir::{Value, calls, module_utils, naming};

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
    /// `len * element` with `len` from kernel argument `len_arg` (v1).
    Elements { len_arg: u32, element: u64 },
    /// Known only at run time, from the v2 config's sizes.
    RunTime,
}

impl ArgPlan {
    pub fn map(&self) -> u64 {
        match *self {
            ArgPlan::Literal { map, .. } | ArgPlan::Mapped { map, .. } => map,
            ArgPlan::Spilled { .. } => map_type::TO,
        }
    }

    /// The size when known at compile time (`None` for a run-time size).
    pub fn constant_size(&self) -> Option<u64> {
        match *self {
            ArgPlan::Literal { size, .. } | ArgPlan::Spilled { size } => Some(size),
            ArgPlan::Mapped { size: Size::Bytes(n), .. } => Some(n),
            ArgPlan::Mapped {
                size: Size::Elements { .. } | Size::RunTime,
                ..
            } => None,
        }
    }
}

/// Where a launch's grid comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grid {
    /// v1: compile-time values (descriptor or pass defaults).
    Static {
        teams: [u32; 3],
        threads: [u32; 3],
        dyn_cgroup_mem: u32,
    },
    /// v2: the `LaunchConfig` the call passes as operand 1, read at run time.
    Config,
}

/// One launch site, fully resolved. Argument values are read again when
/// the launch is lowered: an earlier launch's lowering replaces its call,
/// whose result a later launch may take as an argument or a length.
pub struct Launch<'ctx> {
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub kernel: String,
    pub grid: Grid,
    /// The call operand of kernel argument 0 (0 in v1; 2 in v2, after the
    /// descriptor and the config).
    pub first_arg: u32,
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
}

impl Plan<'_> {
    pub fn is_empty(&self) -> bool {
        self.launches.is_empty() && self.data_calls.is_empty()
    }
}

/// What the image says about kernel `name`; `None` when it is not a kernel
/// this pass may launch (not in the manifest, not `foreign=`, no AMDGPU
/// kernarg metadata). A manifest kernel missing from the symbols is an error.
fn signature_of<'a>(image: &'a DeviceImage, options: &Options, name: &str) -> Result<Option<Signature<'a>>, Error> {
    if let Some(manifest) = image.manifests.get(name) {
        image.check_kernel(name).map_err(Error::MissingKernel)?;
        return Ok(Some(Signature::Manifest(manifest)));
    }
    if options.foreign.iter().any(|f| f == name) {
        return Ok(Some(Signature::Foreign));
    }
    let amdgpu = image.amdgpu.as_ref().and_then(|m| m.kernels.get(name));
    Ok(amdgpu
        .filter(|_| image.has_kernel(name))
        .map(|args| Signature::Amdgpu(args)))
}

/// The error for a call that must be a launch of `name` (it carries a
/// descriptor, or is a v2 call) when the image does not offer it.
fn not_launchable(image: &DeviceImage, name: &str, caller: FunctionValue<'_>) -> Error {
    if let Err(missing) = image.check_kernel(name) {
        return Error::MissingKernel(missing);
    }
    Error::Launch {
        kernel: naming::display_symbol(name),
        caller: naming::name_of(caller),
        problem: LaunchProblem::NotInManifest {
            image: image.path.clone(),
            listed: image.manifests.keys().map(|k| naming::display_symbol(k)).collect(),
        },
    }
}

pub fn plan<'ctx>(module: &Module<'ctx>, image: &DeviceImage, options: &Options) -> Result<Plan<'ctx>, Error> {
    let layout = crate::ir::types::target_data(module);
    let mut plan = Plan {
        launches: Vec::new(),
        data_calls: Vec::new(),
    };
    let mut descriptors: HashMap<String, Option<Result<LaunchDescriptor, DescriptorProblem>>> = HashMap::new();
    // Whether a callee is used other than as a callee: once per callee (its
    // users are every launch site).
    let mut taken: HashMap<FunctionValue<'ctx>, bool> = HashMap::new();
    let mut address_taken = |callee: FunctionValue<'ctx>| {
        *taken.entry(callee).or_insert_with(|| {
            let f = Value::from(callee);
            f.users().into_iter().any(|user| calls::called_value(user) != Some(f))
        })
    };
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
        if let Some(kernel) = name.strip_prefix(LAUNCH2_PREFIX) {
            let signature = signature_of(image, options, kernel)?.ok_or_else(|| not_launchable(image, kernel, caller))?;
            let at = Call {
                call,
                caller,
                callee,
                address_taken: address_taken(callee),
            };
            let site = Site::new(&layout, at, kernel, signature, image);
            plan.launches.push(site.plan_v2()?);
            continue;
        }
        let descriptor = descriptors
            .entry(name.clone())
            .or_insert_with(|| contract::global_descriptor(module, &name, &layout));
        let marked = metadata.is_some() || descriptor.is_some();
        let declaration = callee.count_basic_blocks() == 0;
        let signature = match signature_of(image, options, &name)? {
            Some(signature) if marked || declaration => signature,
            Some(_) => continue, // a defined function of the kernel's name: an ordinary call
            None if marked => return Err(not_launchable(image, &name, caller)),
            None => {
                if declaration && image.has_kernel(&name) {
                    log::debug!(
                        "offload-host: call of '{}' in '{}' is not lowered: the image exports it, but it is not a kernel its manifest lists (nor foreign=)",
                        naming::display_symbol(&name),
                        naming::name_of(caller)
                    );
                }
                continue;
            }
        };
        let global = match descriptor {
            Some(Err(problem)) => {
                return Err(Error::Descriptor {
                    symbol: format!("{}{name}", contract::DESCRIPTOR_PREFIX),
                    problem: problem.clone(),
                });
            }
            Some(Ok(descriptor)) => Some(descriptor.clone()),
            None => None,
        };
        let at = Call {
            call,
            caller,
            callee,
            address_taken: address_taken(callee),
        };
        let site = Site::new(&layout, at, &name, signature, image);
        plan.launches.push(site.plan_v1(options, metadata, global)?);
    }
    if !plan.is_empty() {
        check_runtime_declarations(module)?;
        check_openmp_flag(module)?;
    }
    Ok(plan)
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
