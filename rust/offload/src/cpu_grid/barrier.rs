//! A counting barrier for the threads of a team, sleeping on a futex.
//!
//! A thread that leaves the kernel *drops* out of its team's barriers
//! ([`Barrier::arrive_and_drop`]), so a kernel that returns early in some
//! threads does not deadlock the others' `sync_threads` (as on NVIDIA GPUs,
//! where exited threads no longer count).

use core::hint::spin_loop;
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use core::sync::atomic::{AtomicU32, AtomicU64};

use super::ffi::{futex_wait, futex_wake_all};

/// All-zero bytes are a valid barrier that expects no thread.
#[derive(Default)]
pub struct Barrier {
    /// Threads arrived (low 32 bits) and expected (high 32 bits).
    state: AtomicU64,
    /// Completed phases; waiters sleep on it.
    generation: AtomicU32,
}

const fn pack(arrived: u32, expected: u32) -> u64 {
    arrived as u64 | (expected as u64) << 32
}

/// Spins before sleeping: a barrier with few threads often completes at once.
const SPINS: u32 = 64;

impl Barrier {
    /// Expects `threads` threads from now; only while no thread uses it.
    pub fn reset(&self, threads: u32) {
        self.state.store(pack(0, threads), Relaxed);
    }

    /// Waits until every expected thread has arrived or dropped out. What
    /// each thread wrote before arriving is visible to every thread after.
    pub fn wait(&self) {
        self.arrive(false);
    }

    /// Leaves: this thread is no longer expected (and does not wait).
    pub fn arrive_and_drop(&self) {
        self.arrive(true);
    }

    fn arrive(&self, drop: bool) {
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
                    self.generation.fetch_add(1, Release);
                    // Only threads that arrived before us can wait for this
                    // phase: a team of one thread makes no system call.
                    let waiters = if drop { arrived } else { arrived - 1 };
                    if waiters > 0 {
                        futex_wake_all(&self.generation);
                    }
                    return;
                }
                Ok(_) if drop => return,
                Ok(_) => return self.sleep_while(generation),
                Err(now) => state = now,
            }
        }
    }

    fn sleep_while(&self, generation: u32) {
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
