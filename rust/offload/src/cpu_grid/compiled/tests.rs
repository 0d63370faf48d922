//! The compiled executor on team bodies written by hand as the
//! `offload-team-loops` pass writes them: steps between meeting points,
//! agreement, warps run one by one, returned threads left out, barriers
//! counted per team, every team run once on the worker pool.

use core::ffi::c_void;
use core::sync::atomic::AtomicU64;
use core::sync::atomic::Ordering::Relaxed;
use std::vec::Vec;

use offload_contract::grid::Grid;

use super::{EXIT, Point, TeamBody, TeamFn, run};
use crate::cpu_grid::Shape;
use crate::index;

/// The kernels' arguments: an output and a scratch array.
struct Env {
    out: Vec<AtomicU64>,
    scratch: Vec<AtomicU64>,
}

fn zeros(n: usize) -> Vec<AtomicU64> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
}

fn launch(teams: u32, threads: u32, body: TeamFn, points: &[Point], warp: bool, env: &Env) {
    let shape = Shape::new(Grid {
        teams: [teams, 1, 1],
        threads: [threads, 1, 1],
        dyn_shared_mem: 0,
    });
    let team = TeamBody {
        body,
        frame_bytes: 8,
        states: points.len() as u32,
        warp_points: u32::from(warp),
        points: points.as_ptr(),
    };
    run(shape, &team, (env as *const Env).cast(), "test");
}

const fn point(kind: u32) -> Point {
    Point {
        site: core::ptr::null(),
        kind,
    }
}

/// The threads of a step: (rank, its `next` entry) for each thread of
/// `begin..end` stopped at `state` (as the pass's team bodies skip the
/// others).
///
/// # Safety
/// `next` holds the team's states.
unsafe fn threads<'a>(
    begin: u32,
    end: u32,
    state: u32,
    next: *mut u32,
) -> impl Iterator<Item = (u32, &'a mut u32)> {
    // SAFETY: the caller's contract; each entry is handed out once.
    (begin..end)
        .map(move |t| (t, unsafe { &mut *next.add(t as usize) }))
        .filter(move |(_, n)| **n == state)
}

/// Each thread stores `team * 1000 + rank` in its scratch slot, meets the
/// team at a barrier, then adds its right neighbour's (and the barrier
/// count) into its output; threads of rank >= 40 return at once.
unsafe extern "C" fn rotate(
    env: *const c_void,
    ctx: *mut u8,
    team_size: u32,
    _slots: *mut u64,
    begin: u32,
    end: u32,
    state: u32,
    next: *mut u32,
) {
    // SAFETY: the test's environment; the frame has 8 bytes per thread.
    let env = unsafe { &*env.cast::<Env>() };
    let frame = ctx.cast::<u64>();
    let team = index::team_id().x;
    let active = team_size.min(40);
    // SAFETY: the executor's state array.
    for (t, n) in unsafe { threads(begin, end, state, next) } {
        let base = (team * team_size) as usize;
        match state {
            0 if t >= 40 => *n = EXIT,
            0 => {
                let mine = u64::from(team * 1000 + t);
                env.scratch[base + t as usize].store(mine, Relaxed);
                // SAFETY: thread t's context slot, live across the barrier.
                unsafe { frame.add(t as usize).write(mine) };
                *n = 1;
            }
            _ => {
                let right = env.scratch[base + ((t + 1) % active) as usize].load(Relaxed);
                // SAFETY: as above.
                let mine = unsafe { frame.add(t as usize).read() };
                let passed = u64::from(crate::sync::barriers_passed());
                env.out[base + t as usize].store(mine + right + 1_000_000 * passed, Relaxed);
                *n = EXIT;
            }
        }
    }
}

#[test]
fn a_barrier_splits_the_team_into_steps_and_every_team_runs_once() {
    let (teams, size) = (7u32, 64u32);
    let env = Env {
        out: zeros((teams * size) as usize),
        scratch: zeros((teams * size) as usize),
    };
    launch(teams, size, rotate, &[point(0), point(1)], false, &env);
    for team in 0..teams {
        for t in 0..size {
            let got = env.out[(team * size + t) as usize].load(Relaxed);
            let expected = if t < 40 {
                let right = (t + 1) % 40;
                u64::from(2 * team * 1000 + t + right) + 1_000_000
            } else {
                0
            };
            assert_eq!(got, expected, "team {team} thread {t}");
        }
    }
}

/// Warp 0 alone exchanges (state 1: the exchange, 3: its release), then
/// every thread meets at the barrier (2): lanes read their neighbour's
/// offer (`lane ^ 1`) in the warp's slots.
unsafe extern "C" fn warp_zero(
    env: *const c_void,
    _ctx: *mut u8,
    _team_size: u32,
    slots: *mut u64,
    begin: u32,
    end: u32,
    state: u32,
    next: *mut u32,
) {
    // SAFETY: the test's environment.
    let env = unsafe { &*env.cast::<Env>() };
    // SAFETY: the executor's state array.
    for (t, n) in unsafe { threads(begin, end, state, next) } {
        match state {
            0 if t < 32 => {
                // SAFETY: the team's lane slots.
                unsafe { slots.add(t as usize).write(u64::from(t) + 100) };
                *n = 1;
            }
            0 | 3 => *n = 2,
            1 => {
                // SAFETY: the warp's offers, as the pass's resume block
                // computes them.
                let offers = unsafe { slots.add((t & !31) as usize) };
                // SAFETY: a lane of the warp.
                let got = unsafe { offers.add(((t % 32) ^ 1) as usize).read() };
                env.out[t as usize].store(got, Relaxed);
                *n = 3;
            }
            _ => {
                let passed = u64::from(crate::sync::barriers_passed());
                env.scratch[t as usize].store(passed, Relaxed);
                *n = EXIT;
            }
        }
    }
}

#[test]
fn a_warp_exchanges_alone_while_the_other_warps_wait_at_the_barrier() {
    let env = Env {
        out: zeros(96),
        scratch: zeros(96),
    };
    let points = [point(0), point(2), point(1), point(3)];
    launch(1, 96, warp_zero, &points, true, &env);
    for t in 0..96u64 {
        let expected = if t < 32 { (t ^ 1) + 100 } else { 0 };
        assert_eq!(env.out[t as usize].load(Relaxed), expected, "lane {t}");
        assert_eq!(
            env.scratch[t as usize].load(Relaxed),
            1,
            "thread {t}: one barrier"
        );
    }
}

/// Threads of rank < 5 stop at point 1, the others at point 2.
unsafe extern "C" fn split_team(
    _env: *const c_void,
    _ctx: *mut u8,
    _team_size: u32,
    _slots: *mut u64,
    begin: u32,
    end: u32,
    state: u32,
    next: *mut u32,
) {
    // SAFETY: the executor's state array.
    for (t, n) in unsafe { threads(begin, end, state, next) } {
        *n = if t < 5 { 1 } else { 2 };
    }
}

#[test]
fn threads_that_meet_at_different_barriers_abort_naming_both() {
    const CHILD: &str = "OFFLOAD_TEST_COMPILED_DISAGREE";
    if std::env::var_os(CHILD).is_some() {
        let env = Env {
            out: zeros(1),
            scratch: zeros(1),
        };
        static FIRST: &core::panic::Location<'static> = core::panic::Location::caller();
        let points = [
            point(0),
            Point {
                site: FIRST,
                kind: 1,
            },
            point(1),
        ];
        launch(1, 8, split_team, &points, false, &env);
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "cpu_grid::compiled::tests::threads_that_meet_at_different_barriers_abort_naming_both",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stderr = std::string::String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("offload: kernel 'test': in team (0, 0, 0), thread 5 reaches the team barrier `sync_threads` at an unknown site while the team's other threads (lanes) met it at ")
            && stderr.contains("compiled/tests.rs"),
        "{stderr}"
    );
}

/// Threads of rank < 5 stop at point 1, the others at point 2, two copies
/// of one barrier (one site); each resumes from its own.
unsafe extern "C" fn copies(
    env: *const c_void,
    _ctx: *mut u8,
    _team_size: u32,
    _slots: *mut u64,
    begin: u32,
    end: u32,
    state: u32,
    next: *mut u32,
) {
    // SAFETY: the test's environment.
    let env = unsafe { &*env.cast::<Env>() };
    // SAFETY: the executor's state array.
    for (t, n) in unsafe { threads(begin, end, state, next) } {
        if state == 0 {
            *n = if t < 5 { 1 } else { 2 };
        } else {
            let passed = u64::from(crate::sync::barriers_passed());
            env.out[t as usize].store(u64::from(state) * 10 + passed, Relaxed);
            *n = EXIT;
        }
    }
}

#[test]
fn copies_of_one_barrier_are_one_meeting_point() {
    static SITE: &core::panic::Location<'static> = core::panic::Location::caller();
    let env = Env {
        out: zeros(8),
        scratch: zeros(8),
    };
    let barrier = Point {
        site: SITE,
        kind: 1,
    };
    let copy = Point {
        site: SITE,
        kind: 1,
    };
    launch(1, 8, copies, &[point(0), barrier, copy], false, &env);
    for t in 0..8 {
        let expected = if t < 5 { 11 } else { 21 };
        assert_eq!(env.out[t].load(Relaxed), expected, "thread {t}");
    }
}
