//! [`rank_device`]: the offload device of this rank.

use core::fmt;

use mpi::traits::Communicator;
use offload::Device;

/// Where a rank runs: its rank on its node (among the ranks that share
/// memory with it) and the device that rank picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The rank among the ranks of this node.
    pub local_rank: i32,
    /// The number of ranks on this node.
    pub local_ranks: i32,
    /// The number of offload devices this rank sees.
    pub devices: usize,
    /// `local_rank % devices`.
    pub device: Device,
}

/// The runtime of a rank had no offload device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoDevice {
    /// The rank in the communicator given to [`rank_device`].
    pub rank: i32,
    /// Its rank on its node.
    pub local_rank: i32,
}

impl fmt::Display for NoDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offload-mpi: rank_device: rank {} (local rank {}) sees no offload device \
             (offload::device_count() is 0): check the node's GPUs and the plugins \
             libomptarget loads",
            self.rank, self.local_rank
        )
    }
}

impl core::error::Error for NoDevice {}

/// The device of node-local rank `local_rank` when the node has `devices`
/// devices: `local_rank % devices` (ranks share devices when there are more
/// ranks than devices); `None` without devices.
pub fn device_of_local_rank(local_rank: i32, devices: usize) -> Option<Device> {
    let local = usize::try_from(local_rank).ok()?;
    let n = local.checked_rem(devices)?;
    Some(Device::new(i64::try_from(n).ok()?))
}

/// This rank's placement: its rank on its node, from a shared-memory split
/// of `comm` (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`, which every MPI
/// library and launcher supports, unlike each launcher's own environment
/// variables), and the device that rank picks. Collective: every rank of
/// `comm` calls it.
pub fn rank_device<C: Communicator>(comm: &C) -> Result<Placement, NoDevice> {
    let node = comm.split_shared(comm.rank());
    let (local_rank, local_ranks) = (node.rank(), node.size());
    let devices = offload::device_count();
    let device = device_of_local_rank(local_rank, devices).ok_or(NoDevice {
        rank: comm.rank(),
        local_rank,
    })?;
    Ok(Placement {
        local_rank,
        local_ranks,
        devices,
        device,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_ranks_go_round_the_devices() {
        let devices: Vec<_> = (0..6).map(|r| device_of_local_rank(r, 4)).collect();
        let expected = [0, 1, 2, 3, 0, 1].map(|n| Some(Device::new(n)));
        assert_eq!(devices, expected);
        assert_eq!(device_of_local_rank(0, 1), Some(Device::new(0)));
    }

    #[test]
    fn no_device_without_devices() {
        assert_eq!(device_of_local_rank(0, 0), None);
        assert_eq!(device_of_local_rank(-1, 4), None);
    }
}
