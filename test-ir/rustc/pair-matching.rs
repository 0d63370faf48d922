// rustc -O0 passes a by-value aggregate as a bare `ptr align A` and splits a
// two-field one (PassMode::Pair) into two parameters; the IR types alone
// look the same. amdgpu-kernel-abi matches the whole parameter list to the
// debug info at once (backtracking), by kind (pointer, integer, float) and by
// `align` (rustc puts it on a pointer piece only for a reference, as the
// pointee's alignment): `a: [*const u64; 2]` followed by a pointer is one
// indirect array, not a pair of `a` and `b`. The layouts equal clang's for
// the same kernels in HIP (Inputs/pair-matching.hip), at -O0 and -O3.
//
// REQUIRES: rustc
// RUN: %amdgpu-rustc -Copt-level=0 -Cdebuginfo=2 -Ccodegen-units=1 --emit=llvm-ir -Cpasses=amdgpu-kernel-abi,byref-callee-copy %s -o %t.o0.ll
// RUN: %kernarg_layout %t.o0.ll -O0 | %FileCheck %s
// RUN: %amdgpu-rustc -Copt-level=3 -Cdebuginfo=2 -Ccodegen-units=1 --emit=llvm-ir -Cpasses=amdgpu-kernel-abi,byref-callee-copy %s -o %t.o3.ll
// RUN: %kernarg_layout %t.o3.ll | %FileCheck %s
// RUN: %clang -x hip --cuda-device-only --offload-arch=gfx90a -nogpulib -nogpuinc -O2 -S -emit-llvm %S/Inputs/pair-matching.hip -o %t.hip.ll
// RUN: %kernarg_layout %t.hip.ll | %FileCheck %s
// CHECK: g1: 0:16:by_value 16:8:global_buffer 24:8:global_buffer
// CHECK: g2: 0:16:by_value 16:16:by_value 32:8:global_buffer 40:8:global_buffer

#![feature(no_core, lang_items, auto_traits, abi_gpu_kernel)]
#![no_core]
#![allow(internal_features, improper_gpu_kernel_arg)]
#[path = "../Inputs/minicore.rs"]
mod minicore;
#[repr(C)] pub struct S { p: *mut u64, c: u8 }
#[unsafe(no_mangle)]
pub extern "gpu-kernel" fn g1(a: [*const u64; 2], b: *const u64, o64: *mut u64) {
    let [x, y] = a; unsafe { *o64 = *x; *o64 = *y; *o64 = *b; }
}
#[unsafe(no_mangle)]
pub extern "gpu-kernel" fn g2(a: [*const u64; 2], b: S, out: *mut u32, o8: *mut u8) {
    let [x, y] = a; unsafe { *b.p = *x; *b.p = *y; *b.p = 1; *o8 = b.c; }
}
