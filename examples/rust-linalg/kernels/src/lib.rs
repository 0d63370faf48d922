//! The rust-linalg kernels. Each thread writes its grid-stride elements of
//! the output (`.grid_stride()`), so each kernel is correct on any grid: one
//! thread on libomptarget's host plugin, thousands on a GPU.

#![no_std]

use common::Affine;
use offload::{InOut, Out, kernel};

/// `y = A x` for a row-major `rows × cols` matrix: `A` and `x` are read only
/// (mapped TO), `y` is write only (mapped FROM). One row per grid-stride step.
#[kernel]
pub fn matvec(a: &[f32], x: &[f32], rows: usize, cols: usize, mut y: Out<'_, [f32]>) {
    for (row, y) in y.grid_stride().take_while(|&(row, _)| row < rows) {
        let line = &a[row * cols..(row + 1) * cols];
        let dot = line.iter().zip(x).map(|(a, x)| a * x).sum();
        y.write(dot);
    }
}

/// `v[i] = clamp(scale * v[i] + shift, lo, hi)` in place, with the
/// `#[repr(C)]` config passed by value.
#[kernel]
pub fn affine(config: Affine, mut v: InOut<'_, [f32]>) {
    for (_, v) in v.grid_stride() {
        *v = config.apply(*v);
    }
}

/// `x = alpha x` in place (BLAS's `scal`). Launched on one thread
/// (`Launch::grid(1, 1)`), its grid-stride loop is the whole array: the CPU
/// image's loop is vectorised, on a run-time check of a step of 1.
#[kernel]
pub fn scal(alpha: f32, mut x: InOut<'_, [f32]>) {
    for (_, v) in x.grid_stride() {
        *v *= alpha;
    }
}

/// A two-level reduction of `Σ x[i]²`: partition `p` of `partial.len()` sums
/// the indices `i ≡ p (mod partitions)`; the host adds the partitions. Every
/// partition is written on any grid (a thread takes some, a grid of one
/// thread all).
#[kernel]
pub fn sum_squares(x: &[f32], mut partial: Out<'_, [f32]>) {
    let partitions = partial.len();
    for (p, partial) in partial.grid_stride() {
        let mut acc = 0.0f32;
        let mut i = p;
        while i < x.len() {
            acc = libm::fmaf(x[i], x[i], acc);
            i += partitions;
        }
        partial.write(acc);
    }
}

/// Writes 1 where the kernels run on libomptarget's CPU plugin (the x86_64
/// image), 0 on a GPU: only on the CPU plugin can the host's C "vendor
/// library" read device memory.
#[kernel]
pub fn runs_on_cpu(mut on_cpu: Out<'_, u32>) {
    if let Some(on_cpu) = on_cpu.first_thread() {
        on_cpu.write(u32::from(cfg!(target_arch = "x86_64")));
    }
}
