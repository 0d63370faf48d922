//! Kernels using the index API and every argument shape, for GPU targets.

#![no_std]

use offload::index::{self, Idx3};
use offload::{DeviceCopy, Out, grid_stride, kernel};

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Scale {
    pub a: f32,
    pub b: f32,
}

/// A grid-stride loop.
#[kernel]
pub fn saxpy(s: Scale, x: &[f32], mut y: Out<'_, [f32]>) {
    for i in grid_stride(y.len()) {
        y.set(i, s.a * x[i] + s.b);
    }
}

/// Every id and count, per dimension, written by thread 0.
#[kernel]
pub fn ids(mut out: Out<'_, [u32]>) {
    let all: [Idx3; 4] = [
        index::team_id(),
        index::team_count(),
        index::thread_id(),
        index::thread_count(),
    ];
    if index::global_id() == 0 && out.len() >= 12 {
        for (k, d) in all.iter().enumerate() {
            out.set(3 * k, d.x);
            out.set(3 * k + 1, d.y);
            out.set(3 * k + 2, d.z);
        }
    }
}

/// In place, with a scalar.
#[kernel]
pub fn scale(x: &mut [f64], by: f64, count: &mut u32) {
    for i in grid_stride(x.len()) {
        x[i] *= by;
    }
    if index::global_id() == 0 {
        *count = index::global_count() as u32;
    }
}

/// Shared memory, barriers and warp operations: each warp's sum through
/// shuffles, then the team's through its dynamic shared memory.
#[kernel]
pub fn team_sum(x: &[f32], sums: &mut [f32]) {
    let v: f32 = grid_stride(x.len()).map(|i| x[i]).sum();
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
        if team < sums.len() {
            sums[team] = (0..s.len()).map(|i| s.get(i)).sum();
        }
    }
}

/// Reverses each team's block of 128 elements of `x` into `out` through a
/// static shared array (and keeps a second, `u64`, array of its own): the
/// GPU images' `addrspace(3)` arrays of `offload-shared-memory`.
#[offload::kernel]
pub fn reverse_static(x: &[u32], out: &mut [u64]) {
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
        if let Some(o) = out.get_mut(base + i) {
            *o = u64::from(tile.get(127 - i)) + wide.get(127 - i);
        }
    }
}
