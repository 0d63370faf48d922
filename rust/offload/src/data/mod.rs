//! Mapped regions (RAII) and device pointers for vendor libraries.
//!
//! A region maps its data when it is created and unmaps it when dropped
//! (copying back first if it is mutable). It holds the borrow, so the host
//! cannot read or write the data while it is mapped except through the
//! region's explicit updates. Launches that get the region as an argument
//! find the data present (libomptarget counts references) and copy nothing.
//! Every mapping is checked against the live ones first ([`live`]): one that
//! would extend a live region's mapping (libomptarget aborts the process) is
//! an error; one that meets the data of a launch still running on other
//! data ranges (launches on overlapping shared borrows, from several
//! threads) waits for that launch, so libomptarget sees the mappings in an
//! order it accepts. A launch passes device addresses without mapping only
//! for regions and device buffers that its own arguments hold.
//!
//! ```no_run
//! # use offload::{kernel, Launch};
//! # #[kernel] pub fn step(x: offload::InOut<'_, [f32]>) {}
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut x = vec![0.0f32; 1024];
//! let mut region = offload::map_mut(&mut x[..])?; // copied to the device once
//! for _ in 0..10 {
//!     step(&Launch::grid(8, 128), &mut region)?; // nothing copied
//! }
//! let host = region.update_host(); // copied back now, read through the region
//! println!("{}", host[0]);
//! drop(region); // copied back again, unmapped
//! println!("{}", x[0]);
//! # Ok(()) }
//! ```

mod buffer_error;
mod device;
mod device_args;
mod device_buffer;
mod device_ptr;
mod live;
mod map_error;
mod region;

pub use buffer_error::{BufferError, BufferProblem};
pub use device::{Device, device_count};
pub use device_args::{DeviceArg, DeviceArgs, device_ptrs};
pub use device_buffer::DeviceBuffer;
pub use device_ptr::DevicePtr;
pub(crate) use live::{Overlap, Ranges, Refusal, direct};
pub use map_error::MapError;
pub use region::{Mapped, MappedMut, map, map_mut, map_out};
