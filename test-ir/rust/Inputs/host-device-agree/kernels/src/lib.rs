//! Kernels whose argument types depend on the crate's features and cfgs.

#![no_std]

use offload::{DeviceCopy, InOut, Out, kernel};

/// f64 with the `double` feature, else f32.
#[cfg(feature = "double")]
pub type Real = f64;
/// f64 with the `double` feature, else f32.
#[cfg(not(feature = "double"))]
pub type Real = f32;

/// `x[i] = a * x[i] + 1`, in `Real`.
#[kernel]
pub fn affine(a: Real, mut x: InOut<'_, [Real]>) {
    for (_, x) in x.grid_stride() {
        *x = a * *x + 1.0;
    }
}

/// What `bump` adds: 2 with the `plus-two` feature, else 1.
pub const STEP: u32 = if cfg!(feature = "plus-two") { 2 } else { 1 };

/// `x[i] += STEP`.
#[kernel]
pub fn bump(mut x: InOut<'_, [u32]>) {
    for (_, v) in x.grid_stride() {
        *v += STEP;
    }
}

/// 12 bytes where debug assertions are on (the host's dev profile), 8 in
/// the device build.
#[repr(C)]
#[derive(Clone, Copy, Debug, DeviceCopy)]
pub struct Probe {
    pub value: f32,
    #[cfg(debug_assertions)]
    pub checks: u32,
    pub weight: f32,
}

/// `p[i].value *= p[i].weight`.
#[kernel]
pub fn weigh(mut p: InOut<'_, [Probe]>) {
    for (_, p) in p.grid_stride() {
        p.value *= p.weight;
    }
}

/// `out = x[0] + x[len - 1]`.
#[kernel]
pub fn ends(x: &[u32], mut out: Out<'_, u32>) {
    if let Some(out) = out.first_thread()
        && !x.is_empty()
    {
        out.write(x[0] + x[x.len() - 1]);
    }
}
