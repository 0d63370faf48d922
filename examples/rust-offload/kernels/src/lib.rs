//! The kernels of the rust-offload example. Each is an ordinary function
//! marked `#[kernel]`: in the device image it is a kernel; on the host,
//! `kernels::name(&launch, args...)` launches it. Map types follow the
//! parameter types (`&` TO, `InOut` TO|FROM, `Out` FROM, scalars by value).
//!
//! Every thread of a launch gets the same arguments; a thread writes only
//! its own part of an output: its grid-stride elements (`.grid_stride()`,
//! correct on any grid) or, for a single value, the grid's first thread
//! (`.first_thread()`).

#![no_std]

mod particle;

use offload::{InOut, Out, kernel};
pub use particle::{Nothing, Particle};

/// `data[i] += 1`: an array updated in place.
#[kernel]
pub fn increment(mut data: InOut<'_, [i32]>) {
    for (_, x) in data.grid_stride() {
        *x += 1;
    }
}

/// `out[i] = a * x[i] + y[i]`: read-only inputs, a write-only output.
#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
    for (i, out) in out.grid_stride() {
        out.write(a * x[i] + y[i]);
    }
}

/// Scalars of every width: `out = a + b * c + d`.
#[kernel]
pub fn mix(a: i32, b: i64, c: f32, d: f64, mut out: Out<'_, f64>) {
    if let Some(out) = out.first_thread() {
        out.write(f64::from(a) + b as f64 * f64::from(c) + d);
    }
}

/// One time step of a particle passed by value (the kernel changes its copy).
#[kernel]
pub fn step(mut p: Particle, force: f64, dt: f64, mut out: Out<'_, Particle>) {
    if let Some(out) = out.first_thread() {
        p.v += force / p.mass * dt;
        p.x += p.v * dt;
        out.write(p);
    }
}

/// The sum of a slice, by the first thread.
#[kernel]
pub fn sum(values: &[f64], mut total: InOut<'_, f64>) {
    if let Some(total) = total.first_thread() {
        *total = values.iter().sum();
    }
}

/// Counts its launches in `ran`; its other arguments hold no bytes (a
/// zero-sized struct by value and by reference, an empty array).
#[kernel]
pub fn touch(_by_value: Nothing, _by_ref: &Nothing, _array: &[i32; 0], mut ran: InOut<'_, u32>) {
    if let Some(ran) = ran.first_thread() {
        *ran += 1;
    }
}
