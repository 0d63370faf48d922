//! A kernel crate with its own image: `scale` doubles.

#![no_std]

#[cfg(feature = "shared")]
use two_shared as _;

use offload::{InOut, kernel};

#[kernel]
pub fn scale(mut v: InOut<'_, [f32]>) {
    for (_, x) in v.grid_stride() {
        *x *= 2.0;
    }
}
