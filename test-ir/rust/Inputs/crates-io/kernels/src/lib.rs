//! The kernel crate of a program that takes `offload` from a registry.

#![no_std]

use offload::{Out, kernel};

/// `out[i] = a * x[i] + y[i]`.
#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
    for (i, out) in out.grid_stride() {
        out.write(a * x[i] + y[i]);
    }
}
