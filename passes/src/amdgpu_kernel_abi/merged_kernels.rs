//! Kernels that MergeFunctions turned into aliases, made kernels again.
//!
//! rustc marks every function `unnamed_addr` and, at -O3, runs
//! MergeFunctions (`-Zmerge-functions=aliases`) before a plugin pass run by
//! opt on its `.ll` sees the module: of two kernels with identical IR, the
//! second becomes `@k2 = alias ptr, ptr @k1`. An alias gets no kernel
//! descriptor, so the code object would lack `k2` and every launch of it
//! would fail. An `amdgpu_kernel` cannot be called, so an alias of one is only
//! ever a kernel's entry point: it becomes a copy of the kernel again, with
//! the alias's symbol, linkage and visibility (the C++ shim's
//! `offload_ir_unmerge_alias`, which clones the body and its DISubprogram).
//! Run at rustc's pipeline start, the pass never sees such aliases: it clears
//! `unnamed_addr` on kernels first, and MergeFunctions leaves them alone.

use inkwell::module::Module;
use inkwell::values::FunctionValue;
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};

use crate::Diagnostics;
use crate::ir::kernels::{self, AMDGPU_KERNEL_CC};
use crate::ir::naming;

unsafe extern "C" {
    /// In `llvm_ext.cpp`.
    fn offload_ir_unmerge_alias(
        module: LLVMModuleRef,
        name: *const std::ffi::c_char,
        name_len: usize,
        why: *mut i32,
    ) -> LLVMValueRef;
}

/// Makes every alias of an `amdgpu_kernel` in `module` a kernel of its own
/// and returns the new kernels. An alias stays, with a warning, when its
/// signature is not its aliasee's (MergeFunctions takes `ptr` and `i64` for
/// one type, and the alias's own debug info, which would tell how to pass
/// its parameters, is gone with its body) or something other than
/// `@llvm.used` refers to it (a store of its address).
pub fn unmerge<'ctx>(module: &Module<'ctx>, diagnostics: &mut Diagnostics) -> Vec<FunctionValue<'ctx>> {
    let mut kernels = Vec::new();
    for alias in kernels::kernel_aliases(module) {
        if alias.aliasee.get_call_conventions() != AMDGPU_KERNEL_CC {
            continue;
        }
        let mut why = 0;
        // SAFETY: `module` is a live module, the name is `symbol.len()` bytes
        // and `why` a live i32; the function returns null or a function of
        // `module`, which lives as long as `'ctx`.
        let made = unsafe {
            let raw = offload_ir_unmerge_alias(
                module.as_mut_ptr(),
                alias.symbol.as_ptr().cast(),
                alias.symbol.len(),
                &raw mut why,
            );
            FunctionValue::new(raw)
        };
        let symbol = naming::display_symbol(&alias.symbol);
        let merged_into = naming::name_of(alias.aliasee);
        match made {
            Some(kernel) => {
                log::debug!(
                    "{}: kernel '{symbol}' was an alias of the identical kernel '{merged_into}' (MergeFunctions); it is a copy of that kernel again",
                    super::PASS
                );
                kernels.push(kernel);
            }
            None => {
                let reason = match why {
                    2 => "whose signature is not that kernel's (MergeFunctions takes a pointer and a pointer-sized integer for one type), so it cannot be made a copy of it",
                    3 => "that something other than @llvm.used refers to",
                    _ => "of a kernel without a body",
                };
                diagnostics.warn(format!(
                    "kernel '{symbol}' is an alias of kernel '{merged_into}' (MergeFunctions merges identical unnamed_addr kernels) {reason}; it stays an alias, which gets no kernel descriptor, so the code object lacks '{symbol}' and offload-host refuses launches of it; run amdgpu-kernel-abi before MergeFunctions (at rustc's pipeline start) or compile with -Zmerge-functions=disabled"
                ));
            }
        }
    }
    kernels
}
