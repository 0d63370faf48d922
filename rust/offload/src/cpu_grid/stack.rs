//! The grid threads' stacks: sized like the main thread's (its `RLIMIT_STACK`)
//! or as `OFFLOAD_CPU_STACK` says, and an overflow reported the way Rust
//! reports one (a message naming the kernel and the thread, then an abort),
//! never a bare SIGSEGV.
//!
//! Each started thread runs on an alternate signal stack; a SIGSEGV or
//! SIGBUS handler, installed once per process, recognises a fault in the
//! guard area just below a grid thread's stack (glibc puts a guard page
//! there; Rust's stack probes touch every page of a large frame, so an
//! overflow faults in it). A fault anywhere else goes to the handler that
//! was installed before (Rust's own, which reports the main thread's
//! overflows), by restoring it and returning to the faulting instruction.

use core::ffi::c_void;
use core::mem::MaybeUninit;
use core::ptr::{null, null_mut};

use super::ffi::{self, PthreadAttrT, PthreadKeyT};

/// The stack when neither `OFFLOAD_CPU_STACK` nor a finite `RLIMIT_STACK`
/// says (glibc's default for threads).
const DEFAULT_BYTES: usize = 8 << 20;
/// The least stack a grid thread gets (the alternate signal stack aside).
const MIN_BYTES: usize = 64 << 10;
/// The alternate signal stack of each grid thread: memory at the top of
/// its own stack (the frame of its start function), far from where an
/// overflow faults, so a launch allocates nothing for it.
pub const SIGNAL_STACK_BYTES: usize = 32 << 10;

/// Memory for an alternate signal stack.
pub type SignalStack = MaybeUninit<[u8; SIGNAL_STACK_BYTES]>;
/// How far below a stack's lowest address a fault counts as an overflow
/// (at least the guard glibc reserves).
const GUARD_REACH: usize = 64 << 10;

/// The environment variable that sets the grid threads' stack size.
pub const STACK_VARIABLE: &str = "OFFLOAD_CPU_STACK";

/// The stack size of each grid thread but thread 0 (the caller's):
/// `OFFLOAD_CPU_STACK` (bytes, or with a `K`, `M` or `G` suffix; ignored
/// when malformed), else the
/// main thread's limit (`getrlimit(RLIMIT_STACK)`), else 8 MiB.
pub fn thread_stack_bytes() -> usize {
    if let Some(bytes) = from_environment() {
        return bytes.max(MIN_BYTES);
    }
    let mut limit = [0u64; 2];
    // SAFETY: getrlimit writes one `struct rlimit` (two u64s).
    let ok = unsafe { ffi::getrlimit(ffi::RLIMIT_STACK, limit.as_mut_ptr()) } == 0;
    if ok && limit[0] != u64::MAX && limit[0] > 0 {
        return (limit[0] as usize).max(MIN_BYTES);
    }
    DEFAULT_BYTES
}

fn from_environment() -> Option<usize> {
    // SAFETY: a NUL-terminated name; getenv returns null or a C string that
    // stays valid while the environment is not changed (read at once).
    let text = unsafe {
        let raw = ffi::getenv(c"OFFLOAD_CPU_STACK".as_ptr());
        if raw.is_null() {
            return None;
        }
        core::ffi::CStr::from_ptr(raw).to_bytes()
    };
    parse_bytes(text)
}

/// `4194304`, `4096K`, `4M`, `1G` (case-insensitive suffixes); `None` for
/// anything else (a small parser: the image carries no `str::parse`).
pub fn parse_bytes(text: &[u8]) -> Option<usize> {
    let (digits, shift) = match text.split_last()? {
        (b'k' | b'K', rest) => (rest, 10),
        (b'm' | b'M', rest) => (rest, 20),
        (b'g' | b'G', rest) => (rest, 30),
        _ => (text, 0),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: usize = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(usize::from(d - b'0'))?;
    }
    n.checked_mul(1 << shift)
}

/// What the fault handler needs to know of a grid thread.
pub struct Guard {
    /// The faults that are this thread's overflow: `[low, high)`.
    low: usize,
    high: usize,
    name: &'static str,
    rank: u32,
    stack: usize,
}

static mut KEY_ONCE: i32 = 0;
static mut KEY: PthreadKeyT = 0;
static mut PREVIOUS: [MaybeUninit<ffi::SigAction>; 2] =
    [MaybeUninit::zeroed(), MaybeUninit::zeroed()];
const SIGNALS: [i32; 2] = [ffi::SIGSEGV, ffi::SIGBUS];

extern "C" fn install() {
    // SAFETY: runs once (pthread_once), before any grid thread reads KEY
    // or a fault reads PREVIOUS.
    unsafe {
        ffi::pthread_key_create(&raw mut KEY, None);
        let mut action: ffi::SigAction = core::mem::zeroed();
        action.handler = on_fault as *const () as usize;
        action.flags = ffi::SA_SIGINFO | ffi::SA_ONSTACK;
        for (i, signal) in SIGNALS.into_iter().enumerate() {
            let previous = (&raw mut PREVIOUS[i]).cast::<ffi::SigAction>();
            ffi::sigaction(signal, &action, previous);
        }
    }
}

fn key() -> PthreadKeyT {
    // SAFETY: pthread_once runs `install` exactly once and orders it before
    // every return; KEY is not written afterwards.
    unsafe {
        ffi::pthread_once(&raw mut KEY_ONCE, install);
        KEY
    }
}

impl Guard {
    /// Sets up the calling grid thread (thread `rank` of kernel `name`):
    /// its alternate signal stack (`signal_stack`, which must outlive the
    /// guard) and the range of its stack's guard.
    pub fn enter(
        name: &'static str,
        rank: u32,
        stack: usize,
        signal_stack: &mut SignalStack,
    ) -> Guard {
        // The handler is installed before any grid thread can fault.
        key();
        // SAFETY: a zeroed attribute filled by pthread_getattr_np for this
        // thread, read, then destroyed; sigaltstack takes a valid stack_t
        // over memory that lives until `drop` disables it.
        unsafe {
            let mut attr = PthreadAttrT([0; 64]);
            let (mut base, mut size, mut guard) = (null_mut::<c_void>(), 0usize, 0usize);
            let known = ffi::pthread_getattr_np(ffi::pthread_self(), &mut attr) == 0;
            if known {
                ffi::pthread_attr_getstack(&attr, &mut base, &mut size);
                ffi::pthread_attr_getguardsize(&attr, &mut guard);
                ffi::pthread_attr_destroy(&mut attr);
            }
            let low = (base as usize).saturating_sub(guard.max(GUARD_REACH));
            let high = if known { base as usize } else { 0 };
            let alt = ffi::StackT {
                sp: signal_stack.as_mut_ptr().cast(),
                flags: 0,
                size: SIGNAL_STACK_BYTES,
            };
            ffi::sigaltstack(&alt, null_mut());
            Guard {
                low,
                high,
                name,
                rank,
                stack,
            }
        }
    }

    /// Makes this guard the one the fault handler consults for this thread
    /// (`self` stays in place until `drop`).
    pub fn arm(&self) {
        // SAFETY: this thread's value of a created key.
        unsafe { ffi::pthread_setspecific(key(), (self as *const Guard).cast()) };
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        // SAFETY: clears this thread's value and disables the alternate
        // stack before its memory goes.
        unsafe {
            ffi::pthread_setspecific(key(), null());
            let off = ffi::StackT {
                sp: null_mut(),
                flags: ffi::SS_DISABLE,
                size: 0,
            };
            ffi::sigaltstack(&off, null_mut());
        }
    }
}

extern "C" fn on_fault(signal: i32, info: *mut ffi::SigInfo, _context: *mut c_void) {
    // SAFETY: the kernel passes a valid siginfo_t; the thread's key value
    // is null or its armed `Guard`, alive while it runs.
    unsafe {
        let address = (*info).address as usize;
        let guard = ffi::pthread_getspecific(KEY).cast::<Guard>();
        if let Some(g) = guard.as_ref()
            && (g.low..g.high).contains(&address)
        {
            ffi::fatal(format_args!(
                "offload: thread {} of a team of kernel '{}' has overflowed its stack ({} bytes; set \
                 {STACK_VARIABLE}, e.g. 64M)",
                g.rank, g.name, g.stack
            ));
        }
        // Not a grid thread's overflow: the handler from before takes it
        // when the instruction faults again.
        let i = if signal == ffi::SIGSEGV { 0 } else { 1 };
        let previous = (&raw const PREVIOUS[i]).cast::<ffi::SigAction>();
        ffi::sigaction(signal, previous, null_mut());
    }
}
