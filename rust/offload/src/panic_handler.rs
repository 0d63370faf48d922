//! The device side's panic handler (kernel crates are `#![no_std]`).
//!
//! On libomptarget's CPU plugin a panicking kernel prints where it panicked
//! (the Rust source location) to standard error and aborts the process; on
//! GPUs it traps.

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    use core::fmt::Write;

    unsafe extern "C" {
        fn write(fd: i32, buf: *const u8, count: usize) -> isize;
        fn abort() -> !;
    }
    struct Stderr;
    impl Write for Stderr {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            // SAFETY: writes the bytes of a valid string to file descriptor 2.
            unsafe { write(2, s.as_ptr(), s.len()) };
            Ok(())
        }
    }
    let _ = writeln!(Stderr, "offload: kernel panicked: {info}");
    // SAFETY: libc's abort, which the image gets from the process loading it.
    unsafe { abort() }
}

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::intrinsics::abort()
}
