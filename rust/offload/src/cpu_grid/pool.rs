//! The persistent workers of the compiled executor: created once per
//! process, one per core (`OFFLOAD_CPU_THREADS` sets how many, the calling
//! thread included), each running one launch's job at a time.
//!
//! A launch hands its job to the idle workers and runs it in the calling
//! thread too; the job takes teams from a shared counter, so teams are
//! handed out dynamically. Workers sleep on a futex between launches. One
//! launch uses the pool at a time: a launch made while another holds it
//! (from another host thread) runs its teams in its calling thread alone.
//! Starting the workers pins the image in memory (`RTLD_NODELETE`): the
//! plugin unloads it at exit, while the workers still live.

use core::ffi::c_void;
use core::ptr::null_mut;
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32};

use super::ffi::{self, PthreadAttrT, PthreadT};

/// A job: `run(data, worker)` in each participating thread (the caller is
/// worker 0).
pub struct Job {
    pub run: unsafe fn(*const c_void, u32),
    pub data: *const c_void,
}

struct Pool {
    /// The job of the current launch (null between launches).
    job: AtomicPtr<Job>,
    /// Bumped to start a job; workers sleep on it.
    epoch: AtomicU32,
    /// Workers still running the current job; the launch sleeps on it.
    running: AtomicU32,
    /// A launch holds the pool.
    busy: AtomicBool,
    /// Pool threads started (the workers but the caller).
    started: AtomicU32,
}

static POOL: Pool = Pool {
    job: AtomicPtr::new(null_mut()),
    epoch: AtomicU32::new(0),
    running: AtomicU32::new(0),
    busy: AtomicBool::new(false),
    started: AtomicU32::new(0),
};

static mut ONCE: i32 = 0;

/// Stack of each worker.
const STACK_BYTES: usize = 8 << 20;

/// How many times a thread polls before it sleeps on a futex: about 0.1
/// ms of `pause` (40-140 cycles each). Waking a sleeping thread costs tens
/// of microseconds on a loaded or virtual machine, a sizeable part of a
/// launch of a millisecond; back-to-back launches find the workers still
/// polling. libomp and libgomp poll far longer (KMP_BLOCKTIME 200 ms,
/// GOMP_SPINCOUNT); this is short enough that an idle process leaves its
/// cores at once.
const SPINS: u32 = 2048;

/// Returns once `word` no longer holds `value`: polls [`SPINS`] times,
/// then sleeps on the futex (woken by `futex_wake_all` after a change).
fn wait_while(word: &AtomicU32, value: u32) -> u32 {
    for _ in 0..SPINS {
        let now = word.load(Acquire);
        if now != value {
            return now;
        }
        core::hint::spin_loop();
    }
    loop {
        let now = word.load(Acquire);
        if now != value {
            return now;
        }
        ffi::futex_wait(word, value);
    }
}

/// The number of workers, the calling thread included: `OFFLOAD_CPU_THREADS`
/// when it is a positive number, else the online processors.
pub fn workers() -> u32 {
    // SAFETY: a NUL-terminated name; the value is read before any other
    // call could change the environment (the host's launch thread).
    let value = unsafe { ffi::getenv(c"OFFLOAD_CPU_THREADS".as_ptr()) };
    if !value.is_null() {
        // SAFETY: getenv's result is a NUL-terminated string.
        let text = unsafe { core::ffi::CStr::from_ptr(value) };
        if let Some(n) = text
            .to_str()
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
        {
            return n.clamp(1, 1024);
        }
    }
    // SAFETY: sysconf has no preconditions.
    let online = unsafe { ffi::sysconf(ffi::SC_NPROCESSORS_ONLN) };
    u32::try_from(online).unwrap_or(1).clamp(1, 1024)
}

/// Keeps the object holding this code (the x86_64 image, which
/// libomptarget loads with `dlopen`) mapped for the life of the process:
/// the workers live as long, and a worker between two jobs may still run
/// its code when the plugin unloads the image at exit.
fn pin_image() {
    let mut info = ffi::DlInfo {
        fname: core::ptr::null(),
        fbase: null_mut(),
        sname: core::ptr::null(),
        saddr: null_mut(),
    };
    // SAFETY: dladdr fills `info` for an address of this object's code.
    let found = unsafe { ffi::dladdr(worker as *const c_void, &mut info) };
    if found != 0 && !info.fname.is_null() {
        // SAFETY: a NUL-terminated path from dladdr; NOLOAD only adds a
        // reference to (and NODELETE pins) the already loaded object.
        unsafe {
            ffi::dlopen(
                info.fname,
                ffi::RTLD_NOW | ffi::RTLD_NOLOAD | ffi::RTLD_NODELETE,
            )
        };
    }
}

extern "C" fn start_workers() {
    pin_image();
    let n = workers().saturating_sub(1);
    let mut attr = PthreadAttrT([0; 64]);
    // SAFETY: initialises `attr`, destroyed below.
    unsafe {
        ffi::pthread_attr_init(&mut attr);
        ffi::pthread_attr_setstacksize(&mut attr, STACK_BYTES);
    }
    for i in 0..n {
        let mut handle: PthreadT = 0;
        let index = (i + 1) as usize as *mut c_void;
        // SAFETY: a valid handle slot and attribute; the worker runs for
        // the life of the process (it is never joined).
        let error = unsafe { ffi::pthread_create(&mut handle, &attr, worker, index) };
        if error != 0 {
            break;
        }
        POOL.started.fetch_add(1, Release);
    }
    // SAFETY: initialised above.
    unsafe { ffi::pthread_attr_destroy(&mut attr) };
}

extern "C" fn worker(index: *mut c_void) -> *mut c_void {
    let index = index as usize as u32;
    let mut seen = 0;
    loop {
        seen = wait_while(&POOL.epoch, seen);
        let job = POOL.job.load(Acquire);
        if !job.is_null() {
            // SAFETY: the launch keeps its job alive until every worker
            // counted itself out below.
            unsafe { ((*job).run)((*job).data, index) };
        }
        if POOL.running.fetch_sub(1, AcqRel) == 1 {
            ffi::futex_wake_all(&POOL.running);
        }
    }
}

/// Runs `job` in the calling thread and every pool worker; returns when
/// all are done. With `want` at most 1, or the pool held by another
/// launch, only in the calling thread.
pub fn run(job: &Job, want: u64) {
    let alone = |job: &Job| {
        // SAFETY: the job's own contract.
        unsafe { (job.run)(job.data, 0) }
    };
    if want <= 1
        || POOL
            .busy
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_err()
    {
        return alone(job);
    }
    // SAFETY: pthread_once runs `start_workers` once, in one thread.
    unsafe { ffi::pthread_once(&raw mut ONCE, start_workers) };
    let workers = POOL.started.load(Acquire);
    if workers == 0 {
        POOL.busy.store(false, Release);
        return alone(job);
    }
    POOL.job.store((job as *const Job).cast_mut(), Release);
    POOL.running.store(workers, Release);
    POOL.epoch.fetch_add(1, Release);
    ffi::futex_wake_all(&POOL.epoch);
    alone(job);
    let mut running = POOL.running.load(Acquire);
    while running != 0 {
        running = wait_while(&POOL.running, running);
    }
    POOL.job.store(null_mut(), Release);
    POOL.busy.store(false, Release);
}
