//! Kernels that MergeFunctions turned into aliases, made kernels again.
//!
//! rustc marks every function `unnamed_addr` and, at -O3, runs
//! MergeFunctions (`-Zmerge-functions=aliases`) before a plugin pass run by
//! opt on its `.ll` sees the module: of two kernels with identical IR, the
//! second becomes `@k2 = alias ptr, ptr @k1`. An alias gets no kernel
//! descriptor, so the code object would lack `k2` and every launch of it
//! would fail. An `amdgpu_kernel` cannot be called, so an alias of one is only
//! ever a kernel's entry point: it becomes a copy of the kernel again, with
//! the alias's symbol, linkage and visibility
//! ([`kernels::KernelAlias::unmerge`], which clones the body and its
//! DISubprogram).
//! Run at rustc's pipeline start, the pass never sees such aliases: it clears
//! `unnamed_addr` on kernels first, and MergeFunctions leaves them alone.

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::Diagnostics;
use crate::ir::kernels::{self, UnmergeRefused};
use crate::ir::naming;

/// A kernel made again from an alias, and the kernel it was merged into.
pub struct Unmerged<'ctx> {
    pub kernel: FunctionValue<'ctx>,
    pub merged_into: FunctionValue<'ctx>,
}

/// Makes every alias of an `amdgpu_kernel` in `module` a kernel of its own.
/// An alias stays, with a warning, when its signature is not its aliasee's
/// (MergeFunctions takes `ptr` and `i64` for one type) or something other
/// than `@llvm.used` refers to it (a store of its address). The copy has the
/// aliasee's debug info: the alias's own went with its body, so where that
/// decides a parameter the caller warns ([`warn_borrowed_debug_info`]).
pub fn unmerge<'ctx>(module: &Module<'ctx>, diagnostics: &mut Diagnostics) -> Vec<Unmerged<'ctx>> {
    let mut made = Vec::new();
    for found in kernels::amdgpu_kernel_aliases(module) {
        let symbol = naming::display_symbol(&found.alias.name());
        let merged_into = naming::name_of(found.aliasee);
        let refused = match found.unmerge() {
            Ok(kernel) => {
                log::debug!(
                    "{}: kernel '{symbol}' was an alias of the identical kernel '{merged_into}' (MergeFunctions); it is a copy of that kernel again",
                    super::PASS
                );
                made.push(Unmerged {
                    kernel,
                    merged_into: found.aliasee,
                });
                continue;
            }
            Err(refused) => refused,
        };
        let reason = match refused {
            UnmergeRefused::SignatureDiffers => {
                "whose signature is not that kernel's, so it cannot be made a copy of it"
            }
            UnmergeRefused::OtherUses => "that something other than @llvm.used refers to",
            UnmergeRefused::NoBody => "of a kernel without a body",
        };
        diagnostics.warn(format!(
            "kernel '{symbol}' is an alias of kernel '{merged_into}' (MergeFunctions merges identical unnamed_addr kernels) {reason}; it stays an alias, which gets no kernel descriptor, so the code object lacks '{symbol}' and offload-host refuses launches of it; run amdgpu-kernel-abi before MergeFunctions (at rustc's pipeline start) or compile with -Zmerge-functions=disabled"
        ));
    }
    made
}

/// MergeFunctions compares IR, not source types: `k2(x: u32, p: P)` with
/// `P { a: u32, b: u64 }` (a split pair) and `k1(x: u32, a: u32, b: u64)`
/// are one function to it. A copy planned from its aliasee's debug info is
/// right only where that debug info could not have decided otherwise: the
/// parameters it decided, and those the IR alone leaves in doubt, are named
/// in a warning.
pub fn warn_borrowed_debug_info(
    unmerged: &Unmerged<'_>,
    doubtful: &[u32],
    diagnostics: &mut Diagnostics,
) {
    if doubtful.is_empty() {
        return;
    }
    let kernel = unmerged.kernel;
    let listed: Vec<String> = doubtful
        .iter()
        .map(|&i| naming::ParamRef::of(kernel, i).to_string())
        .collect();
    let listed = listed
        .join(", ")
        .replace(&format!("kernel '{}', ", naming::name_of(kernel)), "");
    diagnostics.warn(format!(
        "kernel '{}' was an alias of the identical kernel '{}' (MergeFunctions) and is a copy of it again, planned from that kernel's source types (its debug info or hint; this kernel's own went with its body): {listed} are passed as those types say; if this kernel's differ, its argument layout is not clang's. Run amdgpu-kernel-abi before MergeFunctions (at rustc's pipeline start) or compile with -Zmerge-functions=disabled",
        naming::name_of(kernel),
        naming::name_of(unmerged.merged_into)
    ));
}
