//! A kernel crate with its own image: `scale`, of the same symbol and
//! signature as `two_doubler::scale`, triples.

#![no_std]

#[cfg(feature = "shared")]
use two_shared as _;

use offload::{InOut, kernel};

#[kernel]
pub fn scale(mut v: InOut<'_, [f32]>) {
    for (_, x) in v.grid_stride() {
        *x *= 3.0;
    }
}
