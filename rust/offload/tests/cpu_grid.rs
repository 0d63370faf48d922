//! GPU semantics on the CPU: the grid runner the x86_64 image's entry
//! points use, run here directly on closures standing in for kernels.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use offload::__private::run_grid;
use offload::index::{self, Idx3};
use offload::{shared, sync, sync_threads, warp};
use offload_contract::grid::{Grid, encode};

fn run(teams: [u32; 3], threads: [u32; 3], dyn_shared_mem: u32, kernel: impl Fn()) {
    let slots = encode(Grid {
        teams,
        threads,
        dyn_shared_mem,
    });
    // SAFETY: the closures share only atomics and shared memory.
    unsafe { run_grid("test", slots, &kernel) };
}

#[test]
fn every_thread_of_a_3d_grid_runs_once_with_its_own_ids() {
    let (teams, threads) = ([3, 2, 2], [4, 3, 2]);
    let total = 3 * 2 * 2 * 4 * 3 * 2;
    let seen: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
    let covered: Vec<AtomicU32> = (0..1000).map(|_| AtomicU32::new(0)).collect();
    run(teams, threads, 0, || {
        let (id, count) = index::grid_linear_id();
        assert_eq!(count, total);
        assert_eq!(index::team_count(), Idx3 { x: 3, y: 2, z: 2 });
        assert_eq!(index::thread_count(), Idx3 { x: 4, y: 3, z: 2 });
        assert_eq!(index::team_size(), 24);
        seen[id].fetch_add(1, Relaxed);
        for i in offload::grid_stride(covered.len()) {
            covered[i].fetch_add(1, Relaxed);
        }
    });
    assert!(seen.iter().all(|c| c.load(Relaxed) == 1));
    assert!(covered.iter().all(|c| c.load(Relaxed) == 1));
}

#[test]
fn sync_threads_is_a_barrier_of_the_team() {
    // Each thread writes its slot, waits, and reads its neighbour's: without
    // a real barrier some read would see 0.
    let n = 256;
    let slots: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
    let wrong = AtomicU32::new(0);
    run([4, 1, 1], [n as u32, 1, 1], 0, || {
        let me = index::thread_rank();
        let round = u64::from(index::team_id().x) + 1;
        slots[me].store(round, Relaxed);
        sync_threads();
        if slots[(me + 1) % n].load(Relaxed) != round {
            wrong.fetch_add(1, Relaxed);
        }
        sync_threads();
    });
    assert_eq!(wrong.load(Relaxed), 0);
}

#[test]
fn threads_that_return_early_do_not_deadlock_the_team() {
    let passed = AtomicU32::new(0);
    run([2, 1, 1], [64, 1, 1], 0, || {
        if index::thread_rank().is_multiple_of(3) {
            return;
        }
        sync_threads();
        sync_threads();
        passed.fetch_add(1, Relaxed);
    });
    assert_eq!(passed.load(Relaxed), 2 * (64 - 22));
}

#[test]
fn warps_shuffle_vote_and_reduce_among_their_lanes() {
    // 80 threads: warps of 32, 32 and a partial one of 16.
    let wrong = AtomicU32::new(0);
    run([1, 1, 1], [80, 1, 1], 0, || {
        let rank = index::thread_rank() as u32;
        let (lane, base) = (warp::lane_id(), rank - rank % 32);
        let lanes = (80 - base).min(32);
        let check = |ok: bool| {
            if !ok {
                wrong.fetch_add(1, Relaxed);
            }
        };
        check(warp::warp_size() == 32 && lane == rank % 32);
        check(warp::shuffle(rank, 3) == base + 3);
        let down = warp::shuffle_down(f64::from(rank), 5);
        check(down == f64::from(if lane + 5 < lanes { rank + 5 } else { rank }));
        let xor = warp::shuffle_xor(i64::from(rank), 1);
        check(xor == i64::from(rank ^ 1));
        let odd = warp::ballot(rank % 2 == 1);
        check(odd == (0..lanes).filter(|l| l % 2 == 1).fold(0, |m, l| m | 1 << l));
        check(warp::any(lane == 7) && !warp::all(lane == 7) && warp::all(true));
        let sum = warp::reduce_add(rank);
        check(sum == (base..base + lanes).sum::<u32>());
    });
    assert_eq!(wrong.load(Relaxed), 0);
}

#[test]
fn the_unchecked_forms_compute_what_the_checked_ones_do() {
    // 80 threads: warps of 32, 32 and a partial one of 16.
    let wrong = AtomicU32::new(0);
    run([2, 1, 1], [80, 1, 1], 0, || {
        let rank = index::thread_rank() as u32;
        let lane = warp::lane_id();
        // SAFETY: every thread of the team reaches each call, in order.
        let same = unsafe {
            warp::shuffle_unchecked(rank, 3) == warp::shuffle(rank, 3)
                && warp::shuffle_down_unchecked(f64::from(rank), 5)
                    == warp::shuffle_down(f64::from(rank), 5)
                && warp::shuffle_xor_unchecked(i64::from(rank), 1)
                    == warp::shuffle_xor(i64::from(rank), 1)
                && warp::ballot_unchecked(rank.is_multiple_of(3))
                    == warp::ballot(rank.is_multiple_of(3))
                && warp::all_unchecked(lane < 40) == warp::all(lane < 40)
                && warp::any_unchecked(lane == 7) == warp::any(lane == 7)
                && warp::reduce_unchecked(rank, u32::max) == warp::reduce(rank, u32::max)
                && warp::reduce_add_unchecked(rank) == warp::reduce_add(rank)
        };
        if !same {
            wrong.fetch_add(1, Relaxed);
        }
        // SAFETY: as above.
        unsafe { sync::sync_threads_unchecked() };
        sync_threads();
    });
    assert_eq!(wrong.load(Relaxed), 0);
}

#[test]
fn dynamic_shared_memory_is_per_team_and_bounded() {
    let sums: Vec<AtomicU64> = (0..8).map(|_| AtomicU64::new(0)).collect();
    let n = 100u32;
    run([8, 1, 1], [n, 1, 1], n * 4, || {
        let me = index::thread_rank();
        assert!(shared::dyn_shared::<u32>(n as usize + 1).is_none());
        assert_eq!(shared::dyn_shared_len::<u32>(), n as usize);
        let s = shared::dyn_shared::<u32>(n as usize).unwrap();
        let team = index::team_id().x;
        s.set(me, team * 1000 + me as u32);
        sync_threads();
        let total: u64 = (0..n as usize).map(|i| u64::from(s.get(i))).sum();
        if me == 0 {
            sums[team as usize].store(total, Relaxed);
        }
    });
    for (team, sum) in sums.iter().enumerate() {
        let expected: u64 = (0..u64::from(n)).map(|i| team as u64 * 1000 + i).sum();
        assert_eq!(sum.load(Relaxed), expected, "team {team}");
    }
}

#[test]
fn no_dynamic_shared_memory_outside_a_launch_grid() {
    assert!(shared::dyn_shared::<u32>(1).is_none());
    assert_eq!(index::team_size(), 1);
    sync_threads();
    assert_eq!(warp::reduce_add(5u32), 5);
}

#[test]
fn a_team_over_1024_threads_is_refused_at_launch() {
    let launch = offload::Launch::grid(1, (32, 33));
    let error = offload::__private::grid_slots(&launch, "k::big", "big").unwrap_err();
    assert_eq!(error.code(), offload::TOO_MANY_THREADS);
    assert_eq!(
        error.to_string(),
        "offload: kernel `k::big` was not launched: the launch asks for more than 1024 threads per team (code -104)"
    );
    assert!(offload::__private::grid_slots(&offload::Launch::grid(1, (32, 32)), "k", "k").is_ok());
}

#[test]
fn a_shared_write_in_a_read_phase_panics_instead_of_racing() {
    let result = std::thread::spawn(|| {
        run([1, 1, 1], [1, 1, 1], 16, || {
            let s = shared::dyn_shared::<u32>(4).unwrap();
            s.set(3, 1);
            sync_threads();
            assert_eq!(s.get(3), 1);
            s.set(3, 2);
        });
    })
    .join();
    let message = result.unwrap_err();
    let message = message
        .downcast_ref::<&str>()
        .copied()
        .or(message.downcast_ref::<String>().map(String::as_str))
        .unwrap();
    assert!(message.contains("written in a read phase"), "{message}");
}

#[test]
fn a_team_views_its_shared_memory_with_one_element_size() {
    // Ownership is by index: an f64 view next to an f32 view would let two
    // threads own the same bytes.
    let wrong = AtomicU32::new(0);
    run([3, 1, 1], [8, 1, 1], 64, || {
        let first = if index::thread_rank().is_multiple_of(2) {
            shared::dyn_shared::<f32>(8).is_some() as u32
        } else {
            shared::dyn_shared::<u32>(8).is_some() as u32
        };
        let other = shared::dyn_shared::<f64>(8).is_some() as u32;
        // Same-size views agree; the 8-byte one never does after them.
        if first != 1 || other != 0 {
            wrong.fetch_add(1, Relaxed);
        }
    });
    assert_eq!(wrong.load(Relaxed), 0);
}

/// The array of one declaration, from wherever a thread calls it.
fn helper_tile() -> Option<shared::SharedArray<u64>> {
    offload::shared_array!(u64; 512)
}

#[test]
fn static_shared_arrays_are_per_team_and_per_declaration() {
    // 6 teams of 256 threads: every thread of a team sees the team's values
    // in each array, and the two declarations (same type and length) do not
    // alias; a declaration reached from two call sites is one array.
    let (teams, n) = (6u32, 256usize);
    let wrong = AtomicU32::new(0);
    let checked = AtomicU64::new(0);
    run([teams, 1, 1], [16, 16, 1], 0, || {
        let me = index::thread_rank();
        let team = u64::from(index::team_id().x);
        let a = offload::shared_array!(u64; 512).unwrap();
        let b = offload::shared_array!(u64; 512).unwrap();
        let (c, d) = (helper_tile().unwrap(), helper_tile().unwrap());
        assert_eq!((a.len(), c.len()), (512, 512));
        for i in a.own_indices() {
            a.set(i, team * 10_000 + i as u64);
            b.set(i, team * 10_000 + 5_000 + i as u64);
            c.set(i, team + 1);
        }
        sync_threads();
        let mut bad = 0;
        for i in 0..a.len() {
            bad += u32::from(a.get(i) != team * 10_000 + i as u64);
            bad += u32::from(b.get(i) != team * 10_000 + 5_000 + i as u64);
            bad += u32::from(d.get(i) != team + 1);
        }
        wrong.fetch_add(bad, Relaxed);
        checked.fetch_add(1, Relaxed);
        // The next team writes only after every thread of this one read.
        sync_threads();
        let _ = me;
    });
    assert_eq!(wrong.load(Relaxed), 0);
    assert_eq!(checked.load(Relaxed), u64::from(teams) * n as u64);
}

#[test]
fn static_shared_arrays_keep_their_alignment_and_the_phases() {
    #[derive(Clone, Copy, offload::DeviceCopy, offload::AnyBitPattern)]
    #[repr(C, align(64))]
    struct Line([u8; 64]);
    let misaligned = AtomicU32::new(0);
    run([2, 1, 1], [4, 1, 1], 0, || {
        let lines = offload::shared_array!(Line; 4).unwrap();
        // SAFETY: only the address is used.
        let address = unsafe { lines.as_ptr() } as usize;
        misaligned.fetch_add(u32::from(!address.is_multiple_of(64)), Relaxed);
    });
    assert_eq!(misaligned.load(Relaxed), 0);
    let result = std::thread::spawn(|| {
        run([1, 1, 1], [1, 1, 1], 0, || {
            let s = offload::shared_array!(u32; 4).unwrap();
            s.set(3, 1);
            sync_threads();
            s.set(3, 2);
        });
    })
    .join();
    let message = result.unwrap_err();
    let message = message
        .downcast_ref::<&str>()
        .copied()
        .or(message.downcast_ref::<String>().map(String::as_str))
        .unwrap();
    assert!(message.contains("written in a read phase"), "{message}");
}

#[test]
fn no_static_shared_array_outside_a_launch_grid() {
    assert!(offload::shared_array!(f32; 16).is_none());
}

#[test]
fn static_shared_atomics_count_for_their_team() {
    // 4 teams of 64 threads: each team counts its threads' values into 8
    // shared atomic bins (any thread, any bin, one phase), then its thread
    // of rank 0 checks the team's counts; every team starts from the values
    // its threads stored.
    let (teams, threads) = (4u32, 64u32);
    let wrong = AtomicU32::new(0);
    let totals: Vec<AtomicU64> = (0..8).map(|_| AtomicU64::new(0)).collect();
    run([teams, 1, 1], [threads, 1, 1], 0, || {
        let bins = offload::shared_atomic_array!(offload::atomic::AtomicU32; 8).unwrap();
        assert_eq!(bins.len(), 8);
        for i in bins.own_indices() {
            bins.get(i).store(0, Relaxed);
        }
        sync_threads();
        let me = index::thread_rank();
        // Every thread adds to bins (me % 8) and (me * 3 % 8).
        bins.get(me % 8).fetch_add(1, Relaxed);
        bins.get(me * 3 % 8).fetch_add(1, Relaxed);
        sync_threads();
        if me == 0 {
            let mut expected = [0u32; 8];
            for t in 0..threads as usize {
                expected[t % 8] += 1;
                expected[t * 3 % 8] += 1;
            }
            for (i, want) in expected.iter().enumerate() {
                let got = bins.get(i).load(Relaxed);
                wrong.fetch_add(u32::from(got != *want), Relaxed);
                totals[i].fetch_add(u64::from(got), Relaxed);
            }
        }
        // The next team stores its start values only after this one read.
        sync_threads();
    });
    assert_eq!(wrong.load(Relaxed), 0);
    let sum: u64 = totals.iter().map(|t| t.load(Relaxed)).sum();
    assert_eq!(sum, 2 * u64::from(teams * threads));
}

#[test]
fn no_static_shared_atomics_outside_a_launch_grid() {
    assert!(offload::shared_atomic_array!(offload::atomic::AtomicU64; 4).is_none());
}
