//! The launch-region benchmark's kernels.

#![no_std]

use offload::partition::{FirstThread, Strided};
use offload::{InOut, Out, kernel};

/// `x[0] += 1` (clang's peer does the same: the launch is what is measured).
#[kernel]
pub fn bump(mut x: InOut<'_, [f32], FirstThread>) {
    if let Some(x) = x.first_thread() {
        if let Some(first) = x.first_mut() {
            *first += 1.0;
        }
    }
}

/// `x[i] += 1` for every element, in a grid-stride loop (a kernel without
/// barriers over a whole array; clang's peer is a `for` loop in its
/// `target` region).
#[kernel]
pub fn add_one(mut x: InOut<'_, [f32], Strided>) {
    for (_, v) in x.grid_stride() {
        *v += 1.0;
    }
}

/// Busy work: `rounds` xorshift steps per element.
#[kernel]
pub fn spin(rounds: u64, mut out: Out<'_, [u64]>) {
    for (i, out) in out.grid_stride() {
        let mut h = i as u64 + 1;
        let mut r = 0;
        while r < rounds {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            r += 1;
        }
        out.write(h);
    }
}
