//! The rust-kernel-library kernel crate: a generic kernel built for the
//! types its `instances(...)` lists, and (as a dependency) the `mathlib`
//! kernel library, whose kernels are in this crate's image too.

#![no_std]

// The image holds the kernels of every crate this crate links; rustc links
// a dependency only where the crate names it, so name the kernel library.
use mathlib as _;

use core::ops::{Add, Mul};

use offload::{DeviceCopy, InOut, kernel};

/// `y = a x + y`, one kernel per listed type: `axpy_f32` and `axpy_f64` in
/// the image; the host launches `axpy::<f32>` or lets inference pick.
#[kernel(instances(f32, f64))]
pub fn axpy<T>(a: T, x: &[T], mut y: InOut<'_, [T]>)
where
    T: DeviceCopy + Add<Output = T> + Mul<Output = T>,
{
    for (i, y) in y.grid_stride() {
        *y = a * x[i] + *y;
    }
}
