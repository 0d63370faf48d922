//! The kernel crate: `step` adds `feat_common::STEP`.

#![no_std]

use offload::{InOut, kernel};

#[kernel]
pub fn step(mut v: InOut<'_, [u32]>) {
    for (_, x) in v.grid_stride() {
        *x += feat_common::STEP;
    }
}
