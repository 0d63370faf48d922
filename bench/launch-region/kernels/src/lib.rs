//! The launch-region benchmark's kernels.

#![no_std]

use offload::{Out, grid_stride, kernel};

/// `x[0] += 1` (clang's peer does the same: the launch is what is measured).
#[kernel]
pub fn bump(x: &mut [f32]) {
    for i in grid_stride(x.len().min(1)) {
        x[i] += 1.0;
    }
}

/// Busy work: `rounds` xorshift steps per element.
#[kernel]
pub fn spin(rounds: u64, mut out: Out<'_, [u64]>) {
    for i in grid_stride(out.len()) {
        let mut h = i as u64 + 1;
        let mut r = 0;
        while r < rounds {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            r += 1;
        }
        out.set(i, h);
    }
}
