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
        rt::init();
        if self.0 == -1 {
            // SAFETY: an OpenMP query without preconditions.
            i64::from(unsafe { rt::omp_get_default_device() })
        } else {
            self.0
        }
    }

    /// The number of offload devices the runtime has
    /// (`omp_get_num_devices()`; libomptarget's CPU plugin offers several
    /// host devices).
    pub fn count() -> usize {
        rt::init();
        // SAFETY: an OpenMP query without preconditions.
        usize::try_from(unsafe { rt::omp_get_num_devices() }).unwrap_or(0)
    }

    /// The device libomptarget calls the host (`omp_get_initial_device()`,
    /// [`count`](Self::count) in LLVM): not an offload device.
    pub fn initial() -> Device {
        rt::init();
        // SAFETY: an OpenMP query without preconditions.
        Device(i64::from(unsafe { rt::omp_get_initial_device() }))
    }

    /// Whether this is the default device or a device of the runtime.
    pub fn is_available(self) -> bool {
        self.exists()
    }

    /// The device's unique id (`omp_get_uid_from_device`: a string the
    /// plugin makes, stable for the device across runs), or `None` for a
    /// device the runtime does not have.
    pub fn uid(self) -> Option<alloc::string::String> {
        if !self.exists() {
            return None;
        }
        // SAFETY: a query on a device of the runtime; it returns null or a
        // NUL-terminated string that the runtime keeps.
        let uid = unsafe { rt::omp_get_uid_from_device(self.number() as core::ffi::c_int) };
        if uid.is_null() {
            return None;
        }
        // SAFETY: non-null, NUL-terminated, alive while the runtime is.
        let uid = unsafe { core::ffi::CStr::from_ptr(uid) };
        Some(alloc::string::String::from_utf8_lossy(uid.to_bytes()).into_owned())
    }

    /// True for a device of the runtime: libomptarget aborts the process
    /// (OMP_TARGET_OFFLOAD=MANDATORY) on any other number.
    pub(crate) fn exists(self) -> bool {
        (0..Self::count() as i64).contains(&self.number())
    }
}

/// "no such device" and which devices the runtime has, for the data API's
/// errors: none at all is a program without a registered image that a
/// device here runs (libomptarget counts a device only once such an image
/// is registered).
pub(super) fn fmt_no_such_device(f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
    match Device::count() {
        0 => write!(
            f,
            "no such device (the runtime has none: libomptarget counts a device once an image it runs is registered; a program registers the images of the kernel crates it names, `use kernels as _;` where it launches nothing, each built for its targets: OFFLOAD_TARGETS with `host` for the CPU)"
        ),
        count => write!(f, "no such device (the runtime's devices are 0..{count})"),
    }
}

/// The number of offload devices ([`Device::count`]).
pub fn device_count() -> usize {
    Device::count()
}
