//! What a launch returns: 0 when it launched, else why not. libomptarget's
//! own codes come back unchanged; the codes below are the lowering's, the
//! launch stubs' and the host launchers'.

/// The launch happened (libomptarget's `OFFLOAD_SUCCESS`).
pub const SUCCESS: i32 = 0;
/// libomptarget refused the launch (`OFFLOAD_FAIL`).
pub const OFFLOAD_FAIL: i32 = -1;
/// The [`LaunchConfig`](crate::LaunchConfig) pointer is null or its version
/// is not [`launch_config::VERSION`](crate::launch_config::VERSION).
pub const BAD_CONFIG: i32 = -2;
/// A pointer argument's size was known neither at compile time nor from
/// the config's sizes.
pub const NO_SIZE: i32 = -3;
/// The config's device is not a device of the runtime: the launch stub
/// refuses it (libomptarget would abort the process).
pub const NO_SUCH_DEVICE: i32 = -100;
/// An argument's host range overlaps a range mapped at the time without
/// lying inside it: the host launcher refuses the launch (libomptarget
/// would abort the process).
pub const OVERLAPPING_RANGE: i32 = -101;
/// An argument's type has another layout (size, alignment, field offsets or
/// field types) in the device image than in the host build: the host
/// launcher refuses the launch.
pub const LAYOUT_MISMATCH: i32 = -102;
