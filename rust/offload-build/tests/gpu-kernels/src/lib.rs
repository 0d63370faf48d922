//! Kernels using the index API, every argument shape and the atomics, for
//! GPU targets.

#![no_std]

use offload::atomic::{AtomicF32, AtomicF64, AtomicU32, AtomicU64, Ordering};
use offload::index::{self, Idx3};
use offload::partition::FirstThread;
use offload::{DeviceCopy, InOut, Out, kernel};

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Scale {
    pub a: f32,
    pub b: f32,
}

/// A grid-stride loop.
#[kernel]
pub fn saxpy(s: Scale, x: &[f32], mut y: Out<'_, [f32]>) {
    for (i, y) in y.grid_stride() {
        y.write(s.a * x[i] + s.b);
    }
}

/// Every id and count, per dimension, written by the grid's first thread.
#[kernel]
pub fn ids(mut out: Out<'_, [u32], FirstThread>) {
    let all: [Idx3; 4] = [
        index::team_id(),
        index::team_count(),
        index::thread_id(),
        index::thread_count(),
    ];
    if let Some(out) = out.first_thread()
        && out.len() >= 12
    {
        for (k, d) in all.iter().enumerate() {
            out[3 * k].write(d.x);
            out[3 * k + 1].write(d.y);
            out[3 * k + 2].write(d.z);
        }
    }
}

/// In place, with a scalar.
#[kernel]
pub fn scale(mut x: InOut<'_, [f64]>, by: f64, mut count: InOut<'_, u32>) {
    for (_, x) in x.grid_stride() {
        *x *= by;
    }
    if let Some(count) = count.first_thread() {
        *count = index::global_count() as u32;
    }
}

/// Shared memory, barriers and warp operations: each warp's sum through
/// shuffles, then the team's through its dynamic shared memory.
#[kernel]
pub fn team_sum(x: &[f32], sums: &[AtomicF32]) {
    let v: f32 = offload::grid_stride(x.len()).map(|i| x[i]).sum();
    let warp_total = offload::warp::reduce_add(v);
    let lanes = offload::warp::ballot(true).count_ones() as usize;
    let me = index::thread_rank();
    let Some(s) = offload::shared::dyn_shared::<f32>(index::team_size()) else {
        return;
    };
    s.set(
        me,
        if offload::warp::lane_id() == 0 {
            warp_total
        } else {
            0.0
        },
    );
    offload::sync_threads();
    if me == 0 && lanes > 0 {
        let team = index::team_id().x as usize;
        if let Some(sum) = sums.get(team) {
            sum.store((0..s.len()).map(|i| s.get(i)).sum(), Ordering::Relaxed);
        }
    }
}

/// Integer atomics on device memory: a histogram and a 64-bit counter.
#[kernel]
pub fn histogram(values: &[u32], bins: &[AtomicU32], seen: &AtomicU64) {
    for i in offload::grid_stride(values.len()) {
        bins[values[i] as usize % bins.len()].fetch_add(1, Ordering::Relaxed);
    }
    seen.fetch_add(1, Ordering::Relaxed);
}

/// Float atomic adds on device memory.
#[kernel]
pub fn float_sums(x: &[f32], sums: &[AtomicF32], wide: &AtomicF64) {
    for i in offload::grid_stride(x.len()) {
        sums[i % sums.len()].fetch_add(x[i], Ordering::Relaxed);
        wide.fetch_add(f64::from(x[i]), Ordering::Relaxed);
    }
}

/// Reverses each team's block of 128 elements of `x` into `out` through a
/// static shared array (and keeps a second, `u64`, array of its own): the
/// GPU images' `addrspace(3)` arrays of `offload-shared-memory`.
#[offload::kernel]
pub fn reverse_static(x: &[u32], out: &[AtomicU64]) {
    let (Some(tile), Some(wide)) = (
        offload::shared_array!(u32; 128),
        offload::shared_array!(u64; 128),
    ) else {
        return;
    };
    let base = index::team_id().x as usize * 128;
    for i in tile.own_indices() {
        tile.set(i, x.get(base + i).copied().unwrap_or(0));
        wide.set(i, i as u64);
    }
    offload::sync_threads();
    for i in tile.own_indices() {
        if let Some(o) = out.get(base + i) {
            o.store(
                u64::from(tile.get(127 - i)) + wide.get(127 - i),
                Ordering::Relaxed,
            );
        }
    }
}

/// Atomics on shared memory: each team's histogram of `x` (16 bins) in a
/// static shared array of atomics, added to `bins`.
#[kernel]
pub fn team_histogram(x: &[u32], bins: &[AtomicU32]) {
    let Some(team_bins) = offload::shared_atomic_array!(AtomicU32; 16) else {
        return;
    };
    for i in team_bins.own_indices() {
        team_bins.get(i).store(0, Ordering::Relaxed);
    }
    offload::sync_threads();
    for i in offload::grid_stride(x.len()) {
        team_bins
            .get(x[i] as usize % 16)
            .fetch_add(1, Ordering::Relaxed);
    }
    offload::sync_threads();
    for i in team_bins.own_indices() {
        if let Some(bin) = bins.get(i) {
            bin.fetch_add(team_bins.get(i).load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }
}

/// Shared tiles and one output element per thread: each team of 256
/// threads blurs its block of `x` (`a`'s neighbours read while each thread
/// writes its element of `b`, between the same two barriers), rows of 64 by
/// the threads' 2-D ids into `out`, and a frozen tile read by everyone into
/// `seen` by global id; each thread also writes its rank into the dynamic
/// shared memory viewed as a tile.
#[kernel]
pub fn tile_blur(
    x: &[f32],
    mut out: Out<'_, [f32], offload::partition::Rows<64>>,
    mut seen: Out<'_, [u32], offload::partition::GlobalId>,
) {
    let (Some(a), Some(b), Some(table)) = (
        offload::shared_tile!(f32; 256),
        offload::shared_tile!(f32; 256),
        offload::shared_tile!(u32; 16),
    ) else {
        return;
    };
    let me = index::thread_rank();
    let base = index::team_id().x as usize * 256;
    a.set(me, x.get(base + me).copied().unwrap_or(0.0));
    if me < 16 {
        table.set(me, me as u32 * 3);
    }
    table.freeze();
    offload::sync_threads();
    let left = if me > 0 { a.get(me - 1) } else { 0.0 };
    let right = if me < 255 { a.get(me + 1) } else { 0.0 };
    b.set(me, left + a.get(me) + right);
    if let Some((_, slot)) = out.at_global_2d() {
        slot.write(b.get(me));
    }
    if let Some((_, slot)) = seen.at_global_id() {
        slot.write(table.get(me % 16));
    }
    // The dynamic shared memory as a tile, where the launch gave enough.
    if let Some(extra) = offload::shared::dyn_tile::<u32>(256) {
        extra.set(me, me as u32);
    }
}
