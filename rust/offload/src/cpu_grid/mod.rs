//! The x86_64 image's grid runner: GPU semantics on the CPU.
//!
//! libomptarget's host plugin calls a kernel's entry point once, whatever
//! grid the launch asked for; the entry point hands the grid from its hidden
//! slots (offload-contract's `grid`) to [`__offload_cpu_run_grid`], which
//! runs the kernel in **every thread of every team**, with one of two
//! executors (`docs/cpu-grid.md` describes both):
//!
//! - **compiled** ([`compiled`], [`pool`]): the plugin's `offload-team-loops`
//!   pass compiled the kernel's thread body into a team body, loops over
//!   the team's threads between its meeting points; one OS thread runs a
//!   whole team, the teams spread over a persistent worker pool, each
//!   worker with its own shared memory;
//! - **threads** (everything else here): one OS thread (pthread) per thread
//!   of a team (up to 1024), the calling thread being thread 0, each with
//!   its own ids, for kernels the pass refused or under
//!   `OFFLOAD_CPU_GRID=threads`.
//!
//! Under the threads executor:
//!
//! - the teams run **one after another**: the threads run team 0, meet at
//!   the team's end, run team 1, and so on. So the dynamic shared memory is
//!   one allocation per launch, and each static shared array one per
//!   declaration per launch ([`static_shared`]), reused by each team (GPUs
//!   give no order between teams either: a kernel that waits for another
//!   team may hang);
//! - `sync_threads` is a barrier of the team's threads ([`barrier`]); a
//!   thread that returns from the kernel leaves the team's barriers, so early
//!   returns do not deadlock the others;
//! - warps are the team's consecutive groups of
//!   [`CPU_WARP_SIZE`](offload_contract::grid::CPU_WARP_SIZE) threads (by
//!   linear thread id); their shuffles and votes exchange values through
//!   per-thread slots between two warp barriers;
//! - a panic aborts the process (the device panic handler), so no thread
//!   is left waiting for a panicked one; in host-side tests (where panics
//!   unwind) a panic in thread 0 aborts too, rather than unwinding out of
//!   [`run_grid`] while the started threads run;
//! - threads that meet at different barriers or warp operations (possible
//!   only through the `unsafe` unchecked forms: the safe ones are checked
//!   at build time) abort naming the kernel and two of the sites instead of
//!   hanging ([`meetings`]);
//! - each started thread's stack is as large as the main thread's
//!   (`RLIMIT_STACK`, 8 MiB without a limit) or `OFFLOAD_CPU_STACK` bytes
//!   (`64M`, `512K` work), and an overflow aborts with a message naming
//!   the kernel ([`stack`]).
//!
//! A grid dimension of 0 (the runtime chooses) runs as 1. Teams of one
//! thread (`Launch::new()`'s grid) run in the calling thread alone: no
//! thread is started, no barrier is met between teams, and nothing is
//! allocated but what the kernel uses (its dynamic shared memory, static
//! shared arrays), so such a launch costs the kernel's entry a few hundred
//! instructions.

mod barrier;
mod compiled;
mod ffi;
pub(crate) mod hooks;
mod meetings;
mod pool;
mod stack;
mod static_shared;
#[cfg(test)]
mod tests;

use core::cell::Cell;
use core::ffi::c_void;
use core::mem::MaybeUninit;
use core::sync::atomic::Ordering::Relaxed;
use core::sync::atomic::{AtomicU32, AtomicU64};

use offload_contract::grid::{self, CPU_WARP_SIZE, Grid, at_least_one};

use barrier::Barrier;
use ffi::{CArray, PthreadAttrT, PthreadKeyT, PthreadT};
use meetings::{Kind, Meetings};
use static_shared::StaticArrays;

#[cfg(feature = "device")]
pub(crate) use ffi::fatal;

/// Division by a team's dimension without a divide instruction (a thread
/// id from the rank at every index query, in every step of a compiled
/// team): `x / d` is `(x * m) >> 32` with `m = ceil(2^32 / d)`, exactly
/// while `x * d < 2^32` (the error, below `x / 2^32`, stays under `x / d`'s
/// distance `1 / d` to the next integer). Ranks and dimensions are at most
/// [`grid::MAX_THREADS_PER_TEAM`].
#[derive(Clone, Copy)]
struct Reciprocal {
    d: u32,
    m: u64,
}

impl Reciprocal {
    fn new(d: u32) -> Self {
        let d = d.max(1);
        Reciprocal {
            d,
            m: (1u64 << 32).div_ceil(u64::from(d)),
        }
    }

    /// `(x / d, x % d)` for `x <= MAX_THREADS_PER_TEAM`.
    #[inline]
    fn div_rem(self, x: u32) -> (u32, u32) {
        debug_assert!(x <= grid::MAX_THREADS_PER_TEAM);
        let q = ((u64::from(x) * self.m) >> 32) as u32;
        (q, x - q * self.d)
    }
}

/// The launch's grid, as every executor sees it. Ids and counts are
/// `[x, y, z]`, as in offload-contract's `Grid`; `index` makes them the
/// public `Idx3`.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    teams: [u32; 3],
    threads: [u32; 3],
    /// By `threads.x` and `threads.y`: a thread id from its rank.
    per_x: Reciprocal,
    per_y: Reciprocal,
    team_size: u32,
    dyn_shared_bytes: u32,
    /// The threads of the whole grid (teams × team size), never 0: the
    /// step of a grid-stride loop. One field, not a product of six, so
    /// the step is one opaque value the vectorizer can version on (a
    /// run-time check of a step of 1, which `Launch::grid(1, 1)` takes).
    grid_threads: core::num::NonZeroU64,
}

/// A team's shared memory: the dynamic shared memory, the element size its
/// shared views agreed on and its static shared arrays.
pub(crate) struct TeamMemory {
    /// The dynamic shared memory (16-byte aligned).
    dyn_shared: CArray<u8>,
    dyn_shared_bytes: u32,
    /// The element size the team's shared views agreed on (0: none yet).
    shared_element_size: AtomicU32,
    /// The static shared arrays, one per declaration site.
    static_arrays: StaticArrays,
}

impl TeamMemory {
    fn new(dyn_shared_bytes: u32) -> Self {
        TeamMemory {
            // SAFETY: all-zero bytes are valid bytes.
            dyn_shared: unsafe { CArray::zeroed(dyn_shared_bytes as usize) },
            dyn_shared_bytes,
            shared_element_size: AtomicU32::new(0),
            static_arrays: StaticArrays::default(),
        }
    }
}

/// What the threads of one launch share (the thread-per-thread executor).
struct Launch {
    shape: Shape,
    memory: TeamMemory,
    /// `sync_threads`.
    barrier: Barrier,
    /// The end of each team (all threads, before the next team starts).
    team_end: Barrier,
    /// One per warp.
    warp_barriers: CArray<Barrier>,
    /// One per thread: what it offers in a warp exchange.
    warp_slots: CArray<AtomicU64>,
    /// Who is alive and waits where, in the current team ([`meetings`]).
    meetings: Meetings,
}

/// One thread of the grid: its ids and how many team barriers it passed in
/// its current team (the phase of the shared memory, see `shared`). Under
/// the compiled executor ([`compiled`]) one record serves a whole team (its
/// worker's): the team's ids, memory and barrier count, no rank, no
/// barriers of threads.
///
/// Everything a kernel reads at each index query or shared access (the
/// shape, the team, the dynamic shared memory) is a field of the record
/// itself, not behind one of its pointers, and under the compiled executor
/// no field a kernel reads through `__offload_cpu_current` changes during
/// a team (the `__offload_cpu_current` contract in [`hooks`]), so
/// `offload-team-loops` marks those loads invariant and computes them again
/// after a barrier. The barrier count, which changes at every barrier, is
/// read through `__offload_cpu_barriers` instead.
pub(crate) struct Thread {
    shape: Shape,
    /// The team's dynamic shared memory (a copy of `memory`'s).
    dyn_shared: *mut u8,
    dyn_shared_bytes: u32,
    memory: *const TeamMemory,
    /// The thread-per-thread executor's launch; null under the compiled one.
    launch: *const Launch,
    team: Cell<[u32; 3]>,
    /// Its linear id in the team; its thread id follows from it
    /// (`index`), so `hooks::__offload_cpu_thread_rank` is the one
    /// thread-dependent query.
    rank: u32,
    barriers: Cell<u32>,
    /// The meeting point it reached last (the hooks use their site, so the
    /// optimiser keeps each call's site for the compiled executor's
    /// messages).
    site: Cell<Option<hooks::Site>>,
}

/// A grid dimension of 0 (the runtime chooses) runs as 1.
fn dims(d: [u32; 3]) -> [u32; 3] {
    d.map(at_least_one)
}

/// The id of linear index `i` in a box of `n`, x fastest.
fn unlinear(i: u64, n: [u32; 3]) -> [u32; 3] {
    let (nx, ny) = (u64::from(n[0]), u64::from(n[1]));
    [(i % nx) as u32, (i / nx % ny) as u32, (i / nx / ny) as u32]
}

impl Shape {
    fn new(grid: Grid) -> Self {
        let Some(team_size) = grid.team_size() else {
            panic!(
                "offload: a launch grid of {:?} threads per team: at most {} (the launcher refuses it)",
                grid.threads,
                grid::MAX_THREADS_PER_TEAM
            );
        };
        let threads = dims(grid.threads);
        let teams = dims(grid.teams);
        // At most (2^32 - 1)^3 teams of at most 1024 threads: no overflow
        // in 128 bits, and a grid that large saturates (its loops never
        // get that far).
        let total = teams
            .iter()
            .fold(u128::from(team_size), |n, &t| n * u128::from(t));
        let total = u64::try_from(total).unwrap_or(u64::MAX);
        Shape {
            teams,
            threads,
            per_x: Reciprocal::new(threads[0]),
            per_y: Reciprocal::new(threads[1]),
            team_size,
            dyn_shared_bytes: grid.dyn_shared_mem,
            grid_threads: core::num::NonZeroU64::new(total).unwrap_or(core::num::NonZeroU64::MIN),
        }
    }

    fn team_count(&self) -> u64 {
        let t = self.teams;
        u64::from(t[0]) * u64::from(t[1]) * u64::from(t[2])
    }

    /// The threads of the warp starting at rank `base`.
    fn warp_lanes(&self, base: u32) -> u32 {
        (self.team_size - base).min(CPU_WARP_SIZE)
    }
}

impl Launch {
    fn new(name: &'static str, grid: Grid) -> Self {
        let shape = Shape::new(grid);
        let team_size = shape.team_size;
        // A team of one thread exchanges nothing in its warp (see
        // `Thread::warp_offer`): no arrays for it.
        let (warps, lanes) = if team_size > 1 {
            (
                team_size.div_ceil(CPU_WARP_SIZE) as usize,
                team_size as usize,
            )
        } else {
            (0, 0)
        };
        // SAFETY: all-zero bytes are valid barriers.
        let warp_barriers = unsafe { CArray::zeroed(warps) };
        // SAFETY: and valid atomics.
        let warp_slots = unsafe { CArray::zeroed(lanes) };
        let launch = Launch {
            memory: TeamMemory::new(shape.dyn_shared_bytes),
            shape,
            barrier: Barrier::default(),
            team_end: Barrier::default(),
            warp_barriers,
            warp_slots,
            meetings: Meetings::new(name, team_size),
        };
        launch.reset_barriers();
        launch.team_end.reset(team_size);
        launch
    }

    /// Every thread expected again by the team's and the warps' barriers,
    /// and no element size agreed for the shared memory.
    fn reset_barriers(&self) {
        self.memory.shared_element_size.store(0, Relaxed);
        self.meetings.reset(self.shape.team_size);
        self.barrier.reset(self.shape.team_size);
        for (w, barrier) in self.warp_barriers.as_slice().iter().enumerate() {
            barrier.reset(self.shape.warp_lanes(w as u32 * CPU_WARP_SIZE));
        }
    }

    fn thread(&self, rank: u32) -> Thread {
        Thread {
            shape: self.shape,
            dyn_shared: self.memory.dyn_shared.as_ptr(),
            dyn_shared_bytes: self.memory.dyn_shared_bytes,
            memory: &self.memory,
            launch: self,
            team: Cell::new(unlinear(0, self.shape.teams)),
            rank,
            barriers: Cell::new(0),
            site: Cell::new(None),
        }
    }

    /// Runs `kernel` for every team as the thread of rank `rank`.
    fn run_thread<F: Fn()>(&self, rank: u32, kernel: &F) {
        let thread = self.thread(rank);
        let _current = Current::enter(&thread);
        for team in 0..self.shape.team_count() {
            thread.team.set(unlinear(team, self.shape.teams));
            thread.barriers.set(0);
            run_kernel(kernel);
            self.meetings
                .leave([&self.barrier, self.warp_barrier(rank)], thread.team.get());
            self.team_end.wait();
            // Every thread has left the team's barriers: thread 0 resets
            // them before any thread starts the next team.
            if rank == 0 {
                self.reset_barriers();
            }
            self.team_end.wait();
        }
    }

    fn warp_barrier(&self, rank: u32) -> &Barrier {
        &self.warp_barriers.as_slice()[(rank / CPU_WARP_SIZE) as usize]
    }

    /// Runs `kernel` for every team in the calling OS thread, for teams of
    /// one thread: nothing to start, no barrier to meet between teams.
    /// The `OFFLOAD_CPU_GRID_INFO` line of a launch under this executor.
    fn report(&self, name: &str) {
        let shape = &self.shape;
        let [x, y, z] = shape.teams;
        if shape.team_size == 1 {
            ffi::write_line(format_args!(
                "offload: kernel '{name}': {x}x{y}x{z} teams of one thread, in the calling thread, one after another; {} bytes of dynamic shared memory",
                shape.dyn_shared_bytes
            ));
            return;
        }
        ffi::write_line(format_args!(
            "offload: kernel '{name}': one OS thread per GPU thread, {x}x{y}x{z} teams of {} threads one after another; {} bytes of stack per thread, {} bytes of dynamic shared memory",
            shape.team_size,
            stack::thread_stack_bytes(),
            shape.dyn_shared_bytes
        ));
    }

    fn run_alone<F: Fn()>(&self, kernel: &F) {
        let thread = self.thread(0);
        let _current = Current::enter(&thread);
        for team in 0..self.shape.team_count() {
            thread.team.set(unlinear(team, self.shape.teams));
            thread.barriers.set(0);
            self.memory.shared_element_size.store(0, Relaxed);
            run_kernel(kernel);
        }
    }
}

/// One thread's run of the kernel, never inlined: the kernel's code is a
/// function of its own, which the build-time uniformity check
/// (`offload-check-uniform`) checks as the kernel, apart from this
/// executor's own thread-dependent bookkeeping (`run_grid`,
/// `run_team_threads`, `Launch::run_thread`, `Launch::run_alone`, `start`,
/// which it leaves out by name).
#[inline(never)]
fn run_kernel<F: Fn()>(kernel: &F) {
    kernel();
}

/// What a started thread runs.
struct Start<'a, F> {
    launch: &'a Launch,
    rank: u32,
    kernel: &'a F,
    /// Its stack's size (for the overflow message).
    stack: usize,
}

extern "C" fn start<F: Fn()>(arg: *mut c_void) -> *mut c_void {
    // SAFETY: `run_grid` passes a `Start<F>` that outlives the thread (it
    // joins it).
    let start = unsafe { &*arg.cast::<Start<'_, F>>() };
    let mut signal_stack = stack::SignalStack::uninit();
    let guard = stack::Guard::enter(
        start.launch.meetings.name(),
        start.rank,
        start.stack,
        &mut signal_stack,
    );
    guard.arm();
    start.launch.run_thread(start.rank, start.kernel);
    drop(guard);
    core::ptr::null_mut()
}

/// Aborts if dropped: thread 0's run of the kernel unwinding (a panic in a
/// host-side test) must not leave `run_grid` while the started threads
/// still run the launch or wait for thread 0 at its barriers.
struct AbortOnUnwind<'a>(&'a Launch);

impl Drop for AbortOnUnwind<'_> {
    fn drop(&mut self) {
        ffi::fatal(format_args!(
            "offload: kernel '{}' panicked in thread 0 of a team while the team's other threads still run              it; the launch cannot unwind past them: aborting",
            self.0.meetings.name()
        ));
    }
}

/// Runs `kernel` (named `name` in messages) in every thread of every team
/// of the grid in `slots` (the kernel's hidden launch slots), and returns
/// when all are done.
///
/// # Safety
/// `kernel` may run in several threads at once (what it captures is the
/// kernel's launch arguments, which the kernel's own discipline shares).
#[inline(never)]
pub unsafe fn run_grid<F: Fn()>(name: &'static str, slots: [u64; grid::SLOTS], kernel: &F) {
    let launch = Launch::new(name, grid::decode(slots));
    if info() {
        launch.report(name);
    }
    if launch.shape.team_size == 1 {
        launch.run_alone(kernel);
    } else {
        run_team_threads(&launch, kernel);
    }
}

/// The executor `OFFLOAD_CPU_GRID` asks for (read once).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Executor {
    /// Compiled where the pass compiled the kernel, else threads.
    Default = 1,
    /// `threads`: one OS thread per GPU thread for every kernel.
    Threads = 2,
    /// `compiled`: a kernel without a team body aborts (for tests that
    /// must run compiled).
    Compiled = 3,
}

fn executor() -> Executor {
    static CHOICE: AtomicU32 = AtomicU32::new(0);
    match CHOICE.load(Relaxed) {
        1 => Executor::Default,
        2 => Executor::Threads,
        3 => Executor::Compiled,
        _ => {
            let choice = read_env(c"OFFLOAD_CPU_GRID", |value| match value {
                b"threads" => Executor::Threads,
                b"compiled" => Executor::Compiled,
                _ => Executor::Default,
            })
            .unwrap_or(Executor::Default);
            CHOICE.store(choice as u32, Relaxed);
            choice
        }
    }
}

/// Whether `OFFLOAD_CPU_GRID_INFO` is set to anything but nothing or `0`
/// (read once): each launch then writes one line to standard error, which
/// executor runs it and what memory its teams take (the information the
/// compiled executor's context storage needs, as `LIBOMPTARGET_INFO`
/// gives libomptarget's).
pub(crate) fn info() -> bool {
    static INFO: AtomicU32 = AtomicU32::new(0);
    match INFO.load(Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let on =
                read_env(c"OFFLOAD_CPU_GRID_INFO", |v| !v.is_empty() && v != b"0").unwrap_or(false);
            INFO.store(if on { 2 } else { 1 }, Relaxed);
            on
        }
    }
}

/// `read` of the value of the environment variable `name`, if it is set.
fn read_env<R>(name: &core::ffi::CStr, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
    // SAFETY: a NUL-terminated name; getenv's result is null or a
    // NUL-terminated string, read at once.
    unsafe {
        let value = ffi::getenv(name.as_ptr());
        (!value.is_null()).then(|| read(core::ffi::CStr::from_ptr(value).to_bytes()))
    }
}

/// The x86_64 image's kernel entry points call this with the launch's
/// hidden slots, the kernel's arguments (`env`, read-only for the whole
/// launch), its thread body (one thread's call of the kernel) and its
/// compiled team body (null until the plugin's `offload-team-loops` pass
/// stores one; see `cpu_grid::compiled`), and the kernel's name. With a team body
/// (and without `OFFLOAD_CPU_GRID=threads`) the teams run as loops on the
/// worker pool; else one OS thread per thread of a team ([`run_grid`]).
/// `OFFLOAD_CPU_GRID=compiled` aborts for a kernel without a team body.
///
/// A fixed symbol the pass finds by name, never inlined.
///
/// # Safety
/// `slots` points at the hidden slots; `thread(env)` is sound to run in
/// several threads at once; `team` is null or the pass's descriptor of a
/// team body of `thread`; `name[..name_len]` is readable for as long as
/// the image is loaded.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe extern "C" fn __offload_cpu_run_grid(
    slots: *const [u64; grid::SLOTS],
    env: *const c_void,
    thread: unsafe extern "C" fn(*const c_void),
    team: *const compiled::TeamBody,
    name: *const u8,
    name_len: usize,
) {
    // SAFETY: the caller's contract: the slots, and the kernel's name, a
    // string of the image's (static: it lives as long as the image).
    let (slots, name) = unsafe {
        (
            *slots,
            core::slice::from_raw_parts::<'static, u8>(name, name_len),
        )
    };
    let name = core::str::from_utf8(name).unwrap_or("?");
    let grid = grid::decode(slots);
    // One team of one thread: the thread body in the calling thread, as
    // the threads executor runs it (nothing allocated, no pool).
    let single = grid.team_size() == Some(1) && grid.teams.iter().all(|&d| d <= 1);
    // SAFETY: the caller's contract: null or the pass's descriptor.
    let team = unsafe { team.as_ref() };
    match (team, executor()) {
        (Some(team), Executor::Default | Executor::Compiled) if !single => {
            compiled::run(Shape::new(grid), team, env, name)
        }
        (None, Executor::Compiled) if !single => ffi::fatal(format_args!(
            "offload: kernel '{name}' has no compiled team body (OFFLOAD_CPU_GRID=compiled; its image's build says why)"
        )),
        _ => {
            // SAFETY: the caller's contract.
            let kernel = || unsafe { thread(env) };
            // SAFETY: the thread body runs in several threads at once.
            unsafe { run_grid(name, slots, &kernel) }
        }
    }
}

/// Runs `kernel` in the team's threads: the calling OS thread as thread
/// 0 and one started thread per other thread, each for every team.
fn run_team_threads<F: Fn()>(launch: &Launch, kernel: &F) {
    let others = launch.shape.team_size as usize - 1;
    // SAFETY: zeroed thread handles are valid integers.
    let handles: CArray<PthreadT> = unsafe { CArray::zeroed(others) };
    let mut attr = PthreadAttrT([0; 64]);
    let stack = stack::thread_stack_bytes();
    // SAFETY: initialises `attr`, destroyed below.
    unsafe {
        ffi::pthread_attr_init(&mut attr);
        ffi::pthread_attr_setstacksize(&mut attr, stack);
    }
    // SAFETY: uninitialised start records are valid `MaybeUninit`s.
    let records: CArray<MaybeUninit<Start<'_, F>>> = unsafe { CArray::zeroed(others) };
    for i in 0..others {
        let record = Start {
            launch,
            rank: i as u32 + 1,
            kernel,
            stack,
        };
        // SAFETY: record `i`, written once here, stays in place until the
        // threads are joined.
        let arg = unsafe { (*records.as_ptr().add(i)).write(record) };
        let arg = (arg as *mut Start<'_, F>).cast::<c_void>();
        // SAFETY: a valid handle slot, attribute and start record.
        let error = unsafe { ffi::pthread_create(handles.as_ptr().add(i), &attr, start::<F>, arg) };
        if error != 0 {
            // Not a panic: the threads started so far use this frame.
            ffi::fatal(format_args!(
                "offload: could not start thread {} of a team of {} threads (pthread_create: error {error})",
                i + 1,
                launch.shape.team_size
            ));
        }
    }
    let unwinding = AbortOnUnwind(launch);
    launch.run_thread(0, kernel);
    core::mem::forget(unwinding);
    for &handle in handles.as_slice() {
        // SAFETY: a thread started above, joined once.
        unsafe { ffi::pthread_join(handle, core::ptr::null_mut()) };
    }
    // SAFETY: initialised above.
    unsafe { ffi::pthread_attr_destroy(&mut attr) };
}

static mut KEY_ONCE: i32 = 0;
static mut KEY: PthreadKeyT = 0;

extern "C" fn create_key() {
    // SAFETY: runs once (pthread_once), before any read of KEY.
    unsafe { ffi::pthread_key_create(&raw mut KEY, None) };
}

fn key() -> PthreadKeyT {
    // SAFETY: pthread_once runs `create_key` exactly once and orders it
    // before every return; KEY is not written afterwards.
    unsafe {
        ffi::pthread_once(&raw mut KEY_ONCE, create_key);
        KEY
    }
}

/// Makes `thread` this OS thread's grid thread; returns the previous one.
fn set_current(thread: *const Thread) -> *const Thread {
    let key = key();
    // SAFETY: reading and writing this thread's value of a created key.
    unsafe {
        let previous = ffi::pthread_getspecific(key).cast::<Thread>().cast_const();
        ffi::pthread_setspecific(key, thread.cast());
        previous
    }
}

/// The grid thread of this OS thread while it lives, the previous one
/// again after (also when a kernel's panic unwinds, in host tests).
struct Current(*const Thread);

impl Current {
    fn enter(thread: &Thread) -> Self {
        Current(set_current(thread))
    }
}

impl Drop for Current {
    fn drop(&mut self) {
        set_current(self.0);
    }
}

/// This OS thread's grid thread, while it runs a kernel under
/// [`run_grid`]; `None` elsewhere (host code, and single calls).
#[inline]
pub(crate) fn current() -> Option<&'static Thread> {
    // SAFETY: the value is null or a `Thread` on the stack of `run_thread`
    // (or of a compiled team's worker) of this OS thread, which clears it
    // before the `Thread` goes; the reference is only used by this crate's
    // functions during that call.
    unsafe { hooks::__offload_cpu_current().cast::<Thread>().as_ref() }
}

/// The record [`current`] reads (null outside a grid).
fn current_record() -> *const Thread {
    // SAFETY: reading this thread's value of a created key.
    unsafe {
        ffi::pthread_getspecific(key())
            .cast::<Thread>()
            .cast_const()
    }
}

impl Thread {
    #[inline]
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn memory(&self) -> &TeamMemory {
        // SAFETY: the team's memory outlives the team's record.
        unsafe { &*self.memory }
    }

    /// The thread-per-thread executor's launch: meeting points and ranks
    /// exist only there (a compiled team body has none left).
    fn launch(&self) -> &Launch {
        if self.launch.is_null() {
            ffi::fatal(format_args!(
                "offload: a compiled team reached a barrier, warp operation or rank query at run time (the offload-team-loops pass should have replaced it; last meeting point: {:?})",
                self.site.get()
            ));
        }
        // SAFETY: the launch outlives its threads (`run_grid` joins them).
        unsafe { &*self.launch }
    }

    #[inline]
    pub fn team_id(&self) -> [u32; 3] {
        self.team.get()
    }

    #[inline]
    pub fn team_count(&self) -> [u32; 3] {
        self.shape().teams
    }

    #[inline]
    pub fn thread_count(&self) -> [u32; 3] {
        self.shape().threads
    }

    /// The linear id in the whole grid of rank `rank` of this team (teams
    /// before threads, x fastest) and the grid's thread count:
    /// `index::linear_id`'s result from one multiplication, not from the
    /// thread id.
    #[inline]
    pub fn grid_linear_id(&self, rank: u32) -> (usize, usize) {
        let shape = self.shape();
        let [tx, ty, tz] = self.team.get().map(u64::from);
        let [nx, ny, _] = shape.teams.map(u64::from);
        let team = tx + nx * (ty + ny * tz);
        let id = team * u64::from(shape.team_size) + u64::from(rank);
        (id as usize, shape.grid_threads.get() as usize)
    }

    /// The thread id `[x, y, z]` of rank `rank` in this team (x fastest).
    #[inline]
    pub fn thread_id(&self, rank: u32) -> [u32; 3] {
        let shape = self.shape();
        let (xy, x) = shape.per_x.div_rem(rank);
        let (z, y) = shape.per_y.div_rem(xy);
        [x, y, z]
    }

    /// Its linear id in its team (x fastest).
    pub fn rank(&self) -> u32 {
        self.launch();
        self.rank
    }

    /// The team barrier, reached at `site` (see [`hooks`]).
    pub fn sync_threads(&self, site: hooks::Site) {
        self.site.set(Some(site));
        let launch = self.launch();
        launch.meetings.wait(
            &launch.barrier,
            Kind::Team,
            self.rank,
            self.team.get(),
            site,
        );
        self.barriers.set(self.barriers.get().wrapping_add(1));
    }

    /// Where the team barriers this thread passed in its current team are
    /// counted. Kernel code reads the count through
    /// `hooks::__offload_cpu_barriers`, not through the record: it changes
    /// at every barrier, while the record's fields a kernel reads are fixed
    /// for a whole team.
    pub(crate) fn barriers_ptr(&self) -> *const u32 {
        self.barriers.as_ptr().cast_const()
    }

    /// The team's dynamic shared memory: its address and size in bytes.
    pub fn dyn_shared(&self) -> (*mut u8, usize) {
        (self.dyn_shared, self.dyn_shared_bytes as usize)
    }

    /// The team's static shared array of declaration `site` (its
    /// address): `bytes` bytes aligned to `align`.
    pub fn static_shared(&self, site: usize, bytes: usize, align: usize) -> *mut u8 {
        self.memory().static_arrays.get(site, bytes, align)
    }

    /// The element size the team's shared views agreed on (0: none yet).
    pub fn shared_element_size(&self) -> &AtomicU32 {
        &self.memory().shared_element_size
    }

    /// The lanes of this thread's warp (fewer than the warp size in a
    /// team's last, partial warp) and this thread's lane.
    pub fn warp_lanes(&self) -> (u32, u32) {
        let base = self.rank - self.rank % CPU_WARP_SIZE;
        (self.shape().warp_lanes(base), self.rank - base)
    }

    /// The lanes of the warp of the thread of rank `rank` in this team.
    pub fn lanes_of_warp(&self, rank: u32) -> u32 {
        self.shape().warp_lanes(rank - rank % CPU_WARP_SIZE)
    }

    /// Offers `*own` to this warp's threads, waits for all of them, and
    /// returns the warp's offers by lane; [`Thread::warp_release`] must
    /// follow (see [`hooks::__offload_cpu_warp_exchange`]).
    pub fn warp_offer(&self, own: *const u64, site: hooks::Site) -> *const u64 {
        self.site.set(Some(site));
        let launch = self.launch();
        if self.warp_lanes().0 == 1 {
            // A warp of one lane: its own offer, nothing to wait for.
            return own;
        }
        let slots = launch.warp_slots.as_slice();
        let base = (self.rank - self.rank % CPU_WARP_SIZE) as usize;
        // SAFETY: the caller's offer, valid for the call.
        slots[self.rank as usize].store(unsafe { *own }, Relaxed);
        self.warp_wait(site);
        // An `AtomicU64` has the layout of a `u64`; the slots are not
        // written again before every lane passed `warp_release`.
        slots[base..].as_ptr().cast::<u64>()
    }

    /// Waits until every lane of this thread's warp has read the exchange.
    pub fn warp_release(&self, site: hooks::Site) {
        self.site.set(Some(site));
        if self.warp_lanes().0 > 1 {
            self.warp_wait(site);
        }
    }

    fn warp_wait(&self, site: hooks::Site) {
        let launch = self.launch();
        launch.meetings.wait(
            launch.warp_barrier(self.rank),
            Kind::Warp,
            self.rank,
            self.team.get(),
            site,
        );
    }
}
