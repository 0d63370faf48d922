// The guide to the crates, by concept (rendered as this crate's docs).
#![doc = include_str!("guide/overview.md")]
#![doc = include_str!("guide/kernels.md")]
#![doc = include_str!("guide/toolkit.md")]
#![doc = include_str!("guide/launch.md")]
#![doc = include_str!("guide/build.md")]
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
    feature(stdarch_nvptx, core_intrinsics, link_llvm_intrinsics),
    allow(internal_features)
)]
#![deny(missing_docs)]

#[cfg(not(feature = "device"))]
extern crate alloc;
// Streams run on worker threads of the host.
#[cfg(not(feature = "device"))]
extern crate std;

mod args;
pub mod atomic;
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod cpu_grid;
#[cfg(not(feature = "device"))]
mod data;
pub mod index;
mod launch;
#[cfg(feature = "device")]
mod panic_handler;
#[cfg(not(feature = "device"))]
mod runtime;
pub mod shared;
#[cfg(not(feature = "device"))]
mod streams;
pub mod sync;
pub mod warp;

#[doc(hidden)]
pub mod __private;

pub use args::partition;
pub use args::{
    AnyBitPattern, DeviceCopy, DeviceData, GridStrideChunksMut, GridStrideMut, HostIn, HostMut,
    InOut, Out, RawIn, RawInOut, RawOut, Unsync,
};
#[cfg(not(feature = "device"))]
pub use data::{
    BufferError, BufferProblem, Device, DeviceArg, DeviceArgs, DeviceBuffer, DevicePtr, MapError,
    Mapped, MappedMut, device_count, device_ptrs, map, map_mut, map_out,
};
pub use index::{GridStride, grid_stride};
pub use launch::{
    Dim3, FEATURE_MISMATCH, FeatureMismatch, LAYOUT_MISMATCH, Launch, LaunchError, LayoutMismatch,
    NO_SUCH_DEVICE, OTHER_DEVICE, OVERLAPPING_RANGE, OtherDevice, TOO_MANY_THREADS,
};
#[cfg(not(feature = "device"))]
pub use streams::{Event, Scope, Stream, StreamError, scope};
pub use sync::sync_threads;

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
/// default the function's name; symbols must be unique in the image, and
/// ASCII: a non-ASCII function name needs an ASCII `name`). A symbol
/// taken by the C library or a runtime (`calloc`, `free`, `memcpy`, `sinf`,
/// `pthread_*`, `omp_*`, `__tgt_*`, ...) is refused at the kernel's name:
/// exported from the image, the kernel would be called in that function's
/// place.
pub use offload_macros::kernel;

/// Derives [`AnyBitPattern`] for a `#[repr(C)]` struct whose fields are all
/// `AnyBitPattern` (checked at compile time); the struct must also be
/// [`DeviceCopy`].
pub use offload_macros::AnyBitPattern;

/// Derives [`DeviceCopy`] for a `#[repr(C)]` struct whose fields are all
/// `DeviceCopy` (checked at compile time); the struct must also be `Copy`.
pub use offload_macros::DeviceCopy;
