//! Kernels of the rust-gpu-toolkit example: what GPU programmers write with
//! shared memory, barriers and warp operations, in sound forms only (shared
//! memory through its phases, see `offload::shared`). A thread that writes
//! an output element no grid-stride partition gives it (its tile's element,
//! its team's or warp's partial sum) writes it with a relaxed atomic store
//! (`&[AtomicF32]`, a plain store on a GPU): the sound form of an indexed
//! write.

#![no_std]

use offload::atomic::{AtomicF32, Ordering};
use offload::index::{team_id, team_size, thread_count, thread_id, thread_rank};
use offload::{grid_stride, kernel, shared, shared_array, sync_threads, warp};

/// The side of a matmul tile; `matmul_tiled` runs `TILE × TILE` threads per
/// team, with two static shared `TILE × TILE` tiles of `f32`.
pub const TILE: usize = 16;

/// `c = a × b` for `n × n` row-major matrices, one `TILE × TILE` tile of `c`
/// per team: the team loads a tile of `a` and one of `b` into its static
/// shared tiles (CUDA's `__shared__ float as[16][16], bs[16][16]`; each
/// thread its own element), waits, multiplies them, waits, and moves on
/// along `k`.
#[kernel]
pub fn matmul_tiled(n: usize, a: &[f32], b: &[f32], c: &[AtomicF32]) {
    let threads = thread_count();
    assert!(
        threads.x as usize == TILE && threads.y as usize == TILE && threads.z == 1,
        "matmul_tiled runs 16 x 16 threads per team"
    );
    // Row-major `TILE × TILE` tiles; `None` only outside a launch grid.
    let (Some(a_tile), Some(b_tile)) = (
        shared_array!(f32; TILE * TILE),
        shared_array!(f32; TILE * TILE),
    ) else {
        return;
    };
    let (tx, ty) = (thread_id().x as usize, thread_id().y as usize);
    let row = team_id().y as usize * TILE + ty;
    let col = team_id().x as usize * TILE + tx;
    let me = thread_rank();
    let mut acc = 0.0f32;
    for t in 0..n.div_ceil(TILE) {
        // Write phase: this thread's element of each tile.
        let (ak, bk) = (t * TILE + tx, t * TILE + ty);
        let a_elem = if row < n && ak < n {
            a[row * n + ak]
        } else {
            0.0
        };
        let b_elem = if bk < n && col < n {
            b[bk * n + col]
        } else {
            0.0
        };
        a_tile.set(me, a_elem);
        b_tile.set(me, b_elem);
        sync_threads();
        // Read phase: the whole tiles.
        for k in 0..TILE {
            acc += a_tile.get(ty * TILE + k) * b_tile.get(k * TILE + tx);
        }
        sync_threads();
    }
    if row < n && col < n {
        c[row * n + col].store(acc, Ordering::Relaxed);
    }
}

/// Per team, the sum of the elements of `x` its threads take in a
/// grid-stride loop, into `partial[team]`: each thread sums its share, then
/// the team adds the threads' sums in a tree in shared memory (one `f32`
/// per thread of the team), two barriers per level.
#[kernel]
pub fn block_sum(x: &[f32], partial: &[AtomicF32]) {
    let n = team_size();
    let me = thread_rank();
    let Some(sums) = shared::dyn_shared::<f32>(n) else {
        panic!("block_sum needs 4 bytes of dynamic shared memory per thread");
    };
    let mine: f32 = grid_stride(x.len()).map(|i| x[i]).sum();
    sums.set(me, mine);
    let mut width = n;
    while width > 1 {
        let half = width.div_ceil(2);
        sync_threads(); // read phase
        let v = if me + half < width {
            sums.get(me) + sums.get(me + half)
        } else {
            sums.get(me)
        };
        sync_threads(); // write phase
        sums.set(me, v);
        width = half;
    }
    let team = team_id();
    let teams = offload::index::team_count();
    let team =
        team.x as usize + teams.x as usize * (team.y as usize + teams.y as usize * team.z as usize);
    if me == 0 && team < partial.len() {
        partial[team].store(sums.get(0), Ordering::Relaxed);
    }
}

/// Per warp, the sum of the elements of `x` its threads take in a
/// grid-stride loop, into `partial[warp]` (warps numbered across the grid):
/// the lanes' sums meet in lane 0 through `shuffle_down`, halving the
/// distance each step. `partial` needs one element per warp of the grid
/// (at most one per thread).
#[kernel]
pub fn warp_sum(x: &[f32], partial: &[AtomicF32]) {
    let mut v: f32 = grid_stride(x.len()).map(|i| x[i]).sum();
    let mut offset = warp::warp_size() / 2;
    while offset > 0 {
        v += warp::shuffle_down(v, offset);
        offset /= 2;
    }
    let (id, _) = offload::index::grid_linear_id();
    let warp_index = id / warp::warp_size() as usize;
    if warp::lane_id() == 0 && warp_index < partial.len() {
        partial[warp_index].store(v, Ordering::Relaxed);
    }
}

/// Inclusive prefix sums of each team's slice of `x` into `out`
/// (Hillis-Steele in shared memory: each step reads two elements, waits,
/// writes its own, waits). Needs 4 bytes of dynamic shared memory per
/// thread.
#[kernel]
pub fn block_scan(x: &[f32], out: &[AtomicF32]) {
    let (n, me) = (team_size(), thread_rank());
    let Some(tile) = shared::dyn_shared::<f32>(n) else {
        panic!("block_scan needs 4 bytes of dynamic shared memory per thread");
    };
    let g = team_id().x as usize * n + me;
    tile.set(me, if g < x.len() { x[g] } else { 0.0 });
    sync_threads(); // read phase
    let mut d = 1;
    while d < n {
        let v = tile.get(me) + if me >= d { tile.get(me - d) } else { 0.0 };
        sync_threads(); // write phase
        tile.set(me, v);
        sync_threads(); // read phase
        d *= 2;
    }
    if g < out.len() {
        out[g].store(tile.get(me), Ordering::Relaxed);
    }
}

/// The elements each thread of [`block_scan_raked`] scans on its own.
pub const SCAN_ITEMS: usize = 64;

/// Inclusive prefix sums of each team's slice of `SCAN_ITEMS ×
/// team_size()` elements of `x` into `out`, work-efficient as CUB's raking
/// block scan: each thread scans its own `SCAN_ITEMS` consecutive elements
/// and offers its total in a shared tile, thread 0 scans the totals in
/// turn (it alone touches them between the two barriers, which a tile's
/// per-element phases allow), and each thread adds the total of the
/// threads before it. Needs [`offload::shared::dyn_tile_bytes`]`::<f32>(team_size())`
/// bytes of dynamic shared memory.
#[kernel]
pub fn block_scan_raked(x: &[f32], out: &[AtomicF32]) {
    let (n, me) = (team_size(), thread_rank());
    let Some(totals) = shared::dyn_tile::<f32>(n) else {
        panic!("block_scan_raked needs a shared tile of one f32 per thread");
    };
    let base = (team_id().x as usize * n + me) * SCAN_ITEMS;
    let items = base..base + SCAN_ITEMS;
    let mut mine = [0.0f32; SCAN_ITEMS];
    let mut acc = 0.0;
    // A whole chunk in one bounds check; the last, partial one element by
    // element.
    match x.get(items.clone()) {
        Some(chunk) => {
            for (m, v) in mine.iter_mut().zip(chunk) {
                acc += v;
                *m = acc;
            }
        }
        None => {
            for (k, m) in mine.iter_mut().enumerate() {
                acc += x.get(base + k).copied().unwrap_or(0.0);
                *m = acc;
            }
        }
    }
    totals.set(me, acc);
    sync_threads();
    if me == 0 {
        let mut run = 0.0;
        for i in 0..n {
            run += totals.get(i);
            totals.set(i, run);
        }
    }
    sync_threads();
    let before = if me > 0 { totals.get(me - 1) } else { 0.0 };
    match out.get(items) {
        Some(chunk) => {
            for (o, m) in chunk.iter().zip(mine) {
                o.store(m + before, Ordering::Relaxed);
            }
        }
        None => {
            for (k, m) in mine.iter().enumerate() {
                if let Some(o) = out.get(base + k) {
                    o.store(m + before, Ordering::Relaxed);
                }
            }
        }
    }
}

/// `t = aᵀ` for an `n × n` row-major matrix, one `TILE × TILE` tile per
/// team through a static shared tile, so both the reads of `a` and the
/// writes of `t` go along rows.
#[kernel]
pub fn transpose_tiled(n: usize, a: &[f32], t: &[AtomicF32]) {
    let Some(tile) = shared_array!(f32; TILE * TILE) else {
        return;
    };
    let (tx, ty) = (thread_id().x as usize, thread_id().y as usize);
    let (bx, by) = (team_id().x as usize, team_id().y as usize);
    let (row, col) = (by * TILE + ty, bx * TILE + tx);
    tile.set(
        thread_rank(),
        if row < n && col < n {
            a[row * n + col]
        } else {
            0.0
        },
    );
    sync_threads();
    let (out_row, out_col) = (bx * TILE + ty, by * TILE + tx);
    if out_row < n && out_col < n {
        t[out_row * n + out_col].store(tile.get(tx * TILE + ty), Ordering::Relaxed);
    }
}
