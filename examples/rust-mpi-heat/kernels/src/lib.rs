//! The kernels of the rust-mpi-heat example: one explicit time step of the
//! 2-D heat equation on a rank's block of rows (row-major, `nx` columns),
//! split in two so that the interior can be updated while the halo rows
//! are still being exchanged.
//!
//! Each cell becomes `c + alpha * ((up + down) + (left + right) - 4 c)`;
//! the columns left and right of the grid are held at 0. Each thread takes
//! chunks of [`CHUNK`] cells (`.grid_stride_chunks()`), so the kernels are
//! correct on any grid.

#![no_std]

use offload::partition::Chunks;
use offload::{InOut, kernel};

/// Cells per chunk of the output.
pub const CHUNK: usize = 64;

/// One cell's update. The evaluation order is fixed (no reassociation,
/// no fused multiply-add), so every rank count gives the same bits.
#[inline(always)]
fn update(alpha: f32, c: f32, up: f32, down: f32, left: f32, right: f32) -> f32 {
    c + alpha * ((up + down) + (left + right) - 4.0 * c)
}

/// The left and right neighbours of cell `i` in column `col`.
#[inline(always)]
fn sideways(old: &[f32], i: usize, col: usize, nx: usize) -> (f32, f32) {
    let left = if col == 0 { 0.0 } else { old[i - 1] };
    let right = if col + 1 == nx { 0.0 } else { old[i + 1] };
    (left, right)
}

/// Rows `1..rows - 1` of `new` from `old` (the rows whose neighbours are
/// all in the block); the first and last rows are left as they are.
#[kernel]
pub fn diffuse_interior(
    nx: usize,
    alpha: f32,
    old: &[f32],
    mut new: InOut<'_, [f32], Chunks<CHUNK>>,
) {
    if nx == 0 || old.len() != new.len() {
        return;
    }
    let rows = old.len() / nx;
    for (c, chunk) in new.grid_stride_chunks() {
        let start = c * CHUNK;
        let (mut row, mut col) = (start / nx, start % nx);
        for (i, v) in (start..).zip(chunk.iter_mut()) {
            if row >= 1 && row + 1 < rows {
                let (left, right) = sideways(old, i, col, nx);
                *v = update(alpha, old[i], old[i - nx], old[i + nx], left, right);
            }
            col += 1;
            if col == nx {
                (row, col) = (row + 1, 0);
            }
        }
    }
}

/// The first and last rows of `new` from `old` and the halo rows `above`
/// and `below` the block (`nx` cells each); the other rows are left as
/// they are. Chunks that hold neither row are skipped.
#[kernel]
pub fn diffuse_edges(
    nx: usize,
    alpha: f32,
    old: &[f32],
    above: &[f32],
    below: &[f32],
    mut new: InOut<'_, [f32], Chunks<CHUNK>>,
) {
    if nx == 0 || old.is_empty() || old.len() != new.len() || above.len() != nx || below.len() != nx
    {
        return;
    }
    let rows = old.len() / nx;
    let last = (rows - 1) * nx;
    for (c, chunk) in new.grid_stride_chunks() {
        let start = c * CHUNK;
        if start >= nx && start + chunk.len() <= last {
            continue;
        }
        let (mut row, mut col) = (start / nx, start % nx);
        for (i, v) in (start..).zip(chunk.iter_mut()) {
            if row == 0 || row + 1 == rows {
                let up = if row == 0 { above[col] } else { old[i - nx] };
                let down = if row + 1 == rows {
                    below[col]
                } else {
                    old[i + nx]
                };
                let (left, right) = sideways(old, i, col, nx);
                *v = update(alpha, old[i], up, down, left, right);
            }
            col += 1;
            if col == nx {
                (row, col) = (row + 1, 0);
            }
        }
    }
}
