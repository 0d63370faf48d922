//! The kernels of kernels.ll in Rust, for stable rustc 1.95's
//! `nvptx64-nvidia-cuda` target, which has no `core` to link: the crate is
//! `#![no_core]` and takes its lang items from the shared
//! test-ir/Inputs/minicore.rs (RUSTC_BOOTSTRAP=1
//! allows the features). `extern "gpu-kernel"` gives `ptx_kernel`; the plugin
//! wraps the kernels inside rustc:
//!   RUSTC_BOOTSTRAP=1 rustc -Zllvm-plugins=/abs/liboffload_passes.so -Cpasses=offload-wrap-kernels \
//!     --target nvptx64-nvidia-cuda -Ctarget-cpu=sm_90 -Copt-level=3 --crate-type cdylib \
//!     --emit=llvm-bc kernels.rs -o kernels.bc
//! then llc-22 and ptxas as for IR (`--emit=asm` gives the PTX directly).
//! Without -Ctarget-cpu rustc targets sm_30 (`.target sm_30`, PTX 3.2).
//! rustc passes `Particle` to a kernel as `[3 x i64]` (a first-class
//! aggregate); offload-wrap-kernels turns it into a pointer to the struct
//! the host maps, like clang's `byval`.
#![feature(no_core, lang_items, abi_gpu_kernel, f16, link_llvm_intrinsics, auto_traits)]
#![no_core]
#![allow(internal_features, improper_gpu_kernel_arg)]

#[path = "../../test-ir/Inputs/minicore.rs"]
mod minicore;
impl minicore::Copy for f16 {}

unsafe extern "C" {
    #[link_name = "llvm.nvvm.read.ptx.sreg.tid.x"]
    fn tid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ctaid.x"]
    fn ctaid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ntid.x"]
    fn ntid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.nctaid.x"]
    fn nctaid_x() -> u32;
}

fn thread_id() -> u32 {
    unsafe { ctaid_x() * ntid_x() + tid_x() }
}

/// `base + index` elements of `size` bytes (no `core`, so address arithmetic).
fn at<T>(base: *mut T, index: u32, size: u64) -> *mut T {
    (base as u64 + index as u64 * size) as *mut T
}

#[repr(C)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
    pub mass: f64,
}

/// `y[i] = a * x[i] + y[i]` for `i < n`, grid-stride.
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn saxpy(a: f32, x: *const f32, y: *mut f32, n: i32) {
    let stride = unsafe { ntid_x() * nctaid_x() };
    let mut i = thread_id();
    while (i as i64) < (n as i64) {
        unsafe {
            let yi = at(y, i, 4);
            *yi = a * *at(x as *mut f32, i, 4) + *yi;
        }
        i = i + stride;
    }
}

/// `out[0..7]` = each scalar as an `f64`, `out[7]` = their sum (thread 0).
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn scalars(a: i8, b: i16, c: i32, d: i64, e: f16, f: f32, g: f64, out: *mut f64) {
    if 0 < thread_id() {
        return;
    }
    let (a, b, c, d, e, f) = (a as f64, b as f64, c as f64, d as f64, e as f64, f as f64);
    unsafe {
        *at(out, 0, 8) = a;
        *at(out, 1, 8) = b;
        *at(out, 2, 8) = c;
        *at(out, 3, 8) = d;
        *at(out, 4, 8) = e;
        *at(out, 5, 8) = f;
        *at(out, 6, 8) = g;
        *at(out, 7, 8) = a + b + c + d + e + f + g;
    }
}

/// One time step of a particle passed by value (thread 0).
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn step(p: Particle, force: f64, dt: f64, out: *mut Particle) {
    if 0 < thread_id() {
        return;
    }
    let v = p.v + force / p.mass * dt;
    unsafe { *out = Particle { x: p.x + v * dt, v, mass: p.mass } };
}
