//! A kernel library both kernel crates use (with their feature `shared`).

#![no_std]

use offload::{InOut, kernel};

#[kernel(name = "two_shared_negate")]
pub fn negate(mut v: InOut<'_, [f32]>) {
    for (_, x) in v.grid_stride() {
        *x = -*x;
    }
}
