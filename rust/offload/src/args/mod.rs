//! Kernel argument types: what may cross to the device, and how.

mod any_bit_pattern;
mod device_copy;
mod device_data;
mod host;
mod in_out;
mod out;
pub mod partition;
mod per_thread;
mod raw;

pub use any_bit_pattern::AnyBitPattern;
pub use device_copy::DeviceCopy;
pub use device_data::DeviceData;
pub use host::{HostIn, HostMut};
pub use in_out::InOut;
pub use out::Out;
pub use per_thread::{GridStrideChunksMut, GridStrideMut, Unsync};
pub use raw::{RawIn, RawInOut, RawOut};
