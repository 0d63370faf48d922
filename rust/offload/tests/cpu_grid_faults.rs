//! Faults of the CPU grid end in a clear abort, never a hang or a bare
//! SIGSEGV: meeting points that not every thread reaches (through the
//! `unsafe` unchecked forms), a panic in thread 0 while the team's other
//! threads run, a stack overflow in a started thread; and a kernel with a
//! large stack frame runs in teams of several threads.
//!
//! Each case runs in a child process (this test binary again, with
//! `OFFLOAD_GRID_FAULT` naming the case), since an abort ends the process;
//! the parent checks how the child ended and what it said, and kills a
//! child that hangs.

use std::hint::black_box;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use offload::__private::run_grid;
use offload::{index, sync, sync_threads, warp};
use offload_contract::grid::{Grid, encode};

const CASE: &str = "OFFLOAD_GRID_FAULT";

fn run(name: &'static str, teams: u32, threads: u32, kernel: impl Fn()) {
    let slots = encode(Grid {
        teams: [teams, 1, 1],
        threads: [threads, 1, 1],
        dyn_shared_mem: 0,
    });
    // SAFETY: the closures share only atomics.
    unsafe { run_grid(name, slots, &kernel) };
}

/// The cases, run in the child.
fn child_case(case: &str) {
    match case {
        // `if i < n { warp::reduce_add(..) }` then `sync_threads()`: a team
        // of 40 (a full warp and one of 8 lanes), n = 36.
        "warp-and-team" => run("reduce_then_sync", 1, 40, || {
            let i = index::thread_rank();
            if i < 36 {
                // SAFETY: deliberately broken: lanes 36..40 skip it.
                black_box(unsafe { warp::reduce_add_unchecked(i as u32) });
            }
            sync_threads();
        }),
        // Two barriers at different sites in one episode.
        "two-sites" => run("two_sites", 1, 8, || {
            if index::thread_rank().is_multiple_of(2) {
                // SAFETY: deliberately broken: odd threads meet another.
                unsafe { sync::sync_threads_unchecked() };
            } else {
                // SAFETY: as above.
                unsafe { sync::sync_threads_unchecked() };
            }
        }),
        "panic-in-thread-0" => run("panics", 2, 4, || {
            if index::thread_rank() == 0 {
                panic!("thread 0 gives up");
            }
            sync_threads();
        }),
        // 3 MiB on the stack of every thread of a team of 4.
        "big-frame" => {
            let sum = AtomicU64::new(0);
            run("big_frame", 1, 4, || {
                let mut buffer = [0u8; 3 << 20];
                black_box(&mut buffer);
                buffer[index::thread_rank() as usize] = 1;
                let b = black_box(&buffer);
                sum.fetch_add(b.iter().map(|&x| u64::from(x)).sum(), Relaxed);
            });
            assert_eq!(sum.load(Relaxed), 4);
            println!("big frame: ok");
        }
        "overflow" => run("deep", 1, 4, || {
            if index::thread_rank() == 1 {
                deep();
            }
        }),
        other => panic!("no case {other}"),
    }
}

/// 4 MiB on the stack.
#[inline(never)]
fn deep() {
    let mut buffer = [0u8; 4 << 20];
    black_box(&mut buffer);
}

#[test]
fn child() {
    // Thread 0 of a team is the calling thread: give it a main thread's
    // stack, as libomptarget's calling thread has.
    if let Ok(case) = std::env::var(CASE) {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || child_case(&case))
            .unwrap()
            .join()
            .unwrap();
    }
}

/// Runs `case` in a child process (killed after 60 s: a hang fails).
fn in_child(case: &str, stack: Option<&str>) -> Output {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(CASE, case)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stack {
        Some(bytes) => cmd.env("OFFLOAD_CPU_STACK", bytes),
        None => cmd.env_remove("OFFLOAD_CPU_STACK"),
    };
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("case '{case}' hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn aborted(out: &Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    out.status.signal() == Some(6)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_warp_operation_some_lanes_skip_before_a_barrier_aborts_naming_both_sites() {
    let out = in_child("warp-and-team", None);
    let err = stderr(&out);
    assert!(aborted(&out), "{:?}\n{err}", out.status);
    assert!(err.contains("kernel 'reduce_then_sync'"), "{err}");
    assert!(err.contains("can never all meet"), "{err}");
    assert!(err.contains("cpu_grid_faults.rs:42:"), "{err}");
    assert!(err.contains("cpu_grid_faults.rs:44:"), "{err}");
    assert!(err.contains("the team barrier `sync_threads` at "), "{err}");
    assert!(
        err.contains("a warp operation (shuffle, vote or reduction) at "),
        "{err}"
    );
}

#[test]
fn one_barrier_met_from_two_sites_aborts_naming_both() {
    let out = in_child("two-sites", None);
    let err = stderr(&out);
    assert!(aborted(&out), "{:?}\n{err}", out.status);
    assert!(err.contains("kernel 'two_sites'"), "{err}");
    assert!(err.contains("cpu_grid_faults.rs:50:"), "{err}");
    assert!(err.contains("cpu_grid_faults.rs:53:"), "{err}");
}

#[test]
fn a_panic_in_thread_0_aborts_instead_of_unwinding_past_running_threads() {
    let out = in_child("panic-in-thread-0", None);
    let err = stderr(&out);
    assert!(aborted(&out), "{:?}\n{err}", out.status);
    assert!(err.contains("thread 0 gives up"), "{err}");
    assert!(
        err.contains("kernel 'panics' panicked in thread 0"),
        "{err}"
    );
}

#[test]
fn a_kernel_with_a_3_mib_frame_runs_in_a_team_of_4() {
    let out = in_child("big-frame", None);
    let err = stderr(&out);
    assert!(out.status.success(), "{:?}\n{err}", out.status);
    assert!(String::from_utf8_lossy(&out.stdout).contains("big frame: ok"));
}

#[test]
fn a_stack_overflow_in_a_grid_thread_names_the_kernel() {
    let out = in_child("overflow", Some("1M"));
    let err = stderr(&out);
    assert!(aborted(&out), "{:?}\n{err}", out.status);
    assert!(
        err.contains("thread 1 of a team of kernel 'deep' has overflowed its stack"),
        "{err}"
    );
    assert!(err.contains("OFFLOAD_CPU_STACK"), "{err}");
}
