//! A kernel library: its `#[kernel]`s are built into the image of every
//! kernel crate that depends on it, and launched through their launchers
//! here (the launch stubs come with the program's image). Its kernels'
//! symbols are `mathlib_*` (`#[kernel(name = ...)]`): a kernel symbol is
//! one name in the whole image, so a library names its kernels apart from
//! its users'.

#![no_std]

use offload::{InOut, Out, kernel};

/// `out[i] = sin(x[i])` (libm's `sinf`, the same on the device and the CPU).
#[kernel(name = "mathlib_sines")]
pub fn sines(x: &[f32], mut out: Out<'_, [f32]>) {
    for (i, out) in out.grid_stride() {
        out.write(libm::sinf(x[i]));
    }
}

/// `v[i] = hypot(v[i], by)` in place.
#[kernel(name = "mathlib_hypot")]
pub fn hypot(by: f64, mut v: InOut<'_, [f64]>) {
    for (_, v) in v.grid_stride() {
        *v = libm::hypot(*v, by);
    }
}
