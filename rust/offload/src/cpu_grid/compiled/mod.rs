//! The compiled executor: a team's threads as loops, one OS thread per
//! team (the plugin's `offload-team-loops` pass compiles a kernel's thread
//! body into a *team body*, see its header for the contract).
//!
//! A team runs in steps. Step `state` calls the team body over a range of
//! threads: each thread stopped at meeting point `state` (0: the kernel's
//! start) runs to the next one it reaches and writes that point's number
//! in `next[t]` (`EXIT` when it returns). The threads must agree: all that
//! have not returned stop at one source point (one kind at one site; the
//! optimiser may have copied a barrier call, and the copies' states are
//! each run in their own call), or the process aborts naming the kernel
//! and both points' sites (a kernel whose threads of a team meet at
//! different barriers is wrong on a GPU too: it hangs or misbehaves there;
//! here it never hangs and never gives a wrong result silently).
//!
//! Warps: when the kernel has warp exchanges, a team runs warp by warp.
//! Each warp runs its steps until its lanes stop at a team barrier or
//! return; warp-level points (exchange, release) are agreed within the
//! warp alone, so `if warp_id == 0 { warp::reduce_add(..) }` works. Once
//! every warp stopped, they must agree on the barrier, which then counts
//! as passed, and all go on. Without warp exchanges the whole team is one
//! range.
//!
//! Threads that returned leave the team: later barriers wait for the
//! others only (as under the thread-per-thread executor).
//!
//! A thread runs its whole step before the next thread of its warp starts
//! its own: a thread that waits for another thread of its team without a
//! barrier (spinning on a flag) waits forever, as it may on a GPU.
//!
//! Memory per team, per worker: the context storage (the team body's
//! `frame_bytes` per thread, at most 64 KiB, so 64 MiB for 1024 threads),
//! 12 bytes per thread of lane slots and states, and the team's shared
//! memory.

use core::ffi::c_void;
use core::panic::Location;
use core::sync::atomic::AtomicU64;
use core::sync::atomic::Ordering::Relaxed;

use offload_contract::grid::CPU_WARP_SIZE;

use super::ffi::{self, CArray};
use super::pool::{self, Job};
use super::{Current, Shape, TeamMemory, Thread, unlinear};
use core::cell::Cell;

#[cfg(test)]
mod tests;

/// `next[t]` of a thread that returned.
const EXIT: u32 = u32::MAX;

/// The most context storage per thread a team body may ask for.
const MAX_FRAME_BYTES: u64 = 64 << 10;

/// `void team_body(env, ctx, team_size, slots, begin, end, state, next)`.
pub type TeamFn =
    unsafe extern "C" fn(*const c_void, *mut u8, u32, *mut u64, u32, u32, u32, *mut u32);

/// What a meeting point is.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
enum Kind {
    Start = 0,
    Barrier = 1,
    Exchange = 2,
    Release = 3,
}

/// One meeting point of a team body (the pass's table).
#[repr(C)]
pub struct Point {
    site: *const Location<'static>,
    kind: u32,
}

/// The pass's descriptor of a compiled team body.
#[repr(C)]
pub struct TeamBody {
    body: TeamFn,
    frame_bytes: u64,
    states: u32,
    warp_points: u32,
    points: *const Point,
}

impl TeamBody {
    fn point(&self, state: u32) -> &Point {
        assert!(
            state < self.states,
            "offload: team body state {state} out of range"
        );
        // SAFETY: the pass's table has `states` points.
        unsafe { &*self.points.add(state as usize) }
    }

    fn kind(&self, state: u32) -> Kind {
        match self.point(state).kind {
            1 => Kind::Barrier,
            2 => Kind::Exchange,
            3 => Kind::Release,
            _ => Kind::Start,
        }
    }

    /// Whether states `a` and `b` are copies of one source point: the same
    /// kind at the same site (sites unknown to the pass count as one).
    fn same_point(&self, a: u32, b: u32) -> bool {
        self.kind(a) == self.kind(b) && self.point(a).site == self.point(b).site
    }

    fn describe(&self, state: u32) -> Site<'_> {
        Site(self.point(state), self.kind(state))
    }
}

struct Site<'a>(&'a Point, Kind);

impl Site<'_> {
    fn what(&self) -> &'static str {
        match self.1 {
            Kind::Start => "the kernel's start",
            Kind::Barrier => "the team barrier `sync_threads`",
            Kind::Exchange | Kind::Release => "a warp operation (shuffle, vote or reduction)",
        }
    }
}

/// The point's source location (`file:line:col`).
impl core::fmt::Display for Site<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // SAFETY: the pass's sites are `Location`s of the kernel's code.
        match unsafe { self.0.site.as_ref() } {
            Some(site) => write!(f, "{site}"),
            None => write!(f, "an unknown site"),
        }
    }
}

/// One launch under the compiled executor.
struct Launch<'a> {
    shape: Shape,
    body: &'a TeamBody,
    env: *const c_void,
    name: &'a str,
    next_team: AtomicU64,
}

/// Runs the grid of `slots` with `body`; `name` names the kernel.
pub fn run(shape: Shape, body: &TeamBody, env: *const c_void, name: &str) {
    let frame = body.frame_bytes.saturating_mul(u64::from(shape.team_size));
    if body.frame_bytes > MAX_FRAME_BYTES {
        ffi::fatal(format_args!(
            "offload: kernel '{name}': its compiled team body asks for {} bytes per thread of context storage ({frame} for a team): at most {MAX_FRAME_BYTES} per thread",
            body.frame_bytes
        ));
    }
    if super::info() {
        report(&shape, body, name);
    }
    let launch = Launch {
        shape,
        body,
        env,
        name,
        next_team: AtomicU64::new(0),
    };
    let job = Job {
        run: run_worker,
        data: (&raw const launch).cast(),
    };
    pool::run(&job, launch.shape.team_count());
}

/// The `OFFLOAD_CPU_GRID_INFO` line of a launch under the compiled
/// executor: the teams, the workers, and the memory each worker takes for
/// its team (what `Storage::new` allocates, and the team's dynamic shared
/// memory; static shared arrays come on first use).
fn report(shape: &Shape, body: &TeamBody, name: &str) {
    let size = u64::from(shape.team_size);
    let [x, y, z] = shape.teams;
    let workers = u64::from(pool::workers()).min(shape.team_count()).max(1);
    ffi::write_line(format_args!(
        "offload: kernel '{name}': compiled team body, {x}x{y}x{z} teams of {size} threads on up to {workers} worker(s); per worker: {} bytes of context storage ({} per thread), {} bytes of lane slots and states, {} bytes of dynamic shared memory",
        body.frame_bytes.saturating_mul(size),
        body.frame_bytes,
        size * LANE_BYTES,
        shape.dyn_shared_bytes
    ));
}

/// A worker's part of a launch: teams from the shared counter until none
/// is left.
///
/// # Safety
/// `data` is a live `Launch`.
unsafe fn run_worker(data: *const c_void, _worker: u32) {
    // SAFETY: the caller's contract.
    let launch = unsafe { &*data.cast::<Launch<'_>>() };
    let count = launch.shape.team_count();
    let mut team = launch.next_team.fetch_add(1, Relaxed);
    if team >= count {
        return;
    }
    let mut storage = Storage::new(launch);
    let record = Thread {
        shape: launch.shape,
        dyn_shared: storage.memory.dyn_shared.as_ptr(),
        dyn_shared_bytes: storage.memory.dyn_shared_bytes,
        memory: &storage.memory,
        launch: core::ptr::null(),
        team: Cell::new(unlinear(0, launch.shape.teams)),
        rank: 0,
        barriers: Cell::new(0),
        site: Cell::new(None),
    };
    let _current = Current::enter(&record);
    while team < count {
        record.team.set(unlinear(team, launch.shape.teams));
        record.barriers.set(0);
        storage.memory.shared_element_size.store(0, Relaxed);
        storage.run_team(launch, &record, team);
        team = launch.next_team.fetch_add(1, Relaxed);
    }
}

/// A thread's lane slot and state in a worker's [`Storage`].
const LANE_BYTES: u64 = (size_of::<u64>() + size_of::<u32>()) as u64;

/// A worker's memory for its teams.
struct Storage {
    memory: TeamMemory,
    frame: CArray<u8>,
    slots: CArray<u64>,
    next: CArray<u32>,
}

impl Storage {
    fn new(launch: &Launch<'_>) -> Self {
        let size = launch.shape.team_size as usize;
        // SAFETY: all-zero bytes are valid bytes, integers.
        unsafe {
            Storage {
                memory: TeamMemory::new(launch.shape.dyn_shared_bytes),
                frame: CArray::zeroed((launch.body.frame_bytes as usize) * size),
                slots: CArray::zeroed(size),
                next: CArray::zeroed(size),
            }
        }
    }

    fn run_team(&mut self, launch: &Launch<'_>, record: &Thread, team: u64) {
        let size = launch.shape.team_size;
        for n in self.next_mut() {
            *n = 0;
        }
        let warps = if launch.body.warp_points != 0 {
            size.div_ceil(CPU_WARP_SIZE)
        } else {
            1
        };
        let width = if warps == 1 { size } else { CPU_WARP_SIZE };
        let mut release = false;
        loop {
            // Each warp runs until its threads stop at a team barrier or
            // return; then the whole team must be at one barrier (a team
            // that is one warp is, by its warp's last survey).
            let mut alive = false;
            for w in 0..warps {
                let (begin, end) = (w * width, ((w + 1) * width).min(size));
                alive |= self.run_warp(launch, team, begin, end, release);
            }
            if warps > 1 {
                let mut states = [EXIT; 8];
                alive = self.survey(launch, team, 0, size, &mut states).is_some();
            }
            if !alive {
                return;
            }
            record.barriers.set(record.barriers.get().wrapping_add(1));
            release = true;
        }
    }

    /// Runs threads `begin..end` until they all stopped at a team barrier
    /// or returned; with `release`, the barrier they stopped at last is
    /// passed first. Whether any stopped at a barrier (`false`: all
    /// returned).
    fn run_warp(
        &mut self,
        launch: &Launch<'_>,
        team: u64,
        begin: u32,
        end: u32,
        mut release: bool,
    ) -> bool {
        let mut states = [EXIT; 8];
        loop {
            let Some((kind, count)) = self.survey(launch, team, begin, end, &mut states) else {
                return false;
            };
            if kind == Kind::Barrier && !release {
                return true;
            }
            release = false;
            // One call per point the threads stopped at (copies of one
            // source point, which the optimiser may have duplicated, are
            // several), each running the threads stopped there.
            for &state in &states[..count] {
                // SAFETY: the pass's team body over this worker's storage,
                // sized for the team (`frame_bytes` per thread, a slot and
                // a state per thread), with the launch's environment.
                unsafe {
                    (launch.body.body)(
                        launch.env,
                        self.frame.as_ptr(),
                        launch.shape.team_size,
                        self.slots.as_ptr(),
                        begin,
                        end,
                        state,
                        self.next.as_ptr(),
                    )
                };
            }
        }
    }

    /// Where threads `begin..end` stopped (`None`: all returned): the
    /// point's kind and, in `out`, up to `out.len()` distinct states (more
    /// wait for the next round), with how many. The usual case, every
    /// thread at one state, takes one pass without early exit (which the
    /// optimiser vectorises); any other takes the full check of
    /// [`Self::meeting`].
    fn survey(
        &self,
        launch: &Launch<'_>,
        team: u64,
        begin: u32,
        end: u32,
        out: &mut [u32; 8],
    ) -> Option<(Kind, usize)> {
        let next = &self.next.as_slice()[begin as usize..end as usize];
        let first = next.iter().position(|&n| n != EXIT)?;
        let state = next[first];
        let one = next[first..]
            .iter()
            .fold(true, |one, &n| one & ((n == state) | (n == EXIT)));
        if one {
            out[0] = state;
            return Some((launch.body.kind(state), 1));
        }
        let kind = self.meeting(launch, team, begin, end)?;
        Some((kind, self.states(begin, end, out)))
    }

    /// Up to `out.len()` distinct states of the threads `begin..end` not
    /// returned (more wait for the next round); how many.
    fn states(&self, begin: u32, end: u32, out: &mut [u32]) -> usize {
        let mut count = 0;
        for &n in &self.next.as_slice()[begin as usize..end as usize] {
            if n != EXIT && !out[..count].contains(&n) && count < out.len() {
                out[count] = n;
                count += 1;
            }
        }
        count
    }

    /// The kind of point threads `begin..end` stopped at (`None`: all
    /// returned). They must agree: one kind, one source site (several
    /// states with one site are copies of one point), or the process
    /// aborts naming both.
    fn meeting(&self, launch: &Launch<'_>, team: u64, begin: u32, end: u32) -> Option<Kind> {
        let next = &self.next.as_slice()[begin as usize..end as usize];
        let mut first: Option<(u32, u32)> = None;
        for (t, &n) in next.iter().enumerate() {
            if n == EXIT {
                continue;
            }
            let rank = begin + t as u32;
            match first {
                None => first = Some((rank, n)),
                Some((_, m)) if m == n || launch.body.same_point(m, n) => {}
                Some(a) => disagree(launch, team, a, (rank, n)),
            }
        }
        first.map(|(_, n)| launch.body.kind(n))
    }

    fn next_mut(&mut self) -> &mut [u32] {
        let len = self.next.as_slice().len();
        // SAFETY: this worker's own array of `len` integers.
        unsafe { core::slice::from_raw_parts_mut(self.next.as_ptr(), len) }
    }
}

/// Aborts: two threads of a team stopped at different meeting points (in
/// the words of the threads executor's check, `meetings`).
fn disagree(launch: &Launch<'_>, team: u64, a: (u32, u32), b: (u32, u32)) -> ! {
    let id = unlinear(team, launch.shape.teams);
    let (first, other) = (launch.body.describe(a.1), launch.body.describe(b.1));
    ffi::fatal(format_args!(
        "offload: kernel '{}': in team ({}, {}, {}), thread {} reaches {} at {other} while the team's \
         other threads (lanes) met {} at {first}: the threads of a team (lanes of a warp) that have \
         not returned must reach the same barriers and warp operations in order",
        launch.name,
        id[0],
        id[1],
        id[2],
        b.0,
        other.what(),
        if first.1 == other.1 {
            "it"
        } else {
            first.what()
        },
    ))
}
