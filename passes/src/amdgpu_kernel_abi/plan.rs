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
    /// Why the choice may be wrong, for the user (a warning once the plan
    /// is final).
    pub doubt: Option<&'static str>,
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
    /// A pointer to a value that is one scalar or pointer (`pointer`): pass
    /// that element itself when the body allows (see [`super::wrapper`]),
    /// else as `Indirect`.
    IndirectWrapper {
        size: u64,
        align: u64,
        pointer: bool,
    },
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
            Action::Indirect { size, .. }
            | Action::IndirectWrapper { size, .. }
            | Action::Pair { size, .. } => Some(*size),
            Action::Keep | Action::ByValueWrapper { .. } => None,
        }
    }
}

pub fn keep(index: u32) -> ParamPlan<'static> {
    ParamPlan {
        old: index..index + 1,
        action: Action::Keep,
        source: "IR",
        doubt: None,
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
    matches!(
        ty,
        BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_)
    )
}

/// The kernel's parameter plan.
/// `hint` is the kind id of [`HINT`] in the module's context;
/// `made_by_rustc`: the module's `!llvm.ident` names rustc.
pub fn plan_kernel<'ctx>(
    kernel: FunctionValue<'ctx>,
    hint: u32,
    made_by_rustc: bool,
    layout: &TargetData,
    diagnostics: &mut Diagnostics,
) -> Result<Vec<ParamPlan<'ctx>>, Error> {
    for index in 0..kernel.count_params() {
        if let Some(ty) = types::param_basic_type(kernel, index)
            && is_aggregate(ty)
            && let Some(element) = crate::ir::Type::from(ty).first_without_fixed_size()
        {
            let element = element.text();
            return Err(param_error(
                kernel,
                index,
                ParamProblem::NoFixedSize { element },
            ));
        }
    }
    let plan = if let Some((index, _)) = types::first_opaque_param(kernel) {
        plan_opaque_kernel(kernel, index, hint, layout)?
    } else if let Some(plan) = super::hint::plan(kernel, hint, layout)? {
        plan
    } else {
        plan_with_debug_info(kernel, made_by_rustc, layout, diagnostics)
    };
    check_byref_sizes(kernel, &plan, layout)?;
    Ok(plan)
}

/// From debug info if the kernel has it and it lines up, else the IR rules.
fn plan_with_debug_info<'ctx>(
    kernel: FunctionValue<'ctx>,
    made_by_rustc: bool,
    layout: &TargetData,
    diagnostics: &mut Diagnostics,
) -> Vec<ParamPlan<'ctx>> {
    match debug_info::source_parameter_types(kernel) {
        Ok(Some(sources)) => match super::from_debug_info::plan(kernel, &sources, layout) {
            Some(plan) => {
                for item in &plan {
                    if let Some(doubt) = item.doubt {
                        diagnostics.warn(format!("{}: {doubt}", ParamRef::of(kernel, item.old.start)));
                    }
                }
                return plan;
            }
            None => diagnostics.warn(format!(
                "kernel '{}': its debug info lists {} source parameters that do not match its {} IR parameters (sizes, kinds or count disagree); the debug info is ignored and the IR types alone decide the kernel's parameters",
                naming::name_of(kernel),
                sources.params.len(),
                kernel.count_params()
            )),
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
    warn_undecidable(kernel, &plan, made_by_rustc, layout, diagnostics);
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
fn check_byref_sizes(
    kernel: FunctionValue<'_>,
    plan: &[ParamPlan<'_>],
    layout: &TargetData,
) -> Result<(), Error> {
    for item in plan {
        if let Some(size) = item.byref_size(layout)
            && size > MAX_BYREF_SIZE
        {
            return Err(param_error(
                kernel,
                item.old.start,
                ParamProblem::TooLarge { size },
            ));
        }
    }
    Ok(())
}

/// The parameters `plan` (made by the IR rules) keeps that the IR types
/// alone cannot tell from parts of a split aggregate (any two neighbouring
/// kept scalars or pointers) or from a pointer to one (a bare `ptr align A`).
fn params_in_doubt(kernel: FunctionValue<'_>, plan: &[ParamPlan<'_>]) -> Vec<u32> {
    let kept = |i: u32| {
        plan.iter().any(|p| p.old.start == i && !p.changes())
            && !attributes::has_param(kernel, i, "byref")
            && types::param_basic_type(kernel, i).is_some_and(|ty| !is_aggregate(ty))
    };
    let count = kernel.count_params();
    (0..count)
        .filter(|&i| {
            let pair = (i > 0 && kept(i - 1)) || (i + 1 < count && kept(i + 1));
            let indirect = is_pointer(param_type(kernel, i))
                && attributes::has_param(kernel, i, "align")
                && !attributes::has_param(kernel, i, "dereferenceable");
            kept(i) && (pair || indirect)
        })
        .collect()
}

/// The parameters of `kernel` whose plan another kernel's source types could
/// have changed: those `plan` took from debug info or a hint, and those the
/// IR rules alone leave in doubt ([`params_in_doubt`]).
pub fn decided_by_source_types(
    kernel: FunctionValue<'_>,
    plan: &[ParamPlan<'_>],
    layout: &TargetData,
) -> Vec<u32> {
    let from_ir: Vec<ParamPlan<'_>> = (0..kernel.count_params())
        .map(|i| plan_from_ir(kernel, i, layout))
        .collect();
    let mut params: Vec<u32> = plan
        .iter()
        .filter(|p| p.source != "IR")
        .flat_map(|p| p.old.clone())
        .chain(params_in_doubt(kernel, &from_ir))
        .collect();
    params.sort_unstable();
    params.dedup();
    params
}

/// Without debug info or a hint, rustc's IR cannot show which kept
/// parameters are parts of a split aggregate (`PassMode::Pair`: any two
/// neighbouring scalars or pointers) or a pointer to one (-O0: a bare `ptr
/// align A`). For a module rustc made (`!llvm.ident`), the user is warned,
/// once per kernel, with the parameters in doubt and the fix; other front
/// ends (clang, hand-written IR) do not split, so only the debug log says it.
fn warn_undecidable(
    kernel: FunctionValue<'_>,
    plan: &[ParamPlan<'_>],
    made_by_rustc: bool,
    layout: &TargetData,
    diagnostics: &mut Diagnostics,
) {
    let in_doubt = params_in_doubt(kernel, plan);
    // An 8-byte indirect aggregate the body loads only as an integer (or
    // not at all) may hold one pointer, which clang passes as the pointer
    // (a `global_buffer` argument): same bytes, other metadata.
    let pointer_size = u64::from(layout.get_pointer_byte_size(None));
    let maybe_pointer: Vec<u32> = plan
        .iter()
        .filter(|p| matches!(p.action, Action::Indirect { size, align } if size == pointer_size && align == pointer_size))
        .map(|p| p.old.start)
        .filter(|&i| {
            naming::param(kernel, i)
                .and_then(super::wrapper::load_types)
                .is_some_and(|types| types.iter().all(|ty| ty.is_int_type()))
        })
        .collect();
    if in_doubt.is_empty() && maybe_pointer.is_empty() {
        return;
    }
    let list = |params: &[u32]| {
        let listed: Vec<String> = params
            .iter()
            .map(|&i| ParamRef::of(kernel, i).to_string())
            .collect();
        listed
            .join(", ")
            .replace(&format!("kernel '{}', ", naming::name_of(kernel)), "")
    };
    let mut doubts = Vec::new();
    if !in_doubt.is_empty() {
        doubts.push(format!(
            "{} may be parts of an aggregate rustc split in two (PassMode::Pair) or a pointer to one (-O0), which the IR types alone cannot show; they are left as they are",
            list(&in_doubt)
        ));
    }
    if !maybe_pointer.is_empty() {
        doubts.push(format!(
            "{} may be a struct of one pointer, which clang passes as the pointer (a global_buffer argument); it becomes 8 bytes by value, the same bytes",
            list(&maybe_pointer)
        ));
    }
    let message = format!(
        "kernel '{}' has no debug info: {}, so the kernel argument layout may not be clang's. Compile with -Cdebuginfo=2 (strip it later if you like) or describe them with an !{HINT} hint",
        naming::name_of(kernel),
        doubts.join("; ")
    );
    if made_by_rustc {
        diagnostics.warn(message);
    } else {
        log::debug!("{PASS}: {message}");
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
pub fn plan_from_ir<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    layout: &TargetData,
) -> ParamPlan<'ctx> {
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
            doubt: None,
        };
    }
    if let Some((size, align)) = rustc_indirect(kernel, index) {
        // An aggregate of one pointer (clang passes the pointer: a
        // `global_buffer` argument), shown by a body that only loads a
        // pointer from it; any other 8-byte aggregate stays bytes.
        let pointer_size = u64::from(layout.get_pointer_byte_size(None));
        let one_pointer = size == pointer_size
            && align == pointer_size
            && naming::param(kernel, index).is_some_and(super::wrapper::only_loads_pointers);
        let action = if one_pointer {
            Action::IndirectWrapper {
                size,
                align,
                pointer: true,
            }
        } else {
            Action::Indirect { size, align }
        };
        return ParamPlan {
            old: index..index + 1,
            action,
            source: "IR",
            doubt: None,
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
pub fn single_element<'ctx>(
    ty: BasicTypeEnum<'ctx>,
    layout: &TargetData,
) -> Option<(BasicTypeEnum<'ctx>, Vec<u32>)> {
    let mut path = Vec::new();
    let mut inner = ty;
    loop {
        inner = match inner {
            BasicTypeEnum::StructType(s) if s.count_fields() == 1 => {
                s.get_field_type_at_index(0)?
            }
            BasicTypeEnum::ArrayType(a) if a.len() == 1 => a.get_element_type(),
            BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_) => return None,
            _ => break,
        };
        path.push(0);
    }
    (layout.get_abi_size(&inner) == layout.get_abi_size(&ty)).then_some((inner, path))
}
