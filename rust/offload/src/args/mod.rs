//! Kernel argument types: what may cross to the device, and how.

mod device_copy;
mod device_data;
mod host;
mod out;
mod raw;

pub use device_copy::DeviceCopy;
pub use device_data::DeviceData;
pub use host::{HostIn, HostMut};
pub use out::Out;
pub use raw::{RawIn, RawInOut, RawOut};
