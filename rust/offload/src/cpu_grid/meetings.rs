//! The meeting points of one team: who is alive, who waits where, and the
//! checks that turn a mismatch into an abort naming the kernel and the
//! sites instead of a hang.
//!
//! Every arrival at the team barrier or a warp's exchange, and every
//! thread's leaving of the kernel, takes the team's lock, so the counts
//! are exact: when every thread of the team that has not returned waits at
//! a meeting point and none of them can complete (they wait at different
//! ones: a team barrier and a warp's exchange, or barriers of different
//! warps), the last of them to arrive aborts, naming two of the sites. An
//! episode of one meeting point whose threads arrive from two source sites
//! aborts at the second site. This is the contract of the `unsafe`
//! unchecked forms (`sync_threads_unchecked`, `warp::*_unchecked`): every
//! thread of the team (lane of the warp) that has not returned reaches the
//! same call site, in the same order.

use core::panic::Location;
use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use core::sync::atomic::{AtomicPtr, AtomicU8, AtomicU32};

use super::barrier::{Arrival, Barrier};
use super::ffi::{self, CArray, futex_wait, futex_wake_all};

/// Which kind of meeting point a thread waits at.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    None = 0,
    Team = 1,
    Warp = 2,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Team => "the team barrier `sync_threads`",
            Kind::Warp => "a warp operation (shuffle, vote or reduction)",
            Kind::None => "nothing",
        }
    }

    fn from_u8(v: u8) -> Kind {
        match v {
            1 => Kind::Team,
            2 => Kind::Warp,
            _ => Kind::None,
        }
    }
}

/// The bookkeeping of the team's meeting points. All-zero bytes (with
/// empty arrays) are valid.
pub struct Meetings {
    /// The kernel's name, for messages.
    name: &'static str,
    /// 0 unlocked, 1 locked, 2 locked with sleepers.
    lock: AtomicU32,
    /// Threads of the team still in the kernel.
    alive: AtomicU32,
    /// Threads waiting at a meeting point that has not completed.
    waiting: AtomicU32,
    /// Per thread (by rank): the site and kind it waits at.
    sites: CArray<AtomicPtr<Location<'static>>>,
    kinds: CArray<AtomicU8>,
}

/// The lock, held: released on drop.
struct Held<'a>(&'a AtomicU32);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if self.0.swap(0, Release) == 2 {
            futex_wake_all(self.0);
        }
    }
}

impl Meetings {
    /// For a team of `team_size` threads (no arrays for one thread: it
    /// never waits).
    pub fn new(name: &'static str, team_size: u32) -> Self {
        let n = if team_size > 1 { team_size as usize } else { 0 };
        Meetings {
            name,
            lock: AtomicU32::new(0),
            alive: AtomicU32::new(team_size),
            waiting: AtomicU32::new(0),
            // SAFETY: all-zero bytes are null pointers and valid atomics.
            sites: unsafe { CArray::zeroed(n) },
            // SAFETY: as above.
            kinds: unsafe { CArray::zeroed(n) },
        }
    }

    /// The kernel's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// A new team: every thread alive, none waiting.
    pub fn reset(&self, team_size: u32) {
        self.alive.store(team_size, Relaxed);
        self.waiting.store(0, Relaxed);
    }

    fn lock(&self) -> Held<'_> {
        if self.lock.compare_exchange(0, 1, Acquire, Relaxed).is_err() {
            while self.lock.swap(2, Acquire) != 0 {
                futex_wait(&self.lock, 2);
            }
        }
        Held(&self.lock)
    }

    /// Thread `rank` (of team `team`) arrives at `barrier`, a meeting point
    /// of `kind`, from `site`, and waits for the episode to complete.
    pub fn wait(
        &self,
        barrier: &Barrier,
        kind: Kind,
        rank: u32,
        team: [u32; 3],
        site: &'static Location<'static>,
    ) {
        let held = self.lock();
        let first = barrier.episode_site(site);
        if !core::ptr::eq(first, site) {
            drop(held);
            ffi::fatal(format_args!(
                "offload: kernel '{}': in team ({}, {}, {}), thread {rank} reaches {} at {site} while the \
                 team's other threads (lanes) met it at {first}: {CONTRACT}",
                self.name,
                team[0],
                team[1],
                team[2],
                kind.describe(),
            ));
        }
        match barrier.arrive(false) {
            Arrival::Completed { waiters } => {
                self.waiting.fetch_sub(waiters, Relaxed);
                drop(held);
                barrier.wake(waiters);
            }
            Arrival::Wait { generation } => {
                if let (Some(s), Some(k)) = (
                    self.sites.as_slice().get(rank as usize),
                    self.kinds.as_slice().get(rank as usize),
                ) {
                    s.store((site as *const Location<'static>).cast_mut(), Relaxed);
                    k.store(kind as u8, Relaxed);
                }
                let waiting = self.waiting.fetch_add(1, Relaxed) + 1;
                if waiting >= self.alive.load(Relaxed) {
                    drop(held);
                    self.deadlock(team);
                }
                drop(held);
                barrier.sleep_while(generation);
            }
            Arrival::Left => {}
        }
    }

    /// Thread `rank` leaves the kernel: it drops out of `barriers` (the
    /// team's and its warp's), which may complete them.
    pub fn leave(&self, barriers: [&Barrier; 2], team: [u32; 3]) {
        let held = self.lock();
        let alive = self.alive.fetch_sub(1, Relaxed) - 1;
        let mut wake = [0u32; 2];
        for (i, barrier) in barriers.iter().enumerate() {
            if let Arrival::Completed { waiters } = barrier.arrive(true) {
                self.waiting.fetch_sub(waiters, Relaxed);
                wake[i] = waiters;
            }
        }
        if alive > 0 && self.waiting.load(Relaxed) >= alive {
            drop(held);
            self.deadlock(team);
        }
        drop(held);
        for (barrier, waiters) in barriers.iter().zip(wake) {
            barrier.wake(waiters);
        }
    }

    /// Every thread still in the kernel waits and none can complete: two
    /// of their sites, then abort.
    fn deadlock(&self, team: [u32; 3]) -> ! {
        let waits = || {
            self.sites
                .as_slice()
                .iter()
                .zip(self.kinds.as_slice())
                .enumerate()
                .map(|(rank, (s, k))| (rank, s.load(Relaxed), Kind::from_u8(k.load(Relaxed))))
                .filter(|&(_, site, kind)| !site.is_null() && kind != Kind::None)
        };
        let Some((r0, s0, k0)) = waits().next() else {
            ffi::fatal(format_args!(
                "offload: kernel '{}': the team's threads cannot all meet",
                self.name
            ))
        };
        let (r1, s1, k1) = waits()
            .find(|&(_, s, k)| (s, k) != (s0, k0))
            .unwrap_or((r0, s0, k0));
        // SAFETY: only `&'static Location`s are stored.
        let (s0, s1) = unsafe { (&*s0, &*s1) };
        ffi::fatal(format_args!(
            "offload: kernel '{}': the threads of team ({}, {}, {}) wait at different meeting points and \
             can never all meet: thread {r0} at {} at {s0} and thread {r1} at {} at {s1}: {CONTRACT}",
            self.name,
            team[0],
            team[1],
            team[2],
            k0.describe(),
            k1.describe(),
        ))
    }
}

/// The rule every thread broke here.
const CONTRACT: &str = "the threads of a team (lanes of a warp) that have not returned must reach the same \
     barriers and warp operations in order (the `*_unchecked` forms' contract)";
