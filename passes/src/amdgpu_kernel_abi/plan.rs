//! Planning one kernel: what each new parameter is, and which old
//! parameters it replaces. The plan comes from the hint if present
//! ([`super::hint`]), else from debug info ([`super::from_debug_info`]),
//! else from the IR types alone (here). Nothing changes while planning.

use std::ops::Range;

use inkwell::AddressSpace;
use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;

use super::debug_info;
use super::error::{Error, ParamProblem};
use super::{HINT, PASS};
use crate::Diagnostics;
use crate::ir::naming::{self, ParamRef};
use crate::ir::{attributes, metadata, types};

/// LLVM's verifier refuses `byref` types of 4 GiB or more.
pub const MAX_BYREF_SIZE: u64 = (1 << 32) - 1;

/// What becomes of one new parameter, and which old parameters it replaces.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamPlan<'ctx> {
    /// Old parameter indices this new parameter replaces (consecutive; a
    /// range, not a vector: plans for every kernel are held at once).
    pub old: Range<u32>,
    pub action: Action<'ctx>,
    /// Where the knowledge came from: "IR", "debug info" or "hint".
    pub source: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action<'ctx> {
    /// Already in its final form.
    Keep,
    /// A first-class aggregate: `byref(T)`, uses read a load of it.
    ByValueAggregate { ty: BasicTypeEnum<'ctx> },
    /// A first-class aggregate wrapping one element: pass the element,
    /// rebuild the aggregate with `insertvalue` at `path`.
    ByValueWrapper {
        element: BasicTypeEnum<'ctx>,
        path: Vec<u32>,
    },
    /// A pointer to the value: `byref([size x i8])`, uses see it cast to `ptr`.
    Indirect { size: u64, align: u64 },
    /// A pointer to a value that is one scalar: pass the scalar itself when
    /// the body allows (see [`super::wrapper`]), else as `Indirect`.
    IndirectWrapper { size: u64, align: u64 },
    /// rustc's `PassMode::Pair`, the two scalars of one source aggregate, at
    /// these byte offsets: `byref([size x i8])`, each old parameter becomes
    /// a load at its offset. (A hint may describe more than two fields.)
    Pair {
        offsets: Vec<u64>,
        size: u64,
        align: u64,
    },
}

impl ParamPlan<'_> {
    pub fn changes(&self) -> bool {
        !matches!(self.action, Action::Keep)
    }

    /// The byref size this plan gives the parameter, if it becomes byref.
    fn byref_size(&self, layout: &TargetData) -> Option<u64> {
        match &self.action {
            Action::ByValueAggregate { ty } => Some(layout.get_abi_size(ty)),
            Action::Indirect { size, .. } | Action::IndirectWrapper { size, .. } | Action::Pair { size, .. } => {
                Some(*size)
            }
            Action::Keep | Action::ByValueWrapper { .. } => None,
        }
    }
}

pub fn keep(index: u32) -> ParamPlan<'static> {
    ParamPlan {
        old: index..index + 1,
        action: Action::Keep,
        source: "IR",
    }
}

/// The type of parameter `index` of a kernel the planner accepted (one
/// without parameters of types inkwell cannot wrap, see [`plan_kernel`]).
pub fn param_type<'ctx>(kernel: FunctionValue<'ctx>, index: u32) -> BasicTypeEnum<'ctx> {
    types::param_basic_type(kernel, index)
        .expect("plan_kernel keeps kernels with parameter types inkwell cannot wrap out")
}

pub fn is_pointer(ty: BasicTypeEnum<'_>) -> bool {
    matches!(ty, BasicTypeEnum::PointerType(_))
}

pub fn is_aggregate(ty: BasicTypeEnum<'_>) -> bool {
    matches!(ty, BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_))
}

/// The kernel's parameter plan.
/// `hint` is the kind id of [`HINT`] in the module's context.
pub fn plan_kernel<'ctx>(
    kernel: FunctionValue<'ctx>,
    hint: u32,
    layout: &TargetData,
    diagnostics: &mut Diagnostics,
) -> Result<Vec<ParamPlan<'ctx>>, Error> {
    for index in 0..kernel.count_params() {
        if let Some(ty) = types::param_basic_type(kernel, index)
            && is_aggregate(ty)
            && !crate::ir::Type::from(ty).has_fixed_size()
        {
            return Err(param_error(kernel, index, ParamProblem::NoFixedSize));
        }
    }
    let plan = if let Some((index, _)) = types::first_opaque_param(kernel) {
        plan_opaque_kernel(kernel, index, hint, layout)?
    } else if let Some(plan) = super::hint::plan(kernel, hint, layout)? {
        plan
    } else {
        plan_with_debug_info(kernel, layout, diagnostics)
    };
    check_byref_sizes(kernel, &plan, layout)?;
    Ok(plan)
}

/// From debug info if the kernel has it and it lines up, else the IR rules.
fn plan_with_debug_info<'ctx>(
    kernel: FunctionValue<'ctx>,
    layout: &TargetData,
    diagnostics: &mut Diagnostics,
) -> Vec<ParamPlan<'ctx>> {
    match debug_info::source_parameter_types(kernel) {
        Ok(Some(sources)) => match super::from_debug_info::plan(kernel, &sources, layout) {
            Some(plan) => return plan,
            None => log::debug!(
                "{PASS}: kernel '{}': debug info lists {} source parameters that do not match the {} IR parameters; using IR types alone",
                naming::name_of(kernel),
                sources.len(),
                kernel.count_params()
            ),
        },
        Ok(None) => {}
        Err(e) => diagnostics.warn(format!(
            "kernel '{}': {e}; the debug info is ignored and the IR types alone decide the kernel's parameters",
            naming::name_of(kernel)
        )),
    }
    let plan: Vec<ParamPlan<'ctx>> = (0..kernel.count_params())
        .map(|i| plan_from_ir(kernel, i, layout))
        .collect();
    log_undecidable(kernel, &plan);
    plan
}

pub fn param_error(kernel: FunctionValue<'_>, index: u32, problem: ParamProblem) -> Error {
    let ty = types::param_types(kernel)
        .get(index as usize)
        .map(|t| t.text())
        .unwrap_or_default();
    Error::Param {
        param: ParamRef::of(kernel, index),
        ty,
        problem,
    }
}

/// Every planned byref type must be one the verifier accepts.
fn check_byref_sizes(kernel: FunctionValue<'_>, plan: &[ParamPlan<'_>], layout: &TargetData) -> Result<(), Error> {
    for item in plan {
        if let Some(size) = item.byref_size(layout)
            && size > MAX_BYREF_SIZE
        {
            return Err(param_error(kernel, item.old.start, ParamProblem::TooLarge { size }));
        }
    }
    Ok(())
}

/// Says which kept parameters might be aggregates the IR alone cannot show:
/// rustc's -O0 by-value aggregates are a bare `ptr align A`.
fn log_undecidable(kernel: FunctionValue<'_>, plan: &[ParamPlan<'_>]) {
    if !log::log_enabled!(log::Level::Debug) {
        return;
    }
    for item in plan.iter().filter(|p| !p.changes()) {
        let index = item.old.start;
        if is_pointer(param_type(kernel, index)) && attributes::has_param(kernel, index, "align") {
            log::debug!(
                "{PASS}: {}: a bare 'ptr align A' may be a by-value aggregate (rustc -O0) or a pointer; without debug info or an !{HINT} hint it is left alone",
                ParamRef::of(kernel, index)
            );
        }
    }
}

/// A kernel with a parameter of a type no signature can be rebuilt around
/// (`target(...)`, `x86_amx`): left alone when nothing else in it needs a
/// rewrite (by the IR rules; debug info is not consulted), an error naming
/// that parameter otherwise, or when it carries a hint.
fn plan_opaque_kernel<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    hint: u32,
    layout: &TargetData,
) -> Result<Vec<ParamPlan<'ctx>>, Error> {
    let plan: Vec<ParamPlan<'ctx>> = (0..kernel.count_params())
        .map(|i| match types::param_basic_type(kernel, i) {
            Some(_) => plan_from_ir(kernel, i, layout),
            None => keep(i),
        })
        .collect();
    let hinted = metadata::attachment_of_kind(kernel, hint).is_some();
    if hinted || plan.iter().any(ParamPlan::changes) {
        return Err(param_error(kernel, index, ParamProblem::Opaque));
    }
    log::debug!(
        "{PASS}: {}: a type no signature can be rebuilt around; nothing else to rewrite, kernel left alone",
        ParamRef::of(kernel, index)
    );
    Ok(plan)
}

/// The rule for one parameter when only its IR type and attributes are known.
pub fn plan_from_ir<'ctx>(kernel: FunctionValue<'ctx>, index: u32, layout: &TargetData) -> ParamPlan<'ctx> {
    let ty = param_type(kernel, index);
    if attributes::has_param(kernel, index, "byref") {
        return keep(index);
    }
    if is_aggregate(ty) {
        let action = match single_element(ty, layout) {
            Some((element, path)) => Action::ByValueWrapper { element, path },
            None => Action::ByValueAggregate { ty },
        };
        return ParamPlan {
            old: index..index + 1,
            action,
            source: "IR",
        };
    }
    if let Some((size, align)) = rustc_indirect(kernel, index) {
        return ParamPlan {
            old: index..index + 1,
            action: Action::Indirect { size, align },
            source: "IR",
        };
    }
    keep(index)
}

/// rustc's indirect by-value aggregate: a generic pointer the callee owns
/// (`dead_on_return`) with a known size. Returns (size, align).
pub fn rustc_indirect(kernel: FunctionValue<'_>, index: u32) -> Option<(u64, u64)> {
    let ty = param_type(kernel, index);
    let generic = matches!(ty, BasicTypeEnum::PointerType(p) if p.get_address_space() == AddressSpace::default());
    if !generic || !attributes::has_param(kernel, index, "dead_on_return") {
        return None;
    }
    let size = attributes::param_value(kernel, index, "dereferenceable")?;
    let align = attributes::param_align(kernel, index).unwrap_or(1);
    Some((size, align))
}

/// The single scalar, vector or pointer an aggregate wraps (recursively),
/// with the index path to reach it; `None` when it holds anything else.
/// clang's single-element-struct rule: the element must fill the aggregate.
pub fn single_element<'ctx>(ty: BasicTypeEnum<'ctx>, layout: &TargetData) -> Option<(BasicTypeEnum<'ctx>, Vec<u32>)> {
    let mut path = Vec::new();
    let mut inner = ty;
    loop {
        inner = match inner {
            BasicTypeEnum::StructType(s) if s.count_fields() == 1 => s.get_field_type_at_index(0)?,
            BasicTypeEnum::ArrayType(a) if a.len() == 1 => a.get_element_type(),
            BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_) => return None,
            _ => break,
        };
        path.push(0);
    }
    (layout.get_abi_size(&inner) == layout.get_abi_size(&ty)).then_some((inner, path))
}
