//! Running a step that may take the process down (LLVM's bitcode reader on
//! untrusted bytes can abort or crash on malformed input, in release builds
//! too) in a forked child first, so that the pass sees a crash as an error
//! instead of dying with it.
//!
//! The child is a copy of this process (`fork` without `exec`: the step
//! needs LLVM, and neither `opt` nor `rustc` can be re-run to do it). Before
//! the step it restores the default action of the fatal signals (so LLVM's
//! handlers, inherited from the parent, neither print a crash report nor
//! remove the parent's output files registered with `RemoveFileOnSignal`),
//! sends its stderr to `/dev/null`, writes no core file and may map at most
//! the given number of bytes beyond what it started with; it always ends
//! with `_exit`, never returning into the caller's code. The parent waits at
//! most the given time and kills the child after it.

use std::time::{Duration, Instant};

/// How a step run in a child process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolated {
    /// It returned this value.
    Returned(bool),
    /// It panicked (the child caught the panic).
    Panicked,
    /// A signal ended it (its number).
    Signal(i32),
    /// It called `exit` itself with this status (LLVM's fatal-error handler
    /// does), or the child was reaped elsewhere (`-1`).
    Exited(i32),
    /// It ran past the time limit and was killed.
    TimedOut,
    /// No child could be started (the `errno` of `fork`).
    CannotFork(i32),
}

/// The child's exit codes.
const RETURNED_FALSE: i32 = 0x20;
const RETURNED_TRUE: i32 = 0x21;
const PANICKED: i32 = 0x22;

/// Signals whose handlers the child resets before the step.
const FATAL_SIGNALS: [i32; 7] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
    libc::SIGTRAP,
    libc::SIGSYS,
];

/// Runs `step` in a forked child that may map `memory` more bytes than this
/// process has mapped, for at most `limit`, and reports how it ended;
/// `step` must not need to change this process (whatever it does happens in
/// the copy).
pub fn run_isolated(step: impl FnOnce() -> bool, memory: u64, limit: Duration) -> Isolated {
    // SAFETY: `fork` has no preconditions; in the child (pid 0) only
    // `child` runs, which ends in `_exit` on every path.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Isolated::CannotFork(std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    }
    if pid == 0 {
        child(step, memory);
    }
    wait(pid, limit)
}

/// The child's side: prepare, run the step, exit with its outcome.
fn child(step: impl FnOnce() -> bool, memory: u64) -> ! {
    for signal in FATAL_SIGNALS {
        // SAFETY: restoring a signal's default action is always sound.
        unsafe { libc::signal(signal, libc::SIG_DFL) };
    }
    let no_core = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `no_core` is a valid `rlimit` for the call's duration.
    unsafe { libc::setrlimit(libc::RLIMIT_CORE, &no_core) };
    if let Some(mapped) = mapped_bytes() {
        let cap = mapped.saturating_add(memory);
        let mut address_space = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `address_space` is a valid out pointer, then a valid
        // `rlimit`; lowering the soft limit only (never above the hard one).
        unsafe {
            if libc::getrlimit(libc::RLIMIT_AS, &mut address_space) == 0 {
                address_space.rlim_cur =
                    address_space.rlim_cur.min(cap).min(address_space.rlim_max);
                libc::setrlimit(libc::RLIMIT_AS, &address_space);
            }
        }
    }
    // SAFETY: the path is a NUL-terminated string; `dup2` onto fd 2 with a
    // descriptor this call just opened (or -1, which it refuses) is sound.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if null >= 0 {
            libc::dup2(null, 2);
        }
    }
    let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(step)) {
        Ok(true) => RETURNED_TRUE,
        Ok(false) => RETURNED_FALSE,
        Err(_) => PANICKED,
    };
    // SAFETY: `_exit` ends the child at once, running none of the
    // parent's exit handlers or destructors (they belong to the parent).
    unsafe { libc::_exit(code) }
}

/// The bytes this process has mapped (`/proc/self/statm`'s first field).
fn mapped_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    Some(pages.saturating_mul(4096))
}

/// The parent's side: reap the child, killing it after `limit`.
fn wait(pid: libc::pid_t, limit: Duration) -> Isolated {
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    loop {
        let mut status = 0;
        // SAFETY: `pid` is this process's child; `status` is a valid out
        // pointer.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done == pid {
            return outcome(status);
        }
        if done < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            // Reaped elsewhere (a SIGCHLD handler that waits): unknown end.
            return Isolated::Exited(-1);
        }
        if start.elapsed() >= limit {
            // SAFETY: `pid` is this process's child, not yet reaped; the
            // blocking `waitpid` reaps it after the kill.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            return Isolated::TimedOut;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

fn outcome(status: i32) -> Isolated {
    if libc::WIFSIGNALED(status) {
        return Isolated::Signal(libc::WTERMSIG(status));
    }
    match libc::WEXITSTATUS(status) {
        RETURNED_TRUE => Isolated::Returned(true),
        RETURNED_FALSE => Isolated::Returned(false),
        PANICKED => Isolated::Panicked,
        other => Isolated::Exited(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_how_the_child_ended() {
        let (memory, limit) = (1 << 30, Duration::from_secs(20));
        let run = |step: &dyn Fn() -> bool| run_isolated(step, memory, limit);
        assert_eq!(run(&|| true), Isolated::Returned(true));
        assert_eq!(run(&|| false), Isolated::Returned(false));
        assert_eq!(run(&|| panic!("in the child")), Isolated::Panicked);
        // SAFETY: raising a signal in the child is what is tested.
        let crash = || unsafe { libc::raise(libc::SIGSEGV) == 0 };
        assert_eq!(run(&crash), Isolated::Signal(libc::SIGSEGV));
        // More than the child may map: the allocation fails (Rust aborts);
        // black_box keeps an optimised build from leaving it out.
        let huge = || std::hint::black_box(vec![1u8; 8 << 30]).len() == 7;
        assert_eq!(run(&huge), Isolated::Signal(libc::SIGABRT));
        let hang = || loop {
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(
            run_isolated(hang, memory, Duration::from_millis(200)),
            Isolated::TimedOut
        );
    }
}
