//! The device side's panic handler (kernel crates are `#![no_std]`).
//!
//! On libomptarget's CPU plugin a panicking kernel prints where it panicked
//! (the Rust source location) to standard error and aborts the process (the
//! first of several panicking threads alone prints); on GPUs it traps.

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    // One write, and only the first of several threads panicking at once
    // (the teams run on several workers): the message is never interleaved.
    crate::cpu_grid::fatal(format_args!("offload: kernel panicked: {info}"))
}

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::intrinsics::abort()
}
