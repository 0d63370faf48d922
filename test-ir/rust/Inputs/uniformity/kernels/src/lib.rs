//! Kernels for the build-time uniformity check.

#![no_std]

use offload::index::{team_size, thread_rank};
use offload::{Out, kernel, shared, sync_threads, warp};

/// The usual shapes: an early return on the thread id before barriers, a
/// grid-stride loop followed by a barrier, a loop whose trip count is an
/// argument around a barrier, `let ... else { return }` on the dynamic
/// shared memory, a tree reduction with `if me + half < width` around reads
/// only, and a warp shuffle in every lane.
#[kernel]
pub fn shapes(x: &[f32], rounds: u32, mut out: Out<'_, [f32]>) {
    let me = thread_rank();
    let width = team_size();
    let Some(sums) = shared::dyn_shared::<f32>(width) else {
        return;
    };
    let mut acc = 0.0f32;
    for i in offload::grid_stride(x.len()) {
        acc += x[i];
    }
    sums.set(me, acc);
    sync_threads();
    let mut half = width.next_power_of_two() / 2;
    while half > 0 {
        let mine = if me < half && me + half < width {
            sums.get(me) + sums.get(me + half)
        } else {
            sums.get(me)
        };
        sync_threads();
        sums.set(me, mine);
        sync_threads();
        half /= 2;
    }
    for _ in 0..rounds {
        sync_threads();
    }
    let total = warp::shuffle(sums.get(0), 0);
    if me >= x.len() {
        return;
    }
    sync_threads();
    for (_, o) in out.grid_stride() {
        o.write(total);
    }
}

/// A barrier only the first `n` threads of a team reach.
#[cfg(feature = "divergent")]
#[kernel]
pub fn divergent(n: u32, mut out: Out<'_, [f32]>) {
    if thread_rank() < n as usize {
        sync_threads();
    }
    sync_threads();
    for (_, o) in out.grid_stride() {
        o.write(1.0);
    }
}

/// The same, through the `unsafe` form: it builds, and the CPU grid aborts
/// when the threads meet at different sites.
#[cfg(feature = "unchecked")]
#[kernel]
pub fn unchecked(n: u32, mut out: Out<'_, [f32]>) {
    if thread_rank() < n as usize {
        // SAFETY: deliberately broken, to show the run-time check.
        unsafe { offload::sync::sync_threads_unchecked() };
    }
    sync_threads();
    for (_, o) in out.grid_stride() {
        o.write(1.0);
    }
}
