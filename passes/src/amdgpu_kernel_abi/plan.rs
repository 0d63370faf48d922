//! Planning one kernel: what each new parameter is, and which old
//! parameters it replaces. The plan comes from the hint if present
//! ([`super::hint`]), else from debug info ([`super::from_debug_info`]),
//! else from the IR types alone ([`super::from_ir`]). Nothing changes while
//! planning.

use inkwell::targets::TargetData;
use inkwell::values::FunctionValue;

use super::debug_info;
use super::error::{Error, ParamProblem};
use super::from_ir::plan_from_ir;
use super::param::{Action, MAX_BYREF_SIZE, ParamPlan, is_aggregate, is_pointer, keep, param_type};
use super::{HINT, PASS};
use crate::Diagnostics;
use crate::ir::naming::{self, ParamRef};
use crate::ir::{attributes, metadata, types};

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
