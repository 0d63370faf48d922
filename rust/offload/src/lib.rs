//! Typed GPU offloading on stable Rust 1.95, through libomptarget and the
//! `offload-passes` LLVM plugin.
//!
//! A kernel is an ordinary Rust function in a `#![no_std]` *kernel crate*,
//! marked [`#[kernel]`](macro@kernel). The same definition gives
//! - the **device** a kernel entry point (when [`offload-build`] builds the
//!   crate into the device image, with this crate's `device` feature), and
//! - the **host** a typed launcher of the same name and path, whose first
//!   argument is the [`Launch`] (grid, dynamic shared memory, device):
//!
//! ```
//! use offload::{kernel, Out};
//!
//! /// `y[i] = a * x[i]`, one element per grid-stride step.
//! #[kernel]
//! pub fn scale(a: f32, x: &[f32], mut y: Out<'_, [f32]>) {
//!     for i in offload::grid_stride(x.len()) {
//!         y.set(i, a * x[i]);
//!     }
//! }
//!
//! // On the host (this doc test is a host build), `scale` launches the kernel:
//! fn run(x: &[f32], y: &mut [f32]) -> Result<(), offload::LaunchError> {
//!     scale(&offload::Launch::grid(64, 256), 2.0, x, y)
//! }
//! ```
//!
//! Map types come from the Rust types of the parameters: `&T`/`&[T]` are
//! copied to the device (TO), `&mut T`/`&mut [T]` to and back (TO|FROM),
//! [`Out`] only back (FROM: the kernel may only write it), scalars are passed
//! by value (LITERAL), a `#[repr(C)]` [`DeviceCopy`] struct by value is copied
//! to the device, slice lengths are taken at run time. Raw pointers only go
//! through [`RawIn`], [`RawOut`] and [`RawInOut`], which state the length and
//! the direction. Any other parameter type is a compile error at that
//! parameter.
//!
//! Inside kernels, [`grid_stride`] and the ids in [`index`] are portable
//! between libomptarget's host (CPU) plugin, where a kernel runs as one team
//! of one thread, and `amdgcn-amd-amdhsa` / `nvptx64-nvidia-cuda`.
//!
//! On the host, [`map`], [`map_mut`] and [`map_out`] create RAII mapped
//! regions ([`Mapped`], [`MappedMut`]): launches inside find the data present
//! and copy nothing, and [`device_ptrs`] hands device pointers to a host
//! closure (a vendor library such as cuBLAS or rocBLAS).
//!
//! How a program is built (the device image, the launch stubs, linking
//! libomptarget) is described in the [`offload-build`] crate.
//!
//! [`offload-build`]: https://docs.rs/offload-build

#![no_std]
// GPU targets only (device builds run with RUSTC_BOOTSTRAP=1 for
// -Zbuild-std): the targets' intrinsics are unstable library features.
#![cfg_attr(
    target_arch = "amdgpu",
    feature(stdarch_amdgpu, gpu_intrinsics, core_intrinsics),
    allow(internal_features)
)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(stdarch_nvptx, core_intrinsics),
    allow(internal_features)
)]
#![deny(missing_docs)]

#[cfg(not(feature = "device"))]
extern crate alloc;

mod args;
#[cfg(not(feature = "device"))]
mod data;
pub mod index;
// `Dim3`'s and `LaunchConfig`'s fields are not documented yet.
#[allow(missing_docs)]
mod launch;
#[cfg(feature = "device")]
mod panic_handler;
#[cfg(not(feature = "device"))]
mod runtime;

#[doc(hidden)]
pub mod __private;

pub use args::{DeviceCopy, DeviceData, HostIn, HostMut, Out, RawIn, RawInOut, RawOut};
#[cfg(not(feature = "device"))]
pub use data::{
    Device, DeviceArg, DeviceArgs, DevicePtr, MapError, Mapped, MappedMut, device_ptrs, map,
    map_mut, map_out,
};
pub use index::{GridStride, grid_stride};
pub use launch::{Dim3, Launch, LaunchError, NO_SUCH_DEVICE};

/// Marks a kernel: an ordinary function whose parameters are kernel
/// argument types (see the crate docs) and which returns nothing.
///
/// In the device build it becomes a kernel of the image; in the host build
/// the function of the same name launches it, with a [`Launch`] first:
/// `kernel(&Launch::grid(teams, threads), args...) -> Result<(), LaunchError>`.
/// Its body is still type-checked on the host (errors point at the kernel's
/// source in the normal build).
///
/// `#[kernel(name = "symbol")]` sets the kernel's symbol in the image (by
/// default the function's name; symbols must be unique in the image).
pub use offload_macros::kernel;

/// Derives [`DeviceCopy`] for a `#[repr(C)]` struct whose fields are all
/// `DeviceCopy` (checked at compile time); the struct must also be `Copy`.
pub use offload_macros::DeviceCopy;
