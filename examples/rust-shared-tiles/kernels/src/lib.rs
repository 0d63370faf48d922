//! Kernels of the rust-shared-tiles example: two classic CUDA kernels whose
//! shared memory and outputs follow the threads' ids, in safe Rust.
//!
//! - [`heat2`]: two steps of a heat stencil per launch on a halo tile
//!   (CUDA's `__shared__ float a[20][20], b[20][20]`): the team loads its
//!   tile with a halo of two cells, computes the first step on the tile
//!   less its outer ring (reading neighbours in `a` while writing `b`,
//!   between the same two barriers), then each thread its own pixel of the
//!   second step, written to the output by its 2-D id (`Rows<WIDTH>`:
//!   CUDA's `if (x < w && y < h) out[y * w + x] = ...`).
//! - [`align_rows`]: a Needleman-Wunsch score matrix per team, swept along
//!   its anti-diagonals (thread `t` computes column `t + 1`, one cell per
//!   step), with the substitution table loaded once into shared memory and
//!   frozen; each thread writes its cell of the last row by its global id
//!   (`GlobalId`).
//! - [`min_path`]: a cheapest-path sweep over rows (CUDA's pathfinder),
//!   several rows per launch on a shrinking halo (a pyramid), reading
//!   neighbours in one shared tile while writing the other.
//! - [`ramp_rows`]: an in-place update of an image, one pixel per thread by
//!   its 2-D id (`InOut<'_, [f32], Rows<WIDTH>>`).
//!
//! Shared memory is [`shared_tile!`]: every access is checked element by
//! element (see `offload::shared`, "Shared tiles"), so none of this needs
//! `unsafe` or atomics.

#![no_std]

use offload::index::{team_id, thread_count, thread_id, thread_rank};
use offload::partition::{GlobalId, Rows};
use offload::shared::SharedTile;
use offload::{InOut, Out, kernel, shared_tile, sync_threads};

/// Threads per team in x and y for [`heat2`].
pub const TILE: usize = 16;
/// The halo: one cell per step of [`heat2`].
const HALO: usize = 2;
/// The side of [`heat2`]'s shared tiles.
const SIDE: usize = TILE + 2 * HALO;
/// The width of [`heat2`]'s images.
pub const WIDTH: usize = 100;

/// One step of the stencil at cell `c` of a tile: the same arithmetic, in
/// the same order, as the host's plain loop.
fn step(t: &SharedTile<f32>, c: usize) -> f32 {
    0.5 * t.get(c) + 0.125 * (t.get(c - 1) + t.get(c + 1) + t.get(c - SIDE) + t.get(c + SIDE))
}

/// Two steps of `u' = u/2 + (left + right + up + down)/8` on an image of
/// rows of [`WIDTH`] (`input.len() / WIDTH` rows, 0 outside it), written to
/// `out`; [`TILE`] × [`TILE`] threads per team, one team per tile of the
/// image.
#[kernel]
pub fn heat2(input: &[f32], mut out: Out<'_, [f32], Rows<WIDTH>>) {
    let threads = thread_count();
    assert!(
        threads.x as usize == TILE && threads.y as usize == TILE,
        "heat2 runs 16 x 16 threads per team"
    );
    let (Some(a), Some(b)) = (
        shared_tile!(f32; SIDE * SIDE),
        shared_tile!(f32; SIDE * SIDE),
    ) else {
        return;
    };
    let height = input.len() / WIDTH;
    // The image's coordinates of the tile's cell 0.
    let x0 = (team_id().x as usize * TILE).wrapping_sub(HALO);
    let y0 = (team_id().y as usize * TILE).wrapping_sub(HALO);
    let pixel = |c: usize| {
        let (x, y) = (x0.wrapping_add(c % SIDE), y0.wrapping_add(c / SIDE));
        (x < WIDTH && y < height).then_some(y * WIDTH + x)
    };
    // The tile and its halo: 400 cells for 256 threads.
    for c in a.own_indices() {
        a.set(c, pixel(c).map_or(0.0, |p| input[p]));
    }
    sync_threads();
    // Step 1 on all but the outer ring: neighbours in `a`, cells of `b`.
    for c in b.own_indices() {
        let (i, j) = (c % SIDE, c / SIDE);
        if (1..SIDE - 1).contains(&i) && (1..SIDE - 1).contains(&j) {
            b.set(c, if pixel(c).is_some() { step(&a, c) } else { 0.0 });
        }
    }
    sync_threads();
    // Step 2: this thread's pixel, from its neighbours in `b`.
    let (tx, ty) = (thread_id().x as usize, thread_id().y as usize);
    let c = (ty + HALO) * SIDE + tx + HALO;
    let value = step(&b, c);
    if let Some((_, slot)) = out.at_global_2d() {
        slot.write(value);
    }
}

/// Adds `by` times its row number to every pixel of an image of rows of
/// [`WIDTH`], in place, one pixel per thread by its 2-D id (CUDA's
/// `if (x < w && y < h) img[y * w + x] += by * y`).
#[kernel]
pub fn ramp_rows(mut image: InOut<'_, [f32], Rows<WIDTH>>, by: f32) {
    if let Some((i, pixel)) = image.at_global_2d() {
        *pixel += by * (i / WIDTH) as f32;
    }
}

/// Threads per team of [`min_path`], and the rows it sweeps per launch.
pub const PATH_TEAM: usize = 64;
pub const PYRAMID: usize = 4;

/// `PYRAMID` rows of a cheapest-path sweep (CUDA's pathfinder with a
/// pyramid): `next[c] = wall[r][c] + min(prev[c-1], prev[c], prev[c+1])`
/// for the rows `r` of `wall` (`PYRAMID` rows of `prev.len()` columns),
/// from `prev`. Each team of [`PATH_TEAM`] threads covers `PATH_TEAM - 2 *
/// PYRAMID` columns with a halo of `PYRAMID` on each side, which shrinks by
/// one per row: reading its neighbours in one shared tile while each
/// thread writes its own element of the other. The team's thread `t`
/// writes its column's cost to `padded[team * PATH_TEAM + t]` (its global
/// id) if its column is one of the team's own (the halo's threads write
/// nothing there); the host drops the halo's slots.
#[kernel]
pub fn min_path(prev: &[i32], wall: &[i32], mut padded: Out<'_, [i32], GlobalId>) {
    assert!(
        thread_count().x as usize == PATH_TEAM,
        "min_path runs 64 threads per team"
    );
    let (Some(a), Some(b)) = (shared_tile!(i32; PATH_TEAM), shared_tile!(i32; PATH_TEAM)) else {
        return;
    };
    let cols = prev.len();
    let t = thread_rank();
    let own = PATH_TEAM - 2 * PYRAMID;
    // This thread's column (None past either end of the row).
    let col = (team_id().x as usize * own + t)
        .checked_sub(PYRAMID)
        .filter(|&c| c < cols);
    a.set(t, col.map_or(i32::MAX, |c| prev[c]));
    for row in 0..PYRAMID {
        sync_threads();
        let (from, to) = if row % 2 == 0 { (&a, &b) } else { (&b, &a) };
        // Cells whose three sources the tile still holds, in the row.
        if let Some(c) = col.filter(|_| (row + 1..PATH_TEAM - row - 1).contains(&t)) {
            let left = if c > 0 { from.get(t - 1) } else { i32::MAX };
            let right = if c + 1 < cols {
                from.get(t + 1)
            } else {
                i32::MAX
            };
            let best = left.min(from.get(t)).min(right);
            to.set(t, wall[row * cols + c] + best);
        }
    }
    let last = if PYRAMID % 2 == 1 { &b } else { &a };
    if (PYRAMID..PATH_TEAM - PYRAMID).contains(&t) && col.is_some() {
        let cost = last.get(t);
        if let Some((_, slot)) = padded.at_global_id() {
            slot.write(cost);
        }
    }
}

/// The length of [`align_rows`]' sequences: its threads per team.
pub const SEQ: usize = 32;
const COLS: usize = SEQ + 1;

/// For each team `k`, the Needleman-Wunsch scores of `a[k*SEQ..][..SEQ]`
/// against `b[k*SEQ..][..SEQ]` (symbols 0 to 3, `table[4 * x + y]` the
/// score of `x` against `y`, `gap` the cost of a gap): the last row of the
/// `(SEQ+1) × (SEQ+1)` matrix, cell `t + 1` in `last[k * SEQ + t]`.
/// [`SEQ`] threads per team.
#[kernel]
pub fn align_rows(a: &[u8], b: &[u8], table: &[i32], gap: i32, mut last: Out<'_, [i32], GlobalId>) {
    assert!(
        thread_count().x as usize == SEQ && table.len() == 16,
        "align_rows runs 32 threads per team on a 4 x 4 table"
    );
    let (Some(sub), Some(s)) = (shared_tile!(i32; 16), shared_tile!(i32; COLS * COLS)) else {
        return;
    };
    let t = thread_rank();
    let base = team_id().x as usize * SEQ;
    let symbol = |v: &[u8], i: usize| v.get(base + i).map_or(0, |&x| usize::from(x & 3));
    // The table, read by every thread in every later step: frozen.
    for i in sub.own_indices() {
        sub.set(i, table[i]);
    }
    sub.freeze();
    // The borders: row 0 and column 0.
    for k in (t..COLS).step_by(SEQ) {
        s.set(k, -gap * k as i32);
        s.set(k * COLS, -gap * k as i32);
    }
    // Step d: thread t computes cell (d + 1 - t, t + 1) of anti-diagonal d
    // from the two before it; no other thread touches that cell in the step.
    let j = t + 1;
    for d in 0..2 * SEQ - 1 {
        sync_threads();
        let i = (d + 1).wrapping_sub(t);
        if (1..COLS).contains(&i) {
            let hit = sub.get(4 * symbol(a, i - 1) + symbol(b, j - 1));
            let v = (s.get((i - 1) * COLS + j - 1) + hit)
                .max(s.get((i - 1) * COLS + j) - gap)
                .max(s.get(i * COLS + j - 1) - gap);
            s.set(i * COLS + j, v);
        }
    }
    // Thread t wrote cell (SEQ, t + 1) itself, in the last step it had.
    let score = s.get(SEQ * COLS + j);
    if let Some((_, slot)) = last.at_global_id() {
        slot.write(score);
    }
}
