//! A counting barrier for the threads of a team, sleeping on a futex.
//!
//! A thread that leaves the kernel *drops* out of its team's barriers
//! ([`Barrier::arrive`] with `drop`), so a kernel that returns early in some
//! threads does not deadlock the others' `sync_threads` (as on NVIDIA GPUs,
//! where exited threads no longer count).
//!
//! The kernel's meeting points (the team barrier, each warp's exchange) are
//! arrived at under the team's lock ([`super::meetings`]), which also checks
//! that one episode's threads come from one source site; the barrier
//! between teams is arrived at without it.

use core::hint::spin_loop;
use core::panic::Location;
use core::ptr::null_mut;
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64};

use super::ffi::{futex_wait, futex_wake_all};

/// All-zero bytes are a valid barrier that expects no thread.
#[derive(Default)]
pub struct Barrier {
    /// Threads arrived (low 32 bits) and expected (high 32 bits).
    state: AtomicU64,
    /// Completed phases; waiters sleep on it.
    generation: AtomicU32,
    /// The source site of the current episode's first arrival (null: none
    /// yet); written only under the team's lock.
    site: AtomicPtr<Location<'static>>,
}

const fn pack(arrived: u32, expected: u32) -> u64 {
    arrived as u64 | (expected as u64) << 32
}

/// Spins before sleeping: a barrier with few threads often completes at once.
const SPINS: u32 = 64;

/// What one arrival did.
pub enum Arrival {
    /// It completed the phase, releasing `waiters` sleeping threads (the
    /// caller wakes them with [`Barrier::wake`]).
    Completed { waiters: u32 },
    /// The phase goes on: the caller sleeps with [`Barrier::sleep_while`]
    /// on `generation`.
    Wait { generation: u32 },
    /// A thread dropped out without completing the phase.
    Left,
}

impl Barrier {
    /// Expects `threads` threads from now; only while no thread uses it.
    pub fn reset(&self, threads: u32) {
        self.state.store(pack(0, threads), Relaxed);
        self.site.store(null_mut(), Relaxed);
    }

    /// Waits until every expected thread has arrived or dropped out. What
    /// each thread wrote before arriving is visible to every thread after.
    pub fn wait(&self) {
        match self.arrive(false) {
            Arrival::Completed { waiters } => self.wake(waiters),
            Arrival::Wait { generation } => self.sleep_while(generation),
            Arrival::Left => {}
        }
    }

    /// The site of the current episode's first arrival, recording `site`
    /// when this is the first; under the team's lock.
    pub fn episode_site(&self, site: &'static Location<'static>) -> &'static Location<'static> {
        let first = self.site.load(Relaxed);
        if first.is_null() {
            self.site
                .store((site as *const Location<'static>).cast_mut(), Relaxed);
            return site;
        }
        // SAFETY: only `&'static Location`s are stored.
        unsafe { &*first }
    }

    /// Arrives (or drops out, with `drop`); a completing arrival starts
    /// the next phase (and episode).
    pub fn arrive(&self, drop: bool) -> Arrival {
        // Read before arriving: the phase cannot complete without us.
        let generation = self.generation.load(Acquire);
        let mut state = self.state.load(Relaxed);
        loop {
            let (arrived, expected) = ((state & 0xffff_ffff) as u32, (state >> 32) as u32);
            let (arrived, expected) = if drop {
                (arrived, expected.saturating_sub(1))
            } else {
                (arrived + 1, expected)
            };
            let complete = arrived >= expected;
            let next = pack(if complete { 0 } else { arrived }, expected);
            match self
                .state
                .compare_exchange_weak(state, next, AcqRel, Relaxed)
            {
                Ok(_) if complete => {
                    self.site.store(null_mut(), Relaxed);
                    self.generation.fetch_add(1, Release);
                    // Only threads that arrived before us can wait for this
                    // phase: a team of one thread makes no system call.
                    let waiters = if drop { arrived } else { arrived - 1 };
                    return Arrival::Completed { waiters };
                }
                Ok(_) if drop => return Arrival::Left,
                Ok(_) => return Arrival::Wait { generation },
                Err(now) => state = now,
            }
        }
    }

    /// Wakes the `waiters` threads a completing arrival released.
    pub fn wake(&self, waiters: u32) {
        if waiters > 0 {
            futex_wake_all(&self.generation);
        }
    }

    /// Sleeps until the phase `generation` is over.
    pub fn sleep_while(&self, generation: u32) {
        let mut spins = 0;
        while self.generation.load(Acquire) == generation {
            if spins < SPINS {
                spins += 1;
                spin_loop();
            } else {
                futex_wait(&self.generation, generation);
            }
        }
    }
}
