//! Kernels of the CPU grid's semantics test.

#![no_std]

use offload::atomic::{AtomicU32, Ordering};
use offload::index::{team_id, team_size, thread_rank};
use offload::{kernel, shared, sync_threads, warp};

fn team() -> usize {
    team_id().x as usize
}

/// Threads of rank >= `active` return at once; the others store their
/// rank in shared memory, meet at a barrier, and each writes its right
/// neighbour's (among the active ones) plus its own.
#[kernel]
pub fn early_exit(active: usize, out: &[AtomicU32]) {
    let me = thread_rank();
    if me >= active {
        return;
    }
    let Some(ranks) = shared::dyn_shared::<u32>(team_size()) else {
        return;
    };
    ranks.set(me, me as u32);
    sync_threads();
    let right = ranks.get((me + 1) % active);
    out[team() * team_size() + me].store(right + me as u32, Ordering::Relaxed);
}

/// Warp 0 alone sums its lanes' ranks (`warp::reduce_add`); then the whole
/// team meets and every thread writes the sum warp 0 left in shared memory.
#[kernel]
pub fn warp_zero(out: &[AtomicU32]) {
    let me = thread_rank();
    let Some(sum) = shared::dyn_shared::<u32>(team_size()) else {
        return;
    };
    sum.set(me, 0);
    if me / warp::warp_size() as usize == 0 {
        // SAFETY: every lane of warp 0 takes this branch (the condition is
        // the same for a whole warp), and no lane of the other warps.
        let s = unsafe { warp::reduce_add_unchecked(me as u32) };
        if me == 0 {
            sum.set(0, s);
        }
    }
    sync_threads();
    out[team() * team_size() + me].store(sum.get(0), Ordering::Relaxed);
}

/// Inclusive prefix sums of each team's slice of `x` (Hillis-Steele in
/// shared memory, two barriers per step).
#[kernel]
pub fn block_scan(x: &[u32], out: &[AtomicU32]) {
    let (n, me) = (team_size(), thread_rank());
    let Some(tile) = shared::dyn_shared::<u32>(n) else {
        return;
    };
    let g = team() * n + me;
    tile.set(me, x[g]);
    sync_threads(); // read phase
    let mut d = 1;
    while d < n {
        let v = tile.get(me) + if me >= d { tile.get(me - d) } else { 0 };
        sync_threads(); // write phase
        tile.set(me, v);
        sync_threads(); // read phase
        d *= 2;
    }
    out[g].store(tile.get(me), Ordering::Relaxed);
}

/// Writes shared memory in a read phase: aborts naming the line.
#[kernel]
pub fn bad_phase(out: &[AtomicU32]) {
    let me = thread_rank();
    let Some(tile) = shared::dyn_shared::<u32>(team_size()) else {
        return;
    };
    tile.set(me, 1);
    sync_threads();
    tile.set(me, 2);
    out[me].store(tile.get(me), Ordering::Relaxed);
}

/// Threads of rank < 5 meet at a barrier the others skip: they stop at
/// it while the others stop at the next one. The build-time check refuses
/// the safe form; the unchecked one breaks its contract on purpose, for the
/// CPU grid's run-time check.
#[kernel]
pub fn split_barrier(out: &[AtomicU32]) {
    let me = thread_rank();
    if me < 5 {
        // SAFETY: not upheld (the point of this kernel): the CPU grid
        // aborts naming both barriers instead of hanging.
        unsafe { offload::sync::sync_threads_unchecked() };
        out[me].store(1, Ordering::Relaxed);
    } else {
        out[me].store(2, Ordering::Relaxed);
    }
    sync_threads();
}

/// Thread 3 of team 2 panics.
#[kernel]
pub fn panics(out: &[AtomicU32]) {
    let me = thread_rank();
    if team() == 2 && me == 3 {
        panic!("thread 3 of team 2 gives up");
    }
    sync_threads();
    out[team() * team_size() + me].store(1, Ordering::Relaxed);
}
