//! One MPI rank per offload device, for programs that outgrow one machine.
//!
//! A cluster job runs one process (rank) per GPU: `srun` or `mpirun` starts
//! the ranks, [`rank_device`] gives each the device of its node-local rank
//! (`local_rank % device_count()`, the local rank from an MPI shared-memory
//! split of the communicator, so it works under any launcher), and an
//! [`Exchange`] sends and receives ranges of [`DeviceBuffer`]s:
//!
//! - **staged** (the default): exactly the range asked for is copied
//!   between the device and host memory, and MPI sends or receives the host
//!   copy;
//! - **device address**: where the MPI library reports GPU support
//!   ([`GpuSupport::query`]: Open MPI's `MPIX_Query_cuda_support` and
//!   `MPIX_Query_rocm_support`, looked up at run time), MPI gets the device
//!   address of the range and moves the data itself (GPUDirect, IPC).
//!
//! [`ExchangePath::select`] is the predicate that picks one; no `unsafe` is
//! needed in the program. [`Exchange::shift`] sends and receives at once
//! (`MPI_Sendrecv`); [`Exchange::overlap`] starts several sends and receives
//! and runs work (a kernel on the interior of a block) while they travel.
//! A rank's error ends the whole job through [`unwrap_or_abort`]
//! (`MPI_Abort`), so no rank waits forever for a failed one. See
//! `docs/multi-node.md` in the repository.
//!
//! ```no_run
//! use mpi::traits::*;
//! use offload_mpi::{Exchange, Incoming, Outgoing, rank_device, unwrap_or_abort};
//!
//! let universe = mpi::initialize().expect("MPI is initialised once");
//! let world = universe.world();
//! let placement = unwrap_or_abort(&world, rank_device(&world));
//! let row = 1024;
//! let mut block = unwrap_or_abort(&world, placement.device.alloc::<f32>(4 * row));
//! let mut halo = unwrap_or_abort(&world, placement.device.alloc::<f32>(row));
//! // Each rank sends its first row to the rank above and receives the
//! // first row of the rank below.
//! let (rank, size) = (world.rank(), world.size());
//! let up = (rank > 0).then(|| world.process_at_rank(rank - 1));
//! let down = (rank + 1 < size).then(|| world.process_at_rank(rank + 1));
//! let exchange = Exchange::new();
//! let sent = up.as_ref().map(|to| Outgoing { to, buffer: &block, range: 0..row });
//! let received = down.as_ref().map(|from| Incoming { from, buffer: &mut halo, range: 0..row });
//! unwrap_or_abort(&world, exchange.shift(sent, received, 0));
//! ```
//!
//! [`DeviceBuffer`]: offload::DeviceBuffer

mod abort;
mod device_range;
mod error;
mod exchange;
mod gpu_support;
mod overlap;
mod placement;

pub use abort::unwrap_or_abort;
pub use error::ExchangeError;
pub use exchange::{Exchange, Incoming, Outgoing};
pub use gpu_support::{ExchangePath, GpuSupport};
pub use overlap::Shift;
pub use placement::{NoDevice, Placement, device_of_local_rank, rank_device};
