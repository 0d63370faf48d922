//! The kernels of the rust-streams example.

#![no_std]

use offload::partition::FirstThread;
use offload::{InOut, Out, kernel};

/// `x[i] *= a`.
#[kernel]
pub fn scale(a: f32, mut x: InOut<'_, [f32]>) {
    for (_, v) in x.grid_stride() {
        *v *= a;
    }
}

/// `out[i] = x[i] + y[i]`.
#[kernel]
pub fn add(x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
    for (i, out) in out.grid_stride() {
        out.write(x[i] + y[i]);
    }
}

/// Busy work: `out[i]` becomes `rounds` xorshift steps from `i + 1` (long
/// enough to see two streams overlap; no closed form for the optimiser).
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

/// `out[0]` becomes the sum of `x`, read after `rounds` xorshift steps
/// (a kernel that reads its input late: the data must still be there).
#[kernel]
pub fn late_sum(rounds: u64, x: &[f32], mut out: Out<'_, [f32], FirstThread>) {
    if let Some(out) = out.first_thread() {
        let mut h = 1u64;
        let mut r = 0;
        while r < rounds {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            r += 1;
        }
        // xorshift never reaches 0: the reads depend on the loop's end, so
        // none moves before it.
        let mut sum = 0.0;
        for v in &x[usize::from(h == 0)..] {
            sum += *v;
        }
        if let Some(slot) = out.first_mut() {
            slot.write(sum);
        }
    }
}
