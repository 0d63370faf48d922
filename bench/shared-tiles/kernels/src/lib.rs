//! One stencil, two ways: on shared tiles ([`stencil_checked`], every
//! access checked by its element's record) and on static shared arrays
//! through raw pointers ([`stencil_unchecked`], `unsafe`, what CUDA does).
//! Each team smooths its block of [`BLOCK`] values `steps` times in shared
//! memory, ping-pong between two arrays, one barrier per step; each thread
//! handles the cells `rank, rank + team_size, ...`, so with few threads per
//! team the time is the accesses', not the barriers'.

#![no_std]

use offload::atomic::{AtomicF32, Ordering::Relaxed};
use offload::index::{team_id, team_size, thread_rank};
use offload::{kernel, shared_array, shared_tile, sync_threads};

/// Values per team.
pub const BLOCK: usize = 1024;

fn cells() -> impl Iterator<Item = usize> {
    (thread_rank()..BLOCK).step_by(team_size())
}

/// `v[i] = v[i-1]/4 + v[i]/2 + v[i+1]/4` (0 past the block's ends) from
/// `from(i)`.
fn smooth(c: usize, from: impl Fn(usize) -> f32) -> f32 {
    let left = if c > 0 { from(c - 1) } else { 0.0 };
    let right = if c + 1 < BLOCK { from(c + 1) } else { 0.0 };
    0.25 * left + 0.5 * from(c) + 0.25 * right
}

/// `steps` smoothings of each team's block of `x` on two shared tiles.
#[kernel]
pub fn stencil_checked(x: &[f32], steps: u32, out: &[AtomicF32]) {
    let (Some(a), Some(b)) = (shared_tile!(f32; BLOCK), shared_tile!(f32; BLOCK)) else {
        return;
    };
    let base = team_id().x as usize * BLOCK;
    for c in cells() {
        a.set(c, x.get(base + c).copied().unwrap_or(0.0));
    }
    for step in 0..steps {
        sync_threads();
        let (from, to) = if step % 2 == 0 { (&a, &b) } else { (&b, &a) };
        for c in cells() {
            to.set(c, smooth(c, |i| from.get(i)));
        }
    }
    let last = if steps % 2 == 1 { &b } else { &a };
    for c in cells() {
        if let Some(o) = out.get(base + c) {
            o.store(last.get(c), Relaxed);
        }
    }
}

/// The same on two static shared arrays through raw pointers.
#[kernel]
pub fn stencil_unchecked(x: &[f32], steps: u32, out: &[AtomicF32]) {
    let (Some(a), Some(b)) = (shared_array!(f32; BLOCK), shared_array!(f32; BLOCK)) else {
        return;
    };
    // SAFETY: between two barriers each cell is written by one thread
    // (its `cells()`) in one array and only read in the other.
    let (a, b) = unsafe { (a.as_ptr(), b.as_ptr()) };
    let base = team_id().x as usize * BLOCK;
    for c in cells() {
        // SAFETY: in bounds; this thread's cell.
        unsafe { a.add(c).write(x.get(base + c).copied().unwrap_or(0.0)) };
    }
    for step in 0..steps {
        sync_threads();
        let (from, to) = if step % 2 == 0 { (a, b) } else { (b, a) };
        for c in cells() {
            // SAFETY: in bounds; `from` is only read in this step, and `to`'s
            // cell `c` is this thread's alone.
            unsafe { to.add(c).write(smooth(c, |i| from.add(i).read())) };
        }
    }
    let last = if steps % 2 == 1 { b } else { a };
    for c in cells() {
        if let Some(o) = out.get(base + c) {
            // SAFETY: in bounds; nothing writes the arrays any more.
            o.store(unsafe { last.add(c).read() }, Relaxed);
        }
    }
}
