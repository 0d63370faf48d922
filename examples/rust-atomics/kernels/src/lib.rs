//! The rust-atomics kernels: the sound ways for the threads of a launch to
//! write shared outputs. Every thread gets the same arguments, so each
//! writes only
//! - elements no other thread gets, as the partition in the type of an `Out`
//!   or `InOut` says: its grid-stride elements (`Out<'_, [T]>`,
//!   `.grid_stride()`), its grid-stride chunks (`Out<'_, [T], Chunks<N>>`,
//!   `.grid_stride_chunks()`), or all of them on the grid's first thread
//!   (`InOut<'_, [T], FirstThread>`, `.first_thread()`);
//! - or elements every thread may update, atomically (`&[AtomicU32]`,
//!   `&AtomicF32`).

#![no_std]

use offload::atomic::{AtomicF32, AtomicU32, AtomicU64, Ordering};
use offload::partition::{Chunks, FirstThread};
use offload::{InOut, Out, grid_stride, kernel};

/// The prefix sum's chunk size: its partition is part of `scan_chunks`'s
/// parameter type (`Chunks<CHUNK>`), the same in every thread.
pub const CHUNK: usize = 64;

/// Counts `values` into `bins` (value `v` into bin `v % bins.len()`), and the
/// number of threads that took part into `threads`: global atomics, updated
/// by every thread.
#[kernel]
pub fn histogram(values: &[u32], bins: &[AtomicU32], threads: &AtomicU64) {
    for i in grid_stride(values.len()) {
        bins[values[i] as usize % bins.len()].fetch_add(1, Ordering::Relaxed);
    }
    threads.fetch_add(1, Ordering::Relaxed);
}

/// `total += Σ x[i] * y[i]`: each thread sums its grid-stride products, then
/// adds its sum to `total` once (a float atomic add).
#[kernel]
pub fn dot(x: &[f32], y: &[f32], total: &AtomicF32) {
    let mut sum = 0.0f32;
    for i in grid_stride(x.len()) {
        sum += x[i] * y[i];
    }
    total.fetch_add(sum, Ordering::Relaxed);
}

/// Prefix sum, step 1 of 3: `sums[c]` is the sum of chunk `c` of `x`
/// (chunks of [`CHUNK`] elements), one chunk per grid-stride step.
#[kernel]
pub fn chunk_sums(x: &[u32], mut sums: Out<'_, [u32]>) {
    for (c, sum) in sums.grid_stride() {
        let start = (c * CHUNK).min(x.len());
        let end = (start + CHUNK).min(x.len());
        sum.write(x[start..end].iter().fold(0, |a, &v| a.wrapping_add(v)));
    }
}

/// Prefix sum, step 2 of 3: the chunk sums become exclusive prefix sums
/// (the chunks' offsets), on the grid's first thread (there are few).
#[kernel]
pub fn chunk_offsets(mut sums: InOut<'_, [u32], FirstThread>) {
    if let Some(sums) = sums.first_thread() {
        let mut acc = 0u32;
        for s in sums {
            let next = acc.wrapping_add(*s);
            *s = acc;
            acc = next;
        }
    }
}

/// Prefix sum, step 3 of 3: `out[i] = x[0] + ... + x[i]`, each chunk of
/// `out` from its offset, one chunk per grid-stride step.
#[kernel]
pub fn scan_chunks(x: &[u32], offsets: &[u32], mut out: Out<'_, [u32], Chunks<CHUNK>>) {
    for (c, out) in out.grid_stride_chunks() {
        let mut acc = offsets[c];
        for (slot, &v) in out.iter_mut().zip(&x[c * CHUNK..]) {
            acc = acc.wrapping_add(v);
            slot.write(acc);
        }
    }
}

/// Marks which thread of the grid handled each element: `owner[i]` becomes
/// the linear id of the thread that got element `i` from `.grid_stride()`,
/// `hits[i]` counts how many did (1 when the parts are disjoint and cover
/// everything).
#[kernel]
pub fn owners(mut owner: InOut<'_, [u32]>, hits: &[AtomicU32]) {
    let (id, _) = offload::index::grid_linear_id();
    for (i, owner) in owner.grid_stride() {
        *owner = id as u32;
        hits[i].fetch_add(1, Ordering::Relaxed);
    }
}

/// As [`owners`], by chunks of 9 elements.
#[kernel]
pub fn chunk_owners(mut owner: Out<'_, [u32], Chunks<9>>, hits: &[AtomicU32]) {
    let (id, _) = offload::index::grid_linear_id();
    for (c, part) in owner.grid_stride_chunks() {
        for (k, slot) in part.iter_mut().enumerate() {
            slot.write(id as u32);
            hits[c * 9 + k].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// As [`owners`], everything on the grid's first thread.
#[kernel]
pub fn first_owner(mut owner: Out<'_, [u32], FirstThread>, hits: &[AtomicU32]) {
    let (id, _) = offload::index::grid_linear_id();
    if let Some(all) = owner.first_thread() {
        for (slot, hit) in all.iter_mut().zip(hits) {
            slot.write(id as u32);
            hit.fetch_add(1, Ordering::Relaxed);
        }
    }
}
