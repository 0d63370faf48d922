//! A kernel library with a kernel of the default symbol `scale`.

#![no_std]

use offload::{InOut, kernel};

#[kernel]
pub fn scale(by: f32, mut v: InOut<'_, [f32]>) {
    for (_, v) in v.grid_stride() {
        *v *= by;
    }
}
