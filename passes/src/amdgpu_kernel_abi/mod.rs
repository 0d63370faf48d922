#![forbid(unsafe_code)]
//! `amdgpu-kernel-abi`: pass aggregate kernel arguments the way clang does.
//!
//! **What it does.** For each `amdgpu_kernel` with a body, rewrites parameters
//! that carry a source-level aggregate to `ptr addrspace(4) byref(T) align A`
//! (plus `noalias nofree noundef captures(none) dereferenceable(size)`), the
//! AMDGPU kernel ABI clang uses and the fixed rustc adopts: the host writes the
//! aggregate's bytes into the kernarg segment at `alignTo(offset, A)`. An
//! aggregate that wraps exactly one scalar, vector or pointer (recursively) is
//! passed as that element by value instead, as clang does.
//!
//! **Input it expects.** Parameters in any of these forms:
//! - a first-class aggregate by value (`%S %s`, `[3 x i32] %a`), as clang at
//!   -O0 or hand-written IR has them → `byref(%S)`, or the element;
//! - rustc ≤ 1.95's indirect form, a generic `ptr dead_on_return
//!   dereferenceable(N) align A` → `byref([N x i8]) align A`;
//! - rustc's `PassMode::Pair` (`ptr, i64` for a slice; `i64, i32` for
//!   `{u64, u32}`) and its -O0 indirect form (a bare `ptr align A`): the IR
//!   types alone cannot tell these from real pointers and scalars, so they
//!   are recovered from debug info ([`debug_info`], [`from_debug_info`]) or
//!   from an explicit hint, function metadata `!offload.aggregate.args`
//!   ([`hint`]). Without either such parameters are left alone.
//!
//! **What it guarantees.** The body keeps its meaning: uses of a by-value
//! aggregate read a `load` of the byref memory, pair pieces are loaded from
//! their offsets, a former `dead_on_return` pointer becomes an
//! `addrspacecast` of the byref pointer to `ptr`. The kernel keeps its name,
//! place in the module, linkage, visibility, `dso_local`, comdat, section,
//! function attributes and metadata (`!dbg` included). Nothing here writes
//! through a byref pointer; a kernel that writes to its argument needs
//! `byref-callee-copy` after this pass. A second run changes nothing.
//! Kernels whose signature cannot change (called from IR, `naked`,
//! `musttail` calls, variadic) are errors when they need a rewrite. Debug
//! info that contradicts itself is ignored with a warning. Kernels lose
//! `unnamed_addr`; an alias MergeFunctions made of a kernel becomes a copy
//! of that kernel again where it can ([`merged_kernels`]).
//!
//! **How it works.** Collect the kernels, plan every kernel ([`plan`]) before
//! changing any, make kernels MergeFunctions turned into aliases kernels
//! again ([`merged_kernels`]), then rewrite them ([`rewrite`]); a kernel passing a one-scalar
//! struct indirectly gets the scalar where the body allows ([`wrapper`]).
//!
//! **How to run it.**
//! `opt-22 -load-pass-plugin=liboffload_passes.so -passes=amdgpu-kernel-abi,byref-callee-copy in.ll`,
//! or in rustc: `-Zllvm-plugins=liboffload_passes.so -Cpasses=amdgpu-kernel-abi,byref-callee-copy`.
//! `RUST_LOG=offload_passes=debug` logs every rewrite.

mod debug_info;
mod error;
mod from_debug_info;
mod from_ir;
mod hint;
mod merged_kernels;
mod param;
mod plan;
mod rewrite;
mod wrapper;

pub use error::Error;
#[cfg(test)]
use error::{HintProblem, HintShape, ParamProblem};

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::{FunctionValue, UnnamedAddress};

use crate::ir::kernels::{self, AMDGPU_CONSTANT_AS};
use crate::ir::{metadata, naming, signature, types};
use crate::params::ParamError;
use crate::{Diagnostics, ModulePass};

pub(crate) const PASS: &str = "amdgpu-kernel-abi";

/// Function metadata naming parameters that form one source aggregate.
pub const HINT: &str = "offload.aggregate.args";

/// The pass (no parameters).
pub struct AmdgpuKernelAbi;

impl ModulePass for AmdgpuKernelAbi {
    const NAME: &'static str = PASS;
    const CLASS_NAME: &'static str = "AMDGPUKernelABIPass";
    type Error = Error;

    fn parse(params: &[u8]) -> Result<Self, ParamError> {
        crate::pass::no_params(params).map(|()| AmdgpuKernelAbi)
    }

    fn run(&self, module: &Module<'_>, diagnostics: &mut Diagnostics) -> Result<bool, Error> {
        let layout = types::target_data(module);
        // (Looked up once: the lookup hashes the name.)
        let hint = metadata::kind(module, HINT);
        let made_by_rustc = crate::ir::module_utils::idents(module)
            .iter()
            .any(|i| i.starts_with("rustc version"));
        kernels::log_skipped_declarations(module, PASS);
        // Plan every kernel before changing any, so a bad hint or a kernel that
        // cannot change leaves the module untouched.
        let mut plans = Vec::new();
        for kernel in kernels::amdgpu_kernels(module) {
            plans.extend(plan_rewrite(
                kernel,
                hint,
                made_by_rustc,
                &layout,
                diagnostics,
            )?);
        }
        let alloca_as = types::alloca_address_space(module);
        if let Some((first, _)) = plans.first()
            && alloca_as == AMDGPU_CONSTANT_AS
        {
            // The verifier refuses a kernel `byref` in the stack's address space.
            return Err(Error::AllocaAddressSpace {
                kernel: naming::name_of(first.function()),
                address_space: alloca_as,
            });
        }
        // A kernel made again from an alias is a copy of a kernel just
        // planned, so its plan is that kernel's and cannot fail.
        let unmerged = merged_kernels::unmerge(module, diagnostics);
        for copy in &unmerged {
            let planned = plan_rewrite(copy.kernel, hint, made_by_rustc, &layout, diagnostics)?;
            let plan = planned
                .as_ref()
                .map_or(&[][..], |(_, plan)| plan.as_slice());
            let doubtful = plan::decided_by_source_types(copy.kernel, plan, &layout);
            merged_kernels::warn_borrowed_debug_info(copy, &doubtful, diagnostics);
            plans.extend(planned);
        }
        let pinned = keep_kernel_identity(module);
        let rewritten = !plans.is_empty();
        let mut run = rewrite::Run::new(module, &layout, hint);
        for (kernel, plan) in plans {
            run.rewrite_kernel(kernel, &plan)?;
        }
        Ok(pinned || rewritten || !unmerged.is_empty())
    }
}

/// The kernel's plan, when it changes a parameter and the kernel can change.
fn plan_rewrite<'ctx>(
    kernel: FunctionValue<'ctx>,
    hint: u32,
    made_by_rustc: bool,
    layout: &TargetData,
    diagnostics: &mut Diagnostics,
) -> Result<Option<(signature::Rewritable<'ctx>, Vec<param::ParamPlan<'ctx>>)>, Error> {
    let plan = plan::plan_kernel(kernel, hint, made_by_rustc, layout, diagnostics)?;
    if !plan.iter().any(param::ParamPlan::changes) {
        return Ok(None);
    }
    let rewritable = signature::check_rewritable(kernel).map_err(|why| Error::Unrewritable {
        kernel: naming::name_of(kernel),
        why,
    })?;
    Ok(Some((rewritable, plan)))
}

/// Clears `unnamed_addr` on every kernel: a kernel is found by its symbol,
/// so its address is significant. rustc marks every function
/// `unnamed_addr`, which lets its MergeFunctions turn one of two identical
/// kernels into an alias (and the rewrite makes more kernels identical:
/// `&[u16]` and `&[f64]` both become `byref([16 x i8]) align 8`). An alias has
/// no kernel descriptor; without `unnamed_addr` MergeFunctions leaves kernels
/// alone (it never makes a kernel a thunk). True when a kernel changed.
fn keep_kernel_identity(module: &Module<'_>) -> bool {
    let mut changed = false;
    for kernel in kernels::amdgpu_kernels(module) {
        let global = kernel.as_global_value();
        if global.get_unnamed_address() != UnnamedAddress::None {
            global.set_unnamed_address(UnnamedAddress::None);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_debug_info;
