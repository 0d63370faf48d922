//! Kernel argument types: what may cross to the device, and how.

mod any_bit_pattern;
mod device_copy;
mod device_data;
mod host;
mod out;
mod raw;

pub use any_bit_pattern::AnyBitPattern;
pub use device_copy::DeviceCopy;
pub use device_data::DeviceData;
pub use host::{HostIn, HostMut};
pub use out::Out;
pub use raw::{RawIn, RawInOut, RawOut};
