//! The C library calls of the grid runner: pthreads, futexes and memory.
//! The x86_64 image is a shared object loaded into the host process, which
//! has the C library; the host build links it anyway.

use core::ffi::c_void;
use core::sync::atomic::AtomicU32;

/// `pthread_t` on Linux.
pub type PthreadT = u64;
/// `pthread_key_t` on Linux.
pub type PthreadKeyT = u32;

/// Storage for glibc's `pthread_attr_t` (56 bytes on x86_64).
#[repr(C, align(8))]
pub struct PthreadAttrT(pub [u8; 64]);

/// glibc's `struct sigaction` on x86_64.
#[repr(C)]
pub struct SigAction {
    /// `sa_sigaction` (with `SA_SIGINFO`).
    pub handler: usize,
    pub mask: [u64; 16],
    pub flags: i32,
    pub restorer: usize,
}

/// `stack_t`.
#[repr(C)]
pub struct StackT {
    pub sp: *mut c_void,
    pub flags: i32,
    pub size: usize,
}

/// The start of `siginfo_t` up to a fault's address (x86_64).
#[repr(C)]
pub struct SigInfo {
    pub signo: i32,
    pub errno: i32,
    pub code: i32,
    _pad: i32,
    pub address: *mut c_void,
}

pub const SIGBUS: i32 = 7;
pub const SIGSEGV: i32 = 11;
pub const SA_SIGINFO: i32 = 4;
pub const SA_ONSTACK: i32 = 0x0800_0000;
pub const SS_DISABLE: i32 = 2;
pub const RLIMIT_STACK: i32 = 3;

unsafe extern "C" {
    pub fn pthread_self() -> PthreadT;
    pub fn pthread_getattr_np(thread: PthreadT, attr: *mut PthreadAttrT) -> i32;
    pub fn pthread_attr_getstack(
        attr: *const PthreadAttrT,
        addr: *mut *mut c_void,
        size: *mut usize,
    ) -> i32;
    pub fn pthread_attr_getguardsize(attr: *const PthreadAttrT, size: *mut usize) -> i32;
    pub fn sigaction(signal: i32, action: *const SigAction, old: *mut SigAction) -> i32;
    pub fn sigaltstack(stack: *const StackT, old: *mut StackT) -> i32;
    /// `rlimit` is two u64s: the soft and hard limits.
    pub fn getrlimit(resource: i32, rlimit: *mut u64) -> i32;
    pub fn getenv(name: *const core::ffi::c_char) -> *const core::ffi::c_char;
    pub fn pthread_create(
        thread: *mut PthreadT,
        attr: *const PthreadAttrT,
        start: extern "C" fn(*mut c_void) -> *mut c_void,
        arg: *mut c_void,
    ) -> i32;
    pub fn pthread_join(thread: PthreadT, result: *mut *mut c_void) -> i32;
    pub fn pthread_attr_init(attr: *mut PthreadAttrT) -> i32;
    pub fn pthread_attr_setstacksize(attr: *mut PthreadAttrT, size: usize) -> i32;
    pub fn pthread_attr_destroy(attr: *mut PthreadAttrT) -> i32;
    pub fn pthread_once(once: *mut i32, init: extern "C" fn()) -> i32;
    pub fn pthread_key_create(
        key: *mut PthreadKeyT,
        destructor: Option<extern "C" fn(*mut c_void)>,
    ) -> i32;
    pub fn pthread_getspecific(key: PthreadKeyT) -> *mut c_void;
    pub fn pthread_setspecific(key: PthreadKeyT, value: *const c_void) -> i32;
    pub fn calloc(count: usize, size: usize) -> *mut c_void;
    pub fn dladdr(address: *const c_void, info: *mut DlInfo) -> i32;
    pub fn dlopen(file: *const core::ffi::c_char, mode: i32) -> *mut c_void;
    pub fn sysconf(name: i32) -> i64;
    pub fn free(ptr: *mut c_void);
    fn syscall(number: i64, ...) -> i64;
    fn write(fd: i32, buf: *const u8, count: usize) -> isize;
    fn abort() -> !;
}

/// glibc's `Dl_info`.
#[repr(C)]
pub struct DlInfo {
    pub fname: *const core::ffi::c_char,
    pub fbase: *mut c_void,
    pub sname: *const core::ffi::c_char,
    pub saddr: *mut c_void,
}

/// `dlopen` modes on Linux.
pub const RTLD_NOW: i32 = 2;
pub const RTLD_NOLOAD: i32 = 4;
pub const RTLD_NODELETE: i32 = 0x1000;

/// `_SC_NPROCESSORS_ONLN` on Linux.
pub const SC_NPROCESSORS_ONLN: i32 = 84;

/// Writes `message` and a newline to standard error in one write (up to
/// 2 KiB), so that lines of several threads do not interleave.
pub fn write_line(message: core::fmt::Arguments<'_>) {
    struct Buffer {
        bytes: [u8; 2048],
        len: usize,
    }
    impl core::fmt::Write for Buffer {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let n = s.len().min(self.bytes.len() - self.len);
            self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
            self.len += n;
            Ok(())
        }
    }
    let mut buffer = Buffer {
        bytes: [0; 2048],
        len: 0,
    };
    let _ = core::fmt::Write::write_fmt(&mut buffer, format_args!("{message}\n"));
    // SAFETY: writes initialised bytes of the buffer to file descriptor 2.
    unsafe { write(2, buffer.bytes.as_ptr(), buffer.len) };
}

/// Writes `message` to standard error ([`write_line`]) and aborts the
/// process. When several threads abort at once, the first one's message
/// alone is written: the others wait for the abort.
pub fn fatal(message: core::fmt::Arguments<'_>) -> ! {
    static ABORTING: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);
    if ABORTING.swap(true, core::sync::atomic::Ordering::AcqRel) {
        loop {
            let never = AtomicU32::new(0);
            futex_wait(&never, 0);
        }
    }
    write_line(message);
    // SAFETY: the C library's abort.
    unsafe { abort() }
}

const SYS_FUTEX: i64 = 202;
const FUTEX_WAIT_PRIVATE: i64 = 128;
const FUTEX_WAKE_PRIVATE: i64 = 129;

/// Sleeps while `word` holds `expected` (or until a wake-up; callers
/// re-check).
pub fn futex_wait(word: &AtomicU32, expected: u32) {
    // SAFETY: FUTEX_WAIT reads the aligned u32 `word` points at, which
    // lives for the call; a null timeout waits without limit.
    unsafe {
        syscall(
            SYS_FUTEX,
            word.as_ptr(),
            FUTEX_WAIT_PRIVATE,
            expected,
            core::ptr::null::<c_void>(),
        );
    }
}

/// Wakes every thread sleeping on `word`.
pub fn futex_wake_all(word: &AtomicU32) {
    #[cfg(test)]
    counters::WAKES.with(|n| n.set(n.get() + 1));
    // SAFETY: FUTEX_WAKE only uses `word`'s address as a key.
    unsafe {
        syscall(SYS_FUTEX, word.as_ptr(), FUTEX_WAKE_PRIVATE, i32::MAX);
    }
}

/// `count` zeroed `T`s from the C heap, freed on drop.
pub struct CArray<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> CArray<T> {
    /// `count` zeroed `T`s (none allocated for 0: the pointer is then a
    /// dangling one, never null, aligned as `calloc`'s); `T` must be valid
    /// as all-zero bytes.
    ///
    /// # Safety
    /// All-zero bytes are a valid `T`.
    pub unsafe fn zeroed(count: usize) -> Self {
        if count == 0 {
            // Nothing to allocate: a launch that needs no such array costs
            // no heap call. The address is aligned as `calloc`'s are.
            let ptr = core::ptr::without_provenance_mut(align_of::<T>().max(EMPTY_ALIGN));
            return CArray { ptr, len: 0 };
        }
        #[cfg(test)]
        counters::ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: calloc with a non-zero count; its memory is aligned for
        // any fundamental type (16 bytes on x86_64).
        let ptr = unsafe { calloc(count, size_of::<T>().max(1)) }.cast::<T>();
        if ptr.is_null() {
            panic!(
                "offload: out of memory for the launch grid ({count} x {} bytes)",
                size_of::<T>()
            );
        }
        CArray { ptr, len: count }
    }

    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `len` zeroed (valid, by `zeroed`'s contract) `T`s.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T> Drop for CArray<T> {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: allocated by calloc, freed once.
            unsafe { free(self.ptr.cast()) }
        }
    }
}

/// The alignment of `calloc`'s memory on x86_64 (what the dynamic shared
/// memory promises), also of an empty array's address.
const EMPTY_ALIGN: usize = 16;

/// What the grid runner asked of the C library on this thread (tests of
/// the single-thread path count that it asks for nothing).
#[cfg(test)]
pub mod counters {
    use std::cell::Cell;

    std::thread_local! {
        /// Arrays allocated.
        pub static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
        /// Futex wake-ups.
        pub static WAKES: Cell<u64> = const { Cell::new(0) };
    }
}
