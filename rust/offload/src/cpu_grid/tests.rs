//! The single-thread path of the grid runner: the same results as the
//! team threads' path and as a plain CPU computation, ids of 0, and no
//! heap allocation, thread or futex call for a team of one thread.

use core::sync::atomic::Ordering::Relaxed;
use core::sync::atomic::{AtomicU32, AtomicU64};
use std::vec::Vec;

use offload_contract::grid::{Grid, encode};

use super::ffi::counters::{ALLOCATIONS, WAKES};
use super::run_grid;
use crate::index::{self, Idx3};

fn run(teams: [u32; 3], threads: [u32; 3], dyn_shared_mem: u32, kernel: impl Fn()) {
    let slots = encode(Grid {
        teams,
        threads,
        dyn_shared_mem,
    });
    // SAFETY: the closures share only atomics.
    unsafe { run_grid("test", slots, &kernel) };
}

/// What `run` asked of the C library on this thread: (arrays, wake-ups).
fn calls(f: impl FnOnce()) -> (u64, u64) {
    let before = (ALLOCATIONS.with(|n| n.get()), WAKES.with(|n| n.get()));
    f();
    (
        ALLOCATIONS.with(|n| n.get()) - before.0,
        WAKES.with(|n| n.get()) - before.1,
    )
}

/// `out[i] = 3 * i + 1` for every `i` by a grid-stride loop, as a kernel
/// of `teams` × `threads` computes it, next to the CPU's loop.
fn axpy_like(teams: u32, threads: u32) -> (Vec<u64>, Vec<u64>) {
    let n = 100;
    let out: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
    run([teams, 1, 1], [threads, 1, 1], 0, || {
        for i in crate::grid_stride(n) {
            out[i].fetch_add(3 * i as u64 + 1, Relaxed);
        }
        crate::sync_threads();
    });
    let expected = (0..n as u64).map(|i| 3 * i + 1).collect();
    (out.iter().map(|v| v.load(Relaxed)).collect(), expected)
}

#[test]
fn a_one_thread_launch_computes_what_the_cpu_does_and_what_larger_grids_do() {
    for (teams, threads) in [(1, 1), (0, 0), (1, 2), (2, 1), (3, 1), (2, 2)] {
        let (got, expected) = axpy_like(teams, threads);
        assert_eq!(got, expected, "{teams} teams of {threads} threads");
    }
}

#[test]
fn the_thread_of_a_one_thread_team_has_id_0_in_every_team() {
    let teams_seen = AtomicU32::new(0);
    let wrong = AtomicU32::new(0);
    run([3, 2, 1], [1, 1, 1], 0, || {
        let zero = Idx3 { x: 0, y: 0, z: 0 };
        let one = Idx3 { x: 1, y: 1, z: 1 };
        let team = index::team_id();
        let ok = index::thread_id() == zero
            && index::thread_rank() == 0
            && index::thread_count() == one
            && index::team_count() == (Idx3 { x: 3, y: 2, z: 1 })
            && crate::warp::lane_id() == 0
            && crate::warp::reduce_add(7u32) == 7
            && crate::warp::shuffle(5u32, 3) == 5;
        if !ok {
            wrong.fetch_add(1, Relaxed);
        }
        teams_seen.fetch_or(1 << (team.x + 3 * team.y), Relaxed);
    });
    assert_eq!(wrong.load(Relaxed), 0);
    assert_eq!(teams_seen.load(Relaxed), 0b11_1111);
}

#[test]
fn a_team_of_one_thread_allocates_nothing_and_makes_no_futex_call() {
    let counted = AtomicU32::new(0);
    let (arrays, wakes) = calls(|| {
        run([4, 1, 1], [1, 1, 1], 0, || {
            crate::sync_threads();
            crate::sync_threads();
            counted.fetch_add(1, Relaxed);
        });
    });
    assert_eq!(counted.load(Relaxed), 4);
    assert_eq!((arrays, wakes), (0, 0));
    // Only what the kernel uses: its dynamic shared memory.
    let (arrays, _) = calls(|| {
        run([1, 1, 1], [1, 1, 1], 64, || {
            assert_eq!(crate::shared::dyn_shared_len::<u32>(), 16);
        });
    });
    assert_eq!(arrays, 1);
}

#[test]
fn a_team_of_two_threads_still_runs_both() {
    let ranks = AtomicU32::new(0);
    run([1, 1, 1], [2, 1, 1], 0, || {
        ranks.fetch_or(1 << index::thread_rank(), Relaxed);
    });
    assert_eq!(ranks.load(Relaxed), 0b11);
}

#[test]
fn the_stack_size_variable_takes_bytes_and_k_m_g_suffixes() {
    use super::stack::parse_bytes;
    assert_eq!(parse_bytes(b"4194304"), Some(4 << 20));
    assert_eq!(parse_bytes(b"512K"), Some(512 << 10));
    assert_eq!(parse_bytes(b"64m"), Some(64 << 20));
    assert_eq!(parse_bytes(b"1G"), Some(1 << 30));
    for bad in [
        &b""[..],
        b"M",
        b"12Q",
        b"-1",
        b"1 M",
        b"99999999999999999999",
    ] {
        assert_eq!(parse_bytes(bad), None, "{bad:?}");
    }
}

/// The reciprocal division behind `Thread::thread_id` is exact for every
/// rank and dimension a team can have.
#[test]
fn thread_ids_divide_exactly() {
    let max = offload_contract::grid::MAX_THREADS_PER_TEAM;
    for d in 1..=max {
        let r = super::Reciprocal::new(d);
        for x in 0..=max {
            assert_eq!(r.div_rem(x), (x / d, x % d), "{x} / {d}");
        }
    }
    assert_eq!(super::Reciprocal::new(0).div_rem(7), (7, 0));
}

/// The CPU grid's `grid_linear_id` (the team's linear id times the team
/// size plus the rank, the step a precomputed total) is the portable
/// `linear_id` of the thread's ids, and every id of the grid comes once.
#[test]
fn grid_linear_ids_follow_the_portable_formula_in_a_3d_grid() {
    let (teams, threads) = ([2, 3, 2], [3, 2, 2]);
    let total = 2 * 3 * 2 * 3 * 2 * 2;
    let seen: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
    let wrong = AtomicU32::new(0);
    run(teams, threads, 0, || {
        let (id, count) = index::grid_linear_id();
        let portable = index::linear_id(
            index::team_id(),
            index::team_count(),
            index::thread_id(),
            index::thread_count(),
        );
        if (id, count) != portable || count != total {
            wrong.fetch_add(1, Relaxed);
        }
        if let Some(s) = seen.get(id) {
            s.fetch_add(1, Relaxed);
        }
    });
    assert_eq!(wrong.load(Relaxed), 0);
    assert!(seen.iter().all(|s| s.load(Relaxed) == 1));
}
