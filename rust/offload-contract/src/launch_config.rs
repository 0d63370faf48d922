//! [`LaunchConfig`]: the run-time half of a v2 launch, read by the code
//! `offload-host` generates (by LLVM struct field, [`field`]) and by the
//! launch stubs `offload-build` generates (by byte offset, [`DEVICE_OFFSET`]).
//!
//! ```text
//! %struct.__offload_launch_config = type { i32, i32, [3 x i32], [3 x i32], i32, i64, ptr }
//! ```

use core::mem::offset_of;

use crate::grid::Grid;

/// The version [`LaunchConfig::new`] writes: a [`LaunchConfig::sizes`]
/// entry of [`SIZE_NOT_GIVEN`] leaves that argument's size to the
/// descriptor (or what the lowering infers); any other entry is the
/// argument's size, 0 included (an empty slice maps 0 bytes).
pub const VERSION: u32 = 3;

/// The other version a launch accepts: a sizes entry of 0 means "not
/// given", so such a config cannot map 0 bytes.
pub const VERSION_ZERO_NOT_GIVEN: u32 = 2;

/// A [`VERSION`] config's sizes entry that gives no size.
pub const SIZE_NOT_GIVEN: u64 = u64::MAX;

/// The device number that selects the runtime's default device.
pub const DEFAULT_DEVICE: i64 = -1;

/// How to run one v2 launch: the grid, dynamic shared memory, the device
/// and the byte size of each launch argument (read only for pointers).
#[repr(C)]
#[derive(Debug)]
pub struct LaunchConfig {
    /// [`VERSION`] (or [`VERSION_ZERO_NOT_GIVEN`]).
    pub version: u32,
    /// Zero.
    pub reserved: u32,
    /// Teams per dimension (0 in x: the runtime chooses).
    pub teams: [u32; 3],
    /// Threads per team per dimension (0 in x: the runtime chooses).
    pub threads: [u32; 3],
    /// Bytes of dynamic shared (team-local) memory.
    pub dyn_cgroup_mem: u32,
    /// The libomptarget device number ([`DEFAULT_DEVICE`]: the default).
    pub device: i64,
    /// Null, or one size in bytes per launch argument ([`SIZE_NOT_GIVEN`]:
    /// none given).
    pub sizes: *const u64,
}

impl LaunchConfig {
    /// A config of the current [`VERSION`].
    pub const fn new(
        teams: [u32; 3],
        threads: [u32; 3],
        dyn_cgroup_mem: u32,
        device: i64,
        sizes: *const u64,
    ) -> Self {
        LaunchConfig {
            version: VERSION,
            reserved: 0,
            teams,
            threads,
            dyn_cgroup_mem,
            device,
            sizes,
        }
    }
}

impl LaunchConfig {
    /// The config of a launch on `grid`, whose hidden slots
    /// ([`grid::encode`](crate::grid::encode)) carry the same grid: its
    /// teams and threads, and the dynamic shared memory the runtime is
    /// asked for ([`Grid::runtime_shared_bytes`]).
    pub const fn for_grid(grid: &Grid, device: i64, sizes: *const u64) -> Self {
        LaunchConfig::new(
            grid.teams,
            grid.threads,
            grid.runtime_shared_bytes(),
            device,
            sizes,
        )
    }
}

/// The index of each field in `%struct.__offload_launch_config`.
pub mod field {
    /// [`LaunchConfig::version`](super::LaunchConfig::version).
    pub const VERSION: u32 = 0;
    /// [`LaunchConfig::reserved`](super::LaunchConfig::reserved).
    pub const RESERVED: u32 = 1;
    /// [`LaunchConfig::teams`](super::LaunchConfig::teams).
    pub const TEAMS: u32 = 2;
    /// [`LaunchConfig::threads`](super::LaunchConfig::threads).
    pub const THREADS: u32 = 3;
    /// [`LaunchConfig::dyn_cgroup_mem`](super::LaunchConfig::dyn_cgroup_mem).
    pub const DYN_CGROUP_MEM: u32 = 4;
    /// [`LaunchConfig::device`](super::LaunchConfig::device).
    pub const DEVICE: u32 = 5;
    /// [`LaunchConfig::sizes`](super::LaunchConfig::sizes).
    pub const SIZES: u32 = 6;
}

/// Byte offset of [`LaunchConfig::device`], which the launch stubs read.
pub const DEVICE_OFFSET: usize = offset_of!(LaunchConfig, device);

// The layout of the LLVM struct above under the data layouts of the
// supported targets (x86_64, amdgcn, nvptx64): the lowering addresses the
// fields by index, the stubs by offset, so both must describe these bytes.
const _: () = {
    assert!(offset_of!(LaunchConfig, version) == 0);
    assert!(offset_of!(LaunchConfig, reserved) == 4);
    assert!(offset_of!(LaunchConfig, teams) == 8);
    assert!(offset_of!(LaunchConfig, threads) == 20);
    assert!(offset_of!(LaunchConfig, dyn_cgroup_mem) == 32);
    assert!(DEVICE_OFFSET == 40);
    assert!(offset_of!(LaunchConfig, sizes) == 48);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_writes_the_version() {
        let sizes = [4u64, 8];
        let config = LaunchConfig::new([2, 3, 1], [32, 2, 1], 256, DEFAULT_DEVICE, sizes.as_ptr());
        assert_eq!((config.version, config.reserved), (3, 0));
        assert_eq!((config.teams, config.threads), ([2, 3, 1], [32, 2, 1]));
        assert_eq!((config.dyn_cgroup_mem, config.device), (256, -1));
        assert_eq!(config.sizes, sizes.as_ptr());
    }

    #[test]
    fn a_grids_config_and_slots_agree() {
        let grid = Grid {
            teams: [5, 4, 3],
            threads: [16, 2, 1],
            dyn_shared_mem: 100,
        };
        let config = LaunchConfig::for_grid(&grid, 2, core::ptr::null());
        let slots = crate::grid::decode(crate::grid::encode(grid));
        assert_eq!((config.teams, config.threads), (slots.teams, slots.threads));
        assert_eq!(config.dyn_cgroup_mem, grid.runtime_shared_bytes());
        assert_eq!((config.version, config.device), (VERSION, 2));
    }

    #[test]
    fn the_stubs_offset_reads_the_device() {
        let config = LaunchConfig::new([1; 3], [1; 3], 0, 7, core::ptr::null());
        let base = (&raw const config).cast::<u8>();
        // SAFETY: DEVICE_OFFSET is inside `config` and 8-aligned (asserted above).
        let device = unsafe { base.add(DEVICE_OFFSET).cast::<i64>().read() };
        assert_eq!(device, 7);
        assert_eq!(size_of::<LaunchConfig>(), 56);
    }
}
