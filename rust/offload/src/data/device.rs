//! [`Device`]: which libomptarget device a region maps to.

use crate::runtime as rt;

/// A libomptarget device: [`Device::DEFAULT`] or a device number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Device(pub(super) i64);

impl Device {
    /// The default device (`OMP_DEFAULT_DEVICE`, else device 0).
    pub const DEFAULT: Device = Device(-1);

    /// Device number `n` (-1: the default device).
    pub const fn new(n: i64) -> Self {
        Device(n)
    }

    /// The device number libomptarget's queries take (-1 resolved; any
    /// other number as it is).
    pub fn number(self) -> i64 {
        if self.0 == -1 {
            // SAFETY: an OpenMP query without preconditions.
            i64::from(unsafe { rt::omp_get_default_device() })
        } else {
            self.0
        }
    }

    /// True for a device of the runtime: libomptarget aborts the process
    /// (OMP_TARGET_OFFLOAD=MANDATORY) on any other number.
    pub(super) fn exists(self) -> bool {
        // SAFETY: an OpenMP query without preconditions.
        let count = i64::from(unsafe { rt::omp_get_num_devices() });
        (0..count).contains(&self.number())
    }
}
