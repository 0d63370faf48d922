//! The rust-linalg kernels. Each loops with `offload::grid_stride`, so it is
//! correct on any grid: one thread on libomptarget's host plugin, thousands
//! on a GPU.

#![no_std]

use common::Affine;
use offload::{Out, grid_stride, kernel};

/// `y = A x` for a row-major `rows × cols` matrix: `A` and `x` are read only
/// (mapped TO), `y` is write only (mapped FROM). One row per grid-stride step.
#[kernel]
pub fn matvec(a: &[f32], x: &[f32], rows: usize, cols: usize, mut y: Out<'_, [f32]>) {
    for row in grid_stride(rows) {
        let line = &a[row * cols..(row + 1) * cols];
        let dot = line.iter().zip(x).map(|(a, x)| a * x).sum();
        y.set(row, dot);
    }
}

/// `v[i] = clamp(scale * v[i] + shift, lo, hi)` in place, with the
/// `#[repr(C)]` config passed by value.
#[kernel]
pub fn affine(config: Affine, v: &mut [f32]) {
    for i in grid_stride(v.len()) {
        v[i] = config.apply(v[i]);
    }
}

/// A two-level reduction of `Σ x[i]²`: partition `p` of `partial.len()` sums
/// the indices `i ≡ p (mod partitions)`; the host adds the partitions. Every
/// partition is written on any grid (a GPU thread takes some, the host
/// plugin's one thread all).
#[kernel]
pub fn sum_squares(x: &[f32], mut partial: Out<'_, [f32]>) {
    let partitions = partial.len();
    for p in grid_stride(partitions) {
        let mut acc = 0.0f32;
        let mut i = p;
        while i < x.len() {
            acc = libm::fmaf(x[i], x[i], acc);
            i += partitions;
        }
        partial.set(p, acc);
    }
}

/// Writes 1 where the kernels run on libomptarget's CPU plugin (the x86_64
/// image), 0 on a GPU: only on the CPU plugin can the host's C "vendor
/// library" read device memory.
#[kernel]
pub fn runs_on_cpu(mut on_cpu: Out<'_, u32>) {
    on_cpu.write(u32::from(cfg!(target_arch = "x86_64")));
}
