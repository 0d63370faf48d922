//! What `#[kernel]`'s expansion uses; not a public API.
//!
//! - `abi`: the launch contract's records, map types and slots;
//! - `device_entry` (device builds): a kernel entry point's parameters from
//!   its launch slots;
//! - `host_launch`: a host launcher's slots, sizes and stub call.
//!
//! Everything is re-exported here, at the paths the expansion names.

mod abi;
#[cfg(feature = "device")]
mod device_entry;
mod host_launch;

pub use abi::*;
#[cfg(feature = "device")]
pub use device_entry::*;
pub use host_launch::*;
// The x86_64 image's entry points run their grid with it (host builds
// have it too, for tests of the CPU semantics).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
pub use crate::cpu_grid::{__offload_cpu_run_grid as run_grid_entry, run_grid};

/// Compile-time check that write-only data may hold any bytes.
pub const fn assert_any_bit_pattern<T: crate::AnyBitPattern>() {}

/// Compile-time check that an atomic parameter's type is one a kernel may
/// take.
pub const fn assert_device_atomic<T: crate::atomic::DeviceAtomic>() {}

/// Compile-time check that a by-value parameter is a [`Scalar`].
pub const fn assert_scalar<T: Scalar>() {}

/// Picks the device or the host half of a `#[kernel]` expansion, by this
/// crate's `device` feature.
#[cfg(feature = "device")]
#[macro_export]
#[doc(hidden)]
macro_rules! __kernel_item {
    (device { $($device:tt)* } host { $($host:tt)* }) => { $($device)* };
}

/// Picks the device or the host half of a `#[kernel]` expansion, by this
/// crate's `device` feature.
#[cfg(not(feature = "device"))]
#[macro_export]
#[doc(hidden)]
macro_rules! __kernel_item {
    (device { $($device:tt)* } host { $($host:tt)* }) => { $($host)* };
}
