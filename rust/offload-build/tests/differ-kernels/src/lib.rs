//! `host_only` exists on every target but AMDGPU.
#![no_std]

use offload::{grid_stride, kernel};

/// Doubles `x`.
#[kernel]
pub fn everywhere(x: &mut [u32]) {
    for i in grid_stride(x.len()) {
        x[i] *= 2;
    }
}

/// Adds one to `x`, not on AMDGPU.
#[cfg(not(target_arch = "amdgpu"))]
#[kernel]
pub fn host_only(x: &mut [u32]) {
    for i in grid_stride(x.len()) {
        x[i] += 1;
    }
}
