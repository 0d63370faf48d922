//! `host_only` exists on every target but AMDGPU.
#![no_std]

use offload::{InOut, kernel};

/// Doubles `x`.
#[kernel]
pub fn everywhere(mut x: InOut<'_, [u32]>) {
    for (_, v) in x.grid_stride() {
        *v *= 2;
    }
}

/// Adds one to `x`, not on AMDGPU.
#[cfg(not(target_arch = "amdgpu"))]
#[kernel]
pub fn host_only(mut x: InOut<'_, [u32]>) {
    for (_, v) in x.grid_stride() {
        *v += 1;
    }
}
