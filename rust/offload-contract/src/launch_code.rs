//! What a launch returns: 0 when it launched, else why not. libomptarget's
//! own codes come back unchanged; the codes below are the lowering's, the
//! launch stubs' and the host launchers'.

/// The launch happened (libomptarget's `OFFLOAD_SUCCESS`).
pub const SUCCESS: i32 = 0;
/// libomptarget refused the launch (`OFFLOAD_FAIL`).
pub const OFFLOAD_FAIL: i32 = -1;
/// The [`LaunchConfig`](crate::LaunchConfig) pointer is null or its version
/// is neither [`launch_config::VERSION`](crate::launch_config::VERSION) nor
/// [`launch_config::VERSION_ZERO_NOT_GIVEN`](crate::launch_config::VERSION_ZERO_NOT_GIVEN).
pub const BAD_CONFIG: i32 = -2;
/// A pointer argument's size was known neither at compile time nor from
/// the config's sizes.
pub const NO_SIZE: i32 = -3;
/// A mapped pointer argument is null but its size is not 0: there is
/// nothing to copy from or to (libomptarget would crash reading it).
pub const NULL_POINTER: i32 = -4;
/// A mapped pointer argument's size is [`MAX_SIZE`](crate::descriptor::MAX_SIZE)
/// + 1 bytes or more: no allocation can hold it (libomptarget would abort).
pub const SIZE_TOO_LARGE: i32 = -5;
/// A mapped pointer argument of [`PROBE_BYTES`] or more that is not
/// present on the device and that the device cannot allocate (a trial
/// `omp_target_alloc` of its size returned null): libomptarget would abort
/// the process when its own allocation fails.
pub const OUT_OF_DEVICE_MEMORY: i32 = -6;
/// The runtime has no device at all: no device here takes any of the
/// program's images (built only for devices this machine lacks, such as an
/// AMDGPU-only build where no AMD GPU is), or offloading is off
/// (`OMP_TARGET_OFFLOAD=DISABLED`). libomptarget would abort a launch on
/// the default device under `OMP_TARGET_OFFLOAD=MANDATORY`.
pub const NO_DEVICE_FOR_IMAGES: i32 = -7;
/// The size from which a launch tries the allocation of an argument that is
/// not present first ([`OUT_OF_DEVICE_MEMORY`]): 64 MiB. Smaller ones are
/// not tried (the trial would cost more than the copy it guards), so the
/// runtime's own failure there still aborts.
pub const PROBE_BYTES: u64 = 1 << 26;
/// The config's device is neither -1 (the default device) nor a device of
/// the runtime (`0..omp_get_num_devices()`): the launch refuses it
/// (libomptarget would abort the process).
pub const NO_SUCH_DEVICE: i32 = -100;
/// An argument's host range overlaps a range mapped at the time without
/// lying inside it: the host launcher refuses the launch (libomptarget
/// would abort the process).
pub const OVERLAPPING_RANGE: i32 = -101;
/// An argument's type has another layout (size, alignment, field offsets or
/// field types) in the device image than in the host build: the host
/// launcher refuses the launch.
pub const LAYOUT_MISMATCH: i32 = -102;
/// The kernel crate was built for the device with other features enabled
/// than in the host build (features given only on cargo's command line,
/// which the device build cannot see): the host launcher refuses the launch.
pub const FEATURE_MISMATCH: i32 = -103;
/// The launch asks for more than
/// [`grid::MAX_THREADS_PER_TEAM`](crate::grid::MAX_THREADS_PER_TEAM)
/// threads per team: the host launcher refuses it.
pub const TOO_MANY_THREADS: i32 = -104;
/// An argument is a region or device buffer of another device than the
/// launch's (its data lives there, not on the launch's device): the host
/// launcher refuses the launch (libomptarget would map the host copy
/// instead and the kernel's writes would be lost).
pub const OTHER_DEVICE: i32 = -105;
/// A direct launch stub (device addresses passed as they are) that the
/// stubs cannot offer (the v1 contract: one descriptor per kernel): the
/// host launcher maps the arguments instead.
pub const NO_DIRECT: i32 = -106;
