//! The kernels of the rust-offload example. Each is an ordinary function
//! marked `#[kernel]`: in the device image it is a kernel; on the host,
//! `kernels::name(&launch, args...)` launches it. Map types follow the
//! parameter types (`&` TO, `&mut` TO|FROM, `Out` FROM, scalars by value).
//!
//! Kernels loop with `offload::grid_stride`, which is correct on any grid:
//! libomptarget's host plugin runs one team of one thread, a GPU many.

#![no_std]

mod particle;

use offload::{Out, grid_stride, kernel};
pub use particle::{Nothing, Particle};

/// `data[i] += 1`: an array updated in place.
#[kernel]
pub fn increment(data: &mut [i32]) {
    for i in grid_stride(data.len()) {
        data[i] += 1;
    }
}

/// `out[i] = a * x[i] + y[i]`: read-only inputs, a write-only output.
#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
    for i in grid_stride(out.len()) {
        out.set(i, a * x[i] + y[i]);
    }
}

/// Scalars of every width: `out = a + b * c + d`.
#[kernel]
pub fn mix(a: i32, b: i64, c: f32, d: f64, mut out: Out<'_, f64>) {
    if offload::index::global_id() == 0 {
        out.write(f64::from(a) + b as f64 * f64::from(c) + d);
    }
}

/// One time step of a particle passed by value (the kernel changes its copy).
#[kernel]
pub fn step(mut p: Particle, force: f64, dt: f64, mut out: Out<'_, Particle>) {
    if offload::index::global_id() == 0 {
        p.v += force / p.mass * dt;
        p.x += p.v * dt;
        out.write(p);
    }
}

/// The sum of a slice, by the first thread.
#[kernel]
pub fn sum(values: &[f64], total: &mut f64) {
    if offload::index::global_id() == 0 {
        *total = values.iter().sum();
    }
}

/// Counts its launches in `ran`; its other arguments hold no bytes (a
/// zero-sized struct by value and by reference, an empty array).
#[kernel]
pub fn touch(_by_value: Nothing, _by_ref: &Nothing, _array: &[i32; 0], ran: &mut u32) {
    if offload::index::global_id() == 0 {
        *ran += 1;
    }
}
