//! Reference kernels for the AMDGPU kernel-ABI pass (`offload-passes`).
//!
//! Covers the struct-ABI cases of rustc's own amdgpu struct-ABI test (amdgpu-abi/struct-abi.rs).
//! Every kernel writes the fields of its inputs to `out` so the body reads the arguments.
//! Build (see test-ir/Inputs/*.ll headers for the exact commands):
//!   RUSTC_BOOTSTRAP=1 rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib \
//!     --emit=llvm-ir -Ccodegen-units=1 -Copt-level=3 -Cdebuginfo=2 kernels.rs
#![feature(no_core, lang_items, abi_gpu_kernel, repr_simd, auto_traits)]
#![no_core]
#![allow(internal_features, improper_ctypes_definitions, improper_gpu_kernel_arg, dead_code)]
#![crate_name = "kernels"]

#[path = "../../test-ir/Inputs/minicore.rs"]
mod minicore;

// ---- types (same names/layouts as kernels.hip) ----
pub struct One { a: u32 }
pub struct OneF { f: f32 }
#[repr(C)]
pub struct OneC { a: u32 }
#[repr(C)]
pub struct OneCF { f: f32 }
#[repr(C)]
pub struct WideC { x: u64 }
#[repr(C)]
pub struct Three { a: u32, b: u32, c: u32 }
#[repr(C)]
pub struct Padding { a: u8, b: f64 } // 16 bytes, align 8
#[repr(C)]
pub struct Arrays { a: [u32; 3], b: [u32; 8] } // 44 bytes, align 4
#[repr(C)]
pub struct Inner { x: u32, y: u32 }
#[repr(C)]
pub struct Nested { p: Inner, q: Inner, r: Inner } // 24 bytes, align 4
#[repr(C)]
pub union U { i: u32, f: f32 } // 4 bytes
#[repr(C)]
pub struct Complex { re: f32, im: f32 } // 8 bytes
pub struct Wide { x: u64 }
pub struct Huge { x: i128 }
#[repr(C, align(16))]
pub struct Over { a: u32 } // 16 bytes, align 16
#[repr(C)]
pub struct Tail { a: u64, b: u32 } // 16 bytes (4 bytes tail padding)
#[repr(simd)]
pub struct I32x4([u32; 4]);
pub struct V4 { v: I32x4 }

// Output records: each kernel stores one whole record to `out`, so every field it read
// survives optimisation (repeated stores to `*out` would be dead-store-eliminated).
#[repr(C)]
pub struct O2<A, B>(A, B);
#[repr(C)]
pub struct O3<A, B, C>(A, B, C);
#[repr(C)]
pub struct O4<A, B, C, D>(A, B, C, D);

#[repr(C)]
union SliceParts { s: *const [u32], p: (*const u32, usize) }

// ---- kernels ----
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_scalars(a: u32, b: u64, c: f32, d: u8, out: *mut u32) {
    unsafe { *(out as *mut O4<u32, u64, f32, u8>) = O4(a, b, c, d); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_ptrs(src: *const u32, dst: *mut u32) {
    unsafe { *dst = *src; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_one(s: One, out: *mut u32) {
    unsafe { *out = s.a; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_one_f(s: OneF, out: *mut u32) {
    unsafe { *(out as *mut f32) = s.f; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_one_c(s: OneC, out: *mut u32) {
    unsafe { *(out as *mut O2<u32, u32>) = O2(s.a, 1); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_one_cf(s: OneCF, out: *mut u32) {
    unsafe { *(out as *mut O2<f32, u32>) = O2(s.f, 2); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_wide_c(w: WideC, out: *mut u32) {
    unsafe { *(out as *mut O2<u64, u32>) = O2(w.x, 3); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_three(s: Three, out: *mut u32) {
    unsafe { *(out as *mut [u32; 3]) = [s.a, s.b, s.c]; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_padding(s: Padding, out: *mut u32) {
    unsafe { *(out as *mut O2<u8, f64>) = O2(s.a, s.b); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_arrays(s: Arrays, out: *mut u32) {
    let [a0, a1, a2] = s.a;
    let [b0, _, _, _, _, _, _, b7] = s.b;
    unsafe { *(out as *mut [u32; 5]) = [a0, a1, a2, b0, b7]; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_nested(s: Nested, out: *mut u32) {
    unsafe { *(out as *mut [u32; 4]) = [s.p.x, s.q.y, s.r.x, s.r.y]; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_union(u: U, out: *mut u32) {
    unsafe { *(out as *mut O2<u32, f32>) = O2(u.i, u.f); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_slice(v: &[u32], out: *mut u32) {
    unsafe {
        let parts = SliceParts { s: v as *const [u32] }.p;
        *(out as *mut O2<u32, usize>) = O2(*parts.0, parts.1);
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_complex(c: Complex, out: *mut u32) {
    unsafe { *(out as *mut O2<f32, f32>) = O2(c.im, c.re); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_wide(w: Wide, out: *mut u32) {
    unsafe { *(out as *mut u64) = w.x; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_huge(h: Huge, out: *mut u32) {
    unsafe { *(out as *mut i128) = h.x; }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_over(a: u8, o: Over, out: *mut u32) {
    unsafe { *(out as *mut O2<u8, u32>) = O2(a, o.a); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_tail(t: Tail, k: u8, out: *mut u32) {
    unsafe { *(out as *mut O3<u64, u32, u8>) = O3(t.a, t.b, k); }
}

/// Mixed signature as in the reference notes (Arrays by pointer, One as i32, Tail split).
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_mixed(d: Arrays, o: One, t: Tail, k: u8, out: *mut u32) {
    let [a0, _, _] = d.a;
    let [_, _, _, _, _, _, _, b7] = d.b;
    unsafe { *(out as *mut O4<u32, u32, u64, O3<u32, u32, u8>>) = O4(a0, o.a, t.a, O3(b7, t.b, k)); }
}

#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_vec(v: I32x4, w: V4, out: *mut u32) {
    unsafe { *(out as *mut O2<I32x4, I32x4>) = O2(v, w.v); }
}

/// Mutates its by-value struct argument: the pass must give the body a private copy.
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_mut(mut s: Three, out: *mut u32) {
    s.a = s.c;
    unsafe {
        s.b = *out;
        *(out as *mut [u32; 3]) = [s.c, s.b, s.a];
    }
}

/// Mutates through a pointer chosen at run time (at -O3 the store into the argument stays).
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn k_mut_dyn(mut s: Three, pick: bool, out: *mut u32) {
    let p: *mut u32 = if pick { &raw mut s.a } else { &raw mut s.c };
    unsafe {
        *p = *out;
        *(out as *mut [u32; 3]) = [s.a, s.b, s.c];
    }
}
