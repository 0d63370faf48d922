//! [`MapError`]: a region the runtime did not map.

use core::fmt;

use super::live::Overlap;

/// Mapping failed: the device does not exist, the range overlaps a live
/// mapping without lying inside it (libomptarget would abort the process),
/// the device cannot allocate the data (a trial allocation from 64 MiB up:
/// libomptarget would abort too), or the runtime did not make the data
/// present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapError {
    pub(super) bytes: usize,
    pub(super) device: i64,
    pub(super) overlap: Option<Overlap>,
    pub(super) out_of_memory: bool,
    /// The device is not one of the runtime's.
    pub(super) no_such_device: bool,
}

impl MapError {
    /// For an overlap: the host address ranges `[start, end)` asked for and
    /// of the live mapping it overlaps.
    pub fn overlap(&self) -> Option<((usize, usize), (usize, usize))> {
        self.overlap.map(|o| (o.new, o.live))
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(overlap) = &self.overlap {
            return write!(f, "offload: mapping {} bytes: {overlap}", self.bytes);
        }
        if self.out_of_memory {
            return write!(
                f,
                "offload: mapping {} bytes to device {}: the device cannot allocate them",
                self.bytes, self.device
            );
        }
        if self.no_such_device {
            write!(
                f,
                "offload: mapping {} bytes to device {}: ",
                self.bytes, self.device
            )?;
            return super::device::fmt_no_such_device(f);
        }
        write!(
            f,
            "offload: mapping {} bytes to device {} failed (is the device available? OMP_TARGET_OFFLOAD=MANDATORY, LIBOMPTARGET_INFO=-1 tell more)",
            self.bytes, self.device
        )
    }
}

impl core::error::Error for MapError {}
