//! [`MapError`]: a region the runtime did not map.

use core::fmt;

/// Mapping failed: the runtime did not make the data present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapError {
    pub(super) bytes: usize,
    pub(super) device: i64,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offload: mapping {} bytes to device {} failed (is the device available? OMP_TARGET_OFFLOAD=MANDATORY, LIBOMPTARGET_INFO=-1 tell more)",
            self.bytes, self.device
        )
    }
}

impl core::error::Error for MapError {}
