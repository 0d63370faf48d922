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
//! info that contradicts itself is ignored with a warning.
//!
//! **How it works.** Collect the kernels, plan every kernel ([`plan`]) before
//! changing any, then rewrite them ([`rewrite`]); a kernel passing a one-scalar
//! struct indirectly gets the scalar where the body allows ([`wrapper`]).
//!
//! **How to run it.**
//! `opt-22 -load-pass-plugin=liboffload_passes.so -passes=amdgpu-kernel-abi,byref-callee-copy in.ll`,
//! or in rustc: `-Zllvm-plugins=liboffload_passes.so -Cpasses=amdgpu-kernel-abi,byref-callee-copy`.
//! `RUST_LOG=offload_passes=debug` logs every rewrite.

mod debug_info;
mod error;
mod from_debug_info;
mod hint;
mod plan;
mod rewrite;
mod wrapper;

pub use error::{Error, HintProblem, HintShape, ParamProblem};

use inkwell::module::Module;

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
        kernels::log_skipped_declarations(module, PASS);
        // Plan every kernel before changing any, so a bad hint or a kernel that
        // cannot change leaves the module untouched.
        let mut plans = Vec::new();
        for kernel in kernels::amdgpu_kernels(module) {
            let plan = plan::plan_kernel(kernel, hint, &layout, diagnostics)?;
            if plan.iter().any(plan::ParamPlan::changes) {
                let rewritable = signature::check_rewritable(kernel).map_err(|why| Error::Unrewritable {
                    kernel: naming::name_of(kernel),
                    why,
                })?;
                plans.push((rewritable, plan));
            }
        }
        let Some((first, _)) = plans.first() else {
            return Ok(false);
        };
        let alloca_as = types::alloca_address_space(module);
        if alloca_as == AMDGPU_CONSTANT_AS {
            // The verifier refuses a kernel `byref` in the stack's address space.
            return Err(Error::AllocaAddressSpace {
                kernel: naming::name_of(first.function()),
                address_space: alloca_as,
            });
        }
        let mut run = rewrite::Run::new(module, &layout, hint);
        for (kernel, plan) in plans {
            run.rewrite_kernel(kernel, &plan)?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests;
