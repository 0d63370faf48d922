// Sources that are one pointer: rustc passes Option<&T>-like enums and
// repr(Rust)/repr(transparent) wrappers as the pointer itself (Scalar ABI),
// and a #[repr(C)] struct of one pointer indirectly. clang passes a struct
// of one pointer as that pointer (a global_buffer); an over-aligned one
// (alignas(16)) as a 16-byte byref. amdgpu-kernel-abi gives each clang's
// form. At -O0 rustc's IR tells a #[repr(C)] wrapper from the pointer itself
// by how the variable is declared (`#dbg_declare` of the parameter itself:
// the parameter is the struct's address; of an alloca the parameter is
// stored to: it is the pointer) and by its `align` (the struct's or the
// pointee's): here `t` (transparent) and `q` (#[repr(C)]) have the same
// alignments, and the declarations tell them apart, without a warning.
//
// REQUIRES: rustc
// RUN: %amdgpu-rustc -Copt-level=3 -Cdebuginfo=2 -Ccodegen-units=1 --emit=llvm-ir -Cpasses=amdgpu-kernel-abi,byref-callee-copy %s -o %t.o3.ll
// RUN: %FileCheck --check-prefix=O3 %s < %t.o3.ll
// RUN: %kernarg_layout %t.o3.ll | %FileCheck --check-prefix=LAYOUT %s
// RUN: %amdgpu-rustc -Copt-level=0 -Cdebuginfo=2 -Ccodegen-units=1 --emit=llvm-ir -Cpasses=amdgpu-kernel-abi,byref-callee-copy %s -o %t.o0.ll 2>&1 | count 0
// RUN: %FileCheck --check-prefix=O0 %s < %t.o0.ll
// RUN: %kernarg_layout %t.o0.ll -O0 | %FileCheck --check-prefix=LAYOUT %s
//
// (The optimizer after -Cpasses adds attributes such as readonly: {{.*}}.)
// O3-DAG: define amdgpu_kernel void @wrappers(ptr {{[^,%]*}}%p, ptr addrspace(4) noalias nofree noundef readonly byref([16 x i8]) align 16 captures(none) dereferenceable(16) %a, ptr noalias noundef readonly align 8 captures(none) dereferenceable(8) %t, ptr {{[^,%]*}}%q, ptr noundef writeonly captures(none) %out, ptr noundef writeonly captures(none) %o64)
// O3-DAG: define amdgpu_kernel void @niche(ptr noalias noundef readonly align 4 captures(address_is_null) dereferenceable_or_null(4) %0, ptr noundef writeonly captures(none) %out)
// O0-DAG: define amdgpu_kernel void @wrappers(ptr %p, ptr addrspace(4) noalias nofree noundef readonly byref([16 x i8]) align 16 captures(none) dereferenceable(16) %a, ptr align 8 %t, ptr %q, ptr %out, ptr %o64)
// O0-DAG: define amdgpu_kernel void @niche(ptr align 4 %0, ptr %out)
// clang's layout for the same kernels in HIP (Inputs/pointer-wrappers.hip):
// RUN: %clang -x hip --cuda-device-only --offload-arch=gfx90a -nogpulib -nogpuinc -O2 -S -emit-llvm %S/Inputs/pointer-wrappers.hip -o %t.hip.ll
// RUN: %kernarg_layout %t.hip.ll | %FileCheck --check-prefix=LAYOUT %s
// LAYOUT: niche: 0:8:global_buffer 8:8:global_buffer
// LAYOUT: wrappers: 0:8:global_buffer 16:16:by_value 32:8:global_buffer 40:8:global_buffer 48:8:global_buffer 56:8:global_buffer

#![feature(no_core, lang_items, auto_traits, abi_gpu_kernel)]
#![no_core]
#![allow(internal_features, improper_gpu_kernel_arg)]

#[path = "../Inputs/minicore.rs"]
mod minicore;

#[repr(C)]
pub struct P {
    p: *const u32,
}
#[repr(C, align(16))]
pub struct A {
    p: *const u32,
}
#[repr(transparent)]
pub struct T<'a> {
    r: &'a u64,
}
#[repr(C)]
pub struct Q<'a> {
    r: &'a u64,
}
pub enum Opt<'a> {
    N,
    S(&'a u32),
}

#[unsafe(no_mangle)]
pub extern "gpu-kernel" fn wrappers(p: P, a: A, t: T<'_>, q: Q<'_>, out: *mut u32, o64: *mut u64) {
    unsafe {
        *out = *p.p;
        *out = *a.p;
        *o64 = *t.r;
        *o64 = *q.r;
    }
}

#[unsafe(no_mangle)]
pub extern "gpu-kernel" fn niche(o: Opt<'_>, out: *mut u32) {
    unsafe {
        if let Opt::S(r) = o {
            *out = *r;
        }
    }
}
