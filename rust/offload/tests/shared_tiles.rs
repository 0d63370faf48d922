//! Shared tiles (`shared_tile!`) on the CPU grid runner: the CUDA patterns
//! the fixed phases refuse, run by real team threads and checked against
//! plain loops.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use offload::__private::run_grid;
use offload::{index, shared, sync_threads};
use offload_contract::grid::{Grid, encode};

fn run(teams: [u32; 3], threads: [u32; 3], kernel: impl Fn()) {
    run_with(teams, threads, 0, kernel);
}

fn run_with(teams: [u32; 3], threads: [u32; 3], dyn_shared_mem: u32, kernel: impl Fn()) {
    let slots = encode(Grid {
        teams,
        threads,
        dyn_shared_mem,
    });
    // SAFETY: the closures share only atomics and shared memory.
    unsafe { run_grid("test", slots, &kernel) };
}

/// `steps` of `v[i] = v[i-1] + 2 v[i] + v[i+1]` (0 past the ends) on the
/// CPU.
fn smooth(mut v: Vec<u32>, steps: usize) -> Vec<u32> {
    for _ in 0..steps {
        let at = |i: usize| v.get(i).copied().unwrap_or(0);
        v = (0..v.len())
            .map(|i| {
                let left = if i > 0 { at(i - 1) } else { 0 };
                left.wrapping_add(2 * at(i)).wrapping_add(at(i + 1))
            })
            .collect();
    }
    v
}

#[test]
fn a_stencil_reads_one_tile_while_each_thread_writes_its_element_of_another() {
    const N: usize = 64;
    let steps = 9;
    let teams = 3;
    let results: Vec<AtomicU32> = (0..teams * N).map(|_| AtomicU32::new(0)).collect();
    run([teams as u32, 1, 1], [N as u32, 1, 1], || {
        let a = offload::shared_tile!(u32; N).unwrap();
        let b = offload::shared_tile!(u32; N).unwrap();
        let me = index::thread_rank();
        let team = index::team_id().x as usize;
        a.set(me, (team * N + me) as u32 % 7);
        for step in 0..steps {
            sync_threads();
            // One barrier per step, as in CUDA: read neighbours of one
            // tile, write this thread's element of the other.
            let (from, to) = if step % 2 == 0 { (&a, &b) } else { (&b, &a) };
            let left = if me > 0 { from.get(me - 1) } else { 0 };
            let right = if me + 1 < N { from.get(me + 1) } else { 0 };
            to.set(me, left.wrapping_add(2 * from.get(me)).wrapping_add(right));
        }
        let last = if steps % 2 == 1 { &b } else { &a };
        results[team * N + me].store(last.get(me), Relaxed);
    });
    for team in 0..teams {
        let start = (0..N).map(|i| (team * N + i) as u32 % 7).collect();
        let got: Vec<u32> = results[team * N..][..N]
            .iter()
            .map(|v| v.load(Relaxed))
            .collect();
        assert_eq!(got, smooth(start, steps), "team {team}");
    }
}

/// The score matrix of two sequences, `(n+1) x (n+1)` row by row:
/// `s[i][j] = max(s[i-1][j-1] + (a[i-1] == b[j-1] ? 2 : -1), s[i-1][j] - 1,
/// s[i][j-1] - 1)` from borders of `-i` and `-j`.
fn scores(a: &[u8], b: &[u8]) -> Vec<i32> {
    let n = a.len();
    let w = n + 1;
    let mut s = vec![0; w * w];
    for k in 0..w {
        s[k] = -(k as i32);
        s[k * w] = -(k as i32);
    }
    for i in 1..w {
        for j in 1..w {
            let hit = if a[i - 1] == b[j - 1] { 2 } else { -1 };
            s[i * w + j] = (s[(i - 1) * w + j - 1] + hit)
                .max(s[(i - 1) * w + j] - 1)
                .max(s[i * w + j - 1] - 1);
        }
    }
    s
}

#[test]
fn a_wavefront_writes_one_cell_of_its_diagonal_per_step() {
    const N: usize = 24;
    const W: usize = N + 1;
    let a: Vec<u8> = (0..N).map(|i| (i * 7 % 4) as u8).collect();
    let b: Vec<u8> = (0..N).map(|i| (i * 5 % 3) as u8).collect();
    let out: Vec<AtomicU32> = (0..W * W).map(|_| AtomicU32::new(0)).collect();
    run([1, 1, 1], [N as u32, 1, 1], || {
        let s = offload::shared_tile!(i32; W * W).unwrap();
        let t = index::thread_rank();
        for k in (t..W).step_by(N) {
            s.set(k, -(k as i32));
            s.set(k * W, -(k as i32));
        }
        // Step d: thread t computes cell (d - t + 1, t + 1), a cell of
        // anti-diagonal d, from the two diagonals before it.
        for d in 0..2 * N - 1 {
            sync_threads();
            let (i, j) = ((d + 1).wrapping_sub(t), t + 1);
            if (1..W).contains(&i) {
                let hit = if a[i - 1] == b[j - 1] { 2 } else { -1 };
                let v = (s.get((i - 1) * W + j - 1) + hit)
                    .max(s.get((i - 1) * W + j) - 1)
                    .max(s.get(i * W + j - 1) - 1);
                s.set(i * W + j, v);
            }
        }
        s.freeze();
        sync_threads();
        for k in (t..W * W).step_by(N) {
            out[k].store(s.get(k) as u32, Relaxed);
        }
    });
    let got: Vec<i32> = out.iter().map(|v| v.load(Relaxed) as i32).collect();
    assert_eq!(got, scores(&a, &b));
}

#[test]
fn a_frozen_table_is_read_by_every_thread_in_every_later_interval() {
    const N: usize = 16;
    let wrong = AtomicU32::new(0);
    run([2, 1, 1], [N as u32, 1, 1], || {
        let table = offload::shared_tile!(u32; 256).unwrap();
        let team = index::team_id().x;
        for i in table.own_indices() {
            table.set(i, i as u32 * 3 + team);
        }
        table.freeze();
        for round in 0..4 {
            sync_threads();
            let me = index::thread_rank();
            for k in 0..256 {
                let i = (k + me * 17 + round) % 256;
                if table.get(i) != i as u32 * 3 + team {
                    wrong.fetch_add(1, Relaxed);
                }
            }
        }
    });
    assert_eq!(wrong.load(Relaxed), 0);
}

fn panic_of(kernel: impl Fn() + Send + 'static) -> String {
    let message = std::thread::spawn(move || run([1, 1, 1], [1, 1, 1], kernel))
        .join()
        .unwrap_err();
    message
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or(message.downcast_ref::<String>().cloned())
        .unwrap()
}

#[test]
fn a_write_after_a_freeze_panics_from_the_next_barrier() {
    let message = panic_of(|| {
        let t = offload::shared_tile!(u32; 4).unwrap();
        t.set(0, 1);
        t.freeze();
        // Still the interval of the freeze: checked as before.
        t.set(1, 2);
        sync_threads();
        assert_eq!(t.get(0) + t.get(1), 3);
        t.set(2, 3);
    });
    assert!(
        message.contains("element 2 written after the tile was frozen"),
        "{message}"
    );
}

#[test]
fn each_team_starts_with_fresh_claims() {
    // Team 0 leaves every element claimed by its thread 1; team 1's thread
    // 0 writes them all in its first interval.
    let done = AtomicU32::new(0);
    run([2, 1, 1], [2, 1, 1], || {
        let t = offload::shared_tile!(u64; 8).unwrap();
        let (team, me) = (index::team_id().x, index::thread_rank());
        if team == 0 && me == 1 || team == 1 && me == 0 {
            for i in 0..8 {
                t.set(i, i as u64);
            }
            done.fetch_add(1, Relaxed);
        }
    });
    assert_eq!(done.load(Relaxed), 2);
}

#[test]
fn no_shared_tile_outside_a_launch_grid() {
    assert!(offload::shared_tile!(f32; 16).is_none());
    assert!(shared::dyn_tile::<f32>(0).is_none());
    assert_eq!(shared::dyn_tile_len::<f32>(), 0);
}

#[test]
fn the_dynamic_shared_memory_is_a_tile_of_the_launch_size() {
    // 3 teams of 32 threads, each with a tile of 100 u32s in 1208 bytes
    // (400 of elements, 800 of records, 8 of header): thread t writes
    // element t + 32 k, then every thread reads its neighbours.
    let n = 100;
    let bytes = 400 + 800 + 8;
    let wrong = AtomicU32::new(0);
    run_with([3, 1, 1], [32, 1, 1], bytes, || {
        assert_eq!(shared::dyn_tile_len::<u32>(), n);
        assert_eq!(shared::dyn_tile_len::<u64>(), (bytes as usize - 8) / 16);
        assert!(shared::dyn_tile::<u32>(n + 1).is_none());
        // A shorter view of the same tile: the same records.
        let (t, short) = (
            shared::dyn_tile::<u32>(n).unwrap(),
            shared::dyn_tile::<u32>(10).unwrap(),
        );
        // One layout per team: not as the fixed phases, nor as u64s.
        assert!(shared::dyn_shared::<u32>(n).is_none());
        assert!(shared::dyn_tile::<u64>(1).is_none());
        let team = index::team_id().x;
        for i in (index::thread_rank()..n).step_by(32) {
            t.set(i, i as u32 + team);
        }
        sync_threads();
        for i in 0..n {
            if t.get(i) != i as u32 + team || i < 10 && short.get(i) != i as u32 + team {
                wrong.fetch_add(1, Relaxed);
            }
        }
    });
    assert_eq!(wrong.load(Relaxed), 0);
}

#[test]
fn a_team_views_its_dynamic_shared_memory_one_way() {
    let both = AtomicU32::new(0);
    run_with([1, 1, 1], [4, 1, 1], 256, || {
        let plain = shared::dyn_shared::<u32>(8).is_some();
        let tile = shared::dyn_tile::<u32>(8).is_some();
        both.fetch_add(u32::from(plain && tile), Relaxed);
        sync_threads();
    });
    assert_eq!(both.load(Relaxed), 0);
}

/// Runs test `name` of this binary in a child process with `OFFLOAD_CHILD`
/// set (a panic in a team of several threads aborts the process) and
/// returns its stderr, after checking that it failed.
fn child_stderr(name: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("OFFLOAD_CHILD", "1")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{name} did not fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn two_threads_writing_one_element_between_two_barriers_panic() {
    if std::env::var_os("OFFLOAD_CHILD").is_some() {
        // Threads 2k and 2k+1 both write element k.
        run([1, 1, 1], [8, 1, 1], || {
            let t = offload::shared_tile!(u32; 4).unwrap();
            let me = index::thread_rank();
            t.set(me / 2, me as u32);
            sync_threads();
        });
        return;
    }
    let stderr = child_stderr("two_threads_writing_one_element_between_two_barriers_panic");
    assert!(
        stderr.contains("offload: shared tile element")
            && stderr.contains("writes it between the same two sync_threads"),
        "{stderr}"
    );
}

#[test]
fn a_read_of_a_neighbour_written_between_the_same_two_barriers_panics() {
    if std::env::var_os("OFFLOAD_CHILD").is_some() {
        // CUDA's racy `s[i] = s[i - 1] + 1` without a barrier in between.
        run([1, 1, 1], [16, 1, 1], || {
            let t = offload::shared_tile!(u32; 16).unwrap();
            let me = index::thread_rank();
            let left = if me > 0 { t.get(me - 1) } else { 0 };
            t.set(me, left + 1);
            sync_threads();
        });
        return;
    }
    let stderr = child_stderr("a_read_of_a_neighbour_written_between_the_same_two_barriers_panics");
    assert!(
        stderr.contains("offload: shared tile element")
            && (stderr.contains("reads it between the same two sync_threads")
                || stderr.contains("writes it between the same two sync_threads")),
        "{stderr}"
    );
}

/// The bytes a launch asks for make exactly `len` elements fit.
#[test]
fn dyn_tile_bytes_fit_len_elements() {
    for n in [1usize, 3, 96, 256, 1024] {
        let bytes = shared::dyn_tile_bytes::<f32>(n).expect("fits u32");
        assert_eq!(bytes as usize, (4 * n).next_multiple_of(8) + 8 * n + 8);
    }
    assert_eq!(shared::dyn_tile_bytes::<u64>(usize::MAX), None);
    // Given to a launch, they hold a tile of exactly that many elements.
    let bytes = shared::dyn_tile_bytes::<u32>(100).expect("fits u32");
    let exact = AtomicU32::new(0);
    run_with([2, 1, 1], [4, 1, 1], bytes, || {
        if shared::dyn_tile_len::<u32>() == 100 && shared::dyn_tile::<u32>(100).is_some() {
            exact.fetch_add(1, Relaxed);
        }
    });
    assert_eq!(exact.load(Relaxed), 8);
}
