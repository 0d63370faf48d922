// rustc 1.95 loads the plugin (-Zllvm-plugins) and runs its passes by name
// (-Cpasses) or, with no -Cpasses, at the extension point named by
// OFFLOAD_PASSES_PIPELINE_START. Either way the struct argument arrives as
// byref in addrspace(4) with clang's kernarg layout.
//
// REQUIRES: rustc
// RUN: %amdgpu-rustc -Copt-level=3 -Ccodegen-units=1 --emit=llvm-ir -Cpasses=amdgpu-kernel-abi,byref-callee-copy %s -o %t.named.ll
// RUN: %FileCheck %s < %t.named.ll
// RUN: env OFFLOAD_PASSES_PIPELINE_START=amdgpu-kernel-abi,byref-callee-copy %amdgpu-rustc -Copt-level=3 -Ccodegen-units=1 --emit=llvm-ir %s -o %t.ep.ll
// RUN: %FileCheck %s < %t.ep.ll
// RUN: env OFFLOAD_PASSES_PIPELINE_START=amdgpu-kernel-abi,byref-callee-copy %amdgpu-rustc -Copt-level=0 -Cdebuginfo=2 -Ccodegen-units=1 --emit=llvm-ir %s -o %t.o0.ll
// RUN: %FileCheck --check-prefix=O0 %s < %t.o0.ll
// RUN: %kernarg_layout %t.ep.ll | %FileCheck --check-prefix=LAYOUT %s
// Without the plugin's passes rustc passes a pointer (8 bytes) instead:
// RUN: %amdgpu-rustc -Copt-level=3 -Ccodegen-units=1 --emit=llvm-ir %s -o %t.plain.ll
// RUN: %FileCheck --check-prefix=PLAIN %s < %t.plain.ll
// A bad pipeline in the variable is a clear error, not a crash:
// RUN: env OFFLOAD_PASSES_PIPELINE_START=amdgpu-kernel-ab not %amdgpu-rustc --emit=llvm-ir %s -o %t.bad.ll 2>&1 | %FileCheck --check-prefix=BAD %s

// CHECK: define amdgpu_kernel void @scale(ptr addrspace(4) noalias nofree noundef readonly byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s, i8 noundef zeroext %k, ptr noundef writeonly captures(none) %out)
// O0: define amdgpu_kernel void @scale(ptr addrspace(4) noalias nofree noundef readonly byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s, i8 zeroext %k, ptr %out)
// LAYOUT: scale: 0:12:by_value 12:1:by_value 16:8:global_buffer
// PLAIN: define amdgpu_kernel void @scale(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(12) %s,
// BAD: error: offload-passes: cannot parse OFFLOAD_PASSES_PIPELINE_START='amdgpu-kernel-ab': unknown pass name 'amdgpu-kernel-ab'
// A pipeline that runs the extension points itself is refused, not added
// inside itself until the stack overflows:
// RUN: env OFFLOAD_PASSES_PIPELINE_START='default<O1>' not %amdgpu-rustc -Copt-level=2 --emit=llvm-ir %s -o %t.recurse.ll 2>&1 | %FileCheck --check-prefix=RECURSE %s
// RECURSE: error: offload-passes: OFFLOAD_PASSES_PIPELINE_START='default<O1>' builds a pipeline that runs the extension points again (reaching OFFLOAD_PASSES_PIPELINE_START); name the passes to add

#![feature(no_core, lang_items, auto_traits, abi_gpu_kernel)]
#![no_core]
#![allow(internal_features, improper_gpu_kernel_arg)]

#[path = "../Inputs/minicore.rs"]
mod minicore;

#[repr(C)]
pub struct Three {
    a: u32,
    b: u32,
    c: u32,
}

#[unsafe(no_mangle)]
pub extern "gpu-kernel" fn scale(s: Three, k: u8, out: *mut u32) {
    unsafe {
        *out = s.b;
        *(out as *mut u8) = k;
    }
}
