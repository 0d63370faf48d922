//! The run-time launch configuration and launch errors.

use core::fmt;

use offload_contract::LaunchConfig;
use offload_contract::grid::Grid;
use offload_contract::launch_code::{
    BAD_CONFIG, NO_DEVICE_FOR_IMAGES, NO_SIZE, NULL_POINTER, OUT_OF_DEVICE_MEMORY, SIZE_TOO_LARGE,
};
pub use offload_contract::launch_code::{
    FEATURE_MISMATCH, LAYOUT_MISMATCH, NO_SUCH_DEVICE, OTHER_DEVICE, OVERLAPPING_RANGE,
    TOO_MANY_THREADS,
};
use offload_contract::launch_config::DEFAULT_DEVICE;
use offload_contract::layout;

/// Up to three dimensions: `64`, `(64, 4)`, `(64, 4, 2)` or `[64, 4, 2]`.
/// Missing dimensions are 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// The x extent (CUDA's `dim3.x`).
    pub x: u32,
    /// The y extent; 1 when not given.
    pub y: u32,
    /// The z extent; 1 when not given.
    pub z: u32,
}

impl Dim3 {
    const fn to_array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }

    const fn from_array([x, y, z]: [u32; 3]) -> Self {
        Dim3 { x, y, z }
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }
}

impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3 { x, y, z: 1 }
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3 { x, y, z }
    }
}

impl From<[u32; 3]> for Dim3 {
    fn from(dims: [u32; 3]) -> Self {
        Dim3::from_array(dims)
    }
}

/// How to launch a kernel, read when the launch runs: the grid (teams ×
/// threads per team, 1–3 dimensions), dynamic shared memory and the device.
///
/// ```
/// use offload::Launch;
/// let one_d = Launch::grid(120, 256);
/// let two_d = Launch::grid((16, 16), (8, 8)).dyn_shared_mem(4096).device(1);
/// let auto = Launch::new(); // the runtime chooses teams and threads
/// # let _ = (one_d, two_d, auto);
/// ```
///
/// The grid reaches the kernel in hidden launch slots too: libomptarget's
/// host (CPU) plugin ignores the launch configuration, and the x86_64
/// image's entry point runs the whole grid itself (the crate docs, "GPU
/// semantics on the CPU"). A team has at most 1024 threads (x × y × z; more
/// is [`TOO_MANY_THREADS`](crate::TOO_MANY_THREADS)). Write kernels with
/// [`grid_stride`](crate::grid_stride) so they are correct on every grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The one record of the grid: the hidden slots
    /// ([`grid_slots`](crate::__private::grid_slots)) and the
    /// [`LaunchConfig`] ([`config`](Self::config)) are both written from it.
    pub(crate) grid: Grid,
    pub(crate) device: i64,
}

impl Default for Launch {
    fn default() -> Self {
        Launch::new()
    }
}

impl Launch {
    /// The runtime chooses the grid (teams and threads 0), the default device.
    pub const fn new() -> Self {
        Launch {
            grid: Grid {
                teams: [0, 1, 1],
                threads: [0, 1, 1],
                dyn_shared_mem: 0,
            },
            device: DEFAULT_DEVICE,
        }
    }

    /// `teams` teams of `threads` threads each (0 in x: the runtime chooses).
    pub fn grid(teams: impl Into<Dim3>, threads: impl Into<Dim3>) -> Self {
        let mut launch = Launch::new();
        launch.grid.teams = teams.into().to_array();
        launch.grid.threads = threads.into().to_array();
        launch
    }

    /// Bytes of dynamic shared (team-local) memory per team, which kernels
    /// reach through [`shared::dyn_shared`](crate::shared::dyn_shared).
    pub const fn dyn_shared_mem(mut self, bytes: u32) -> Self {
        self.grid.dyn_shared_mem = bytes;
        self
    }

    /// The libomptarget device number (-1: the default device).
    pub const fn device(mut self, device: i64) -> Self {
        self.device = device;
        self
    }

    /// The teams per dimension.
    pub const fn teams(&self) -> Dim3 {
        Dim3::from_array(self.grid.teams)
    }

    /// The threads per team per dimension.
    pub const fn threads(&self) -> Dim3 {
        Dim3::from_array(self.grid.threads)
    }

    /// The device number (-1: the default device).
    pub const fn device_number(&self) -> i64 {
        self.device
    }
}

impl Launch {
    /// The run-time record of a launch with `sizes` (one per launch
    /// argument). On GPUs the `offload` crate keeps a record per thread
    /// before the kernel's dynamic shared memory (`shared`), which the
    /// config asks the runtime for too.
    pub(crate) fn config(&self, sizes: &[u64]) -> LaunchConfig {
        LaunchConfig::for_grid(&self.grid, self.device, sizes.as_ptr())
    }
}

/// A kernel launch that did not happen: the runtime's code and the kernel.
///
/// Codes: what libomptarget's `__tgt_target_kernel` returned (non-zero),
/// or from the launch lowering `-2` (the launch configuration's version is
/// not one it reads), `-3` (a pointer argument's size is known nowhere),
/// `-4` (a null pointer argument with a size), `-5` (a size of 2^63 bytes
/// or more), `-6` (an argument of 64 MiB or more, not present, that the
/// device cannot allocate), `-7` (the runtime has no device: no device
/// here takes any of the program's images; see
/// [`image_targets`](Self::image_targets)) and [`NO_SUCH_DEVICE`] (a device that is neither -1 nor one of
/// the runtime's), or from the launcher [`OVERLAPPING_RANGE`] (an argument's
/// host range overlaps a mapped range without lying inside it: see
/// [`overlap`](Self::overlap)) and [`LAYOUT_MISMATCH`] (an argument's type
/// has another layout in the device image: see [`layout`](Self::layout)),
/// [`FEATURE_MISMATCH`] (the kernel crate was built for the device with
/// other features: see [`features`](Self::features)), [`OTHER_DEVICE`] (an
/// argument is a region or device buffer of another device: see
/// [`other_device`](Self::other_device)) and [`TOO_MANY_THREADS`] (more
/// than 1024 threads per team).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchError {
    pub(crate) kernel: &'static str,
    pub(crate) symbol: &'static str,
    pub(crate) code: i32,
    pub(crate) detail: Detail,
}

/// What a [`LaunchError`] knows beyond its code (one of these at most,
/// so the error stays small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detail {
    /// Nothing more.
    None,
    /// [`OVERLAPPING_RANGE`]: the argument's range and the live one.
    #[cfg(not(feature = "device"))]
    Overlap(crate::data::Overlap),
    /// [`LAYOUT_MISMATCH`]: the parameter and both layouts.
    Layout(LayoutMismatch),
    /// [`FEATURE_MISMATCH`]: the kernel crate's features in both builds.
    Features(FeatureMismatch),
    /// [`OTHER_DEVICE`]: the parameter and both devices.
    #[cfg_attr(feature = "device", allow(dead_code))]
    OtherDevice(OtherDevice),
    /// [`NO_DEVICE_FOR_IMAGES`]: the targets of the images the kernel's
    /// launch stubs register (`host (<triple>)`, `<triple>:<cpu>`).
    Images(&'static str),
}

/// An argument whose data lives on another device than the launch's
/// ([`LaunchError::other_device`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtherDevice {
    /// The kernel parameter.
    pub(crate) param: &'static str,
    /// The launch's device.
    pub(crate) launch: i64,
    /// The device of the argument's region or buffer.
    pub(crate) data: i64,
}

impl OtherDevice {
    /// The kernel parameter (`x: &mut [f32]`).
    pub const fn param(&self) -> &'static str {
        self.param
    }

    /// The device the launch runs on.
    pub const fn launch_device(&self) -> i64 {
        self.launch
    }

    /// The device of the argument's region or device buffer.
    pub const fn data_device(&self) -> i64 {
        self.data
    }
}

impl fmt::Display for OtherDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "argument `{}` is a region or device buffer of device {}, but the launch runs on device {}: launch on device {}, or map or allocate the data on device {}",
            self.param, self.data, self.launch, self.data, self.launch
        )
    }
}

/// The kernel crate's features in the host build and in the device image
/// ([`LaunchError::features`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureMismatch {
    /// The crate's feature names, sorted ([`offload_contract::features`]).
    pub(crate) names: &'static [&'static str],
    /// The feature word of the host build.
    pub(crate) host: u64,
    /// The feature word of the device image.
    pub(crate) device: u64,
}

impl FeatureMismatch {
    /// The features enabled in the host build but not in the device image.
    pub fn host_only(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.only(self.host, self.device)
    }

    /// The features enabled in the device image but not in the host build.
    pub fn device_only(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.only(self.device, self.host)
    }

    fn only(&self, set: u64, unset: u64) -> impl Iterator<Item = &'static str> + '_ {
        let bit = offload_contract::features::bit;
        self.names
            .iter()
            .enumerate()
            .filter(move |&(i, _)| set & bit(i) != 0 && unset & bit(i) == 0)
            .map(|(_, name)| *name)
    }
}

impl fmt::Display for FeatureMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, names: &mut dyn Iterator<Item = &str>| {
            let mut first = true;
            for name in names {
                write!(f, "{}`{name}`", if first { "" } else { ", " })?;
                first = false;
            }
            if first {
                write!(f, "none")?;
            }
            Ok(())
        };
        write!(
            f,
            "the kernel crate's features differ between the host build and the device image (only in the host build: "
        )?;
        list(f, &mut self.host_only())?;
        write!(f, "; only in the device image: ")?;
        list(f, &mut self.device_only())?;
        write!(
            f,
            "): a feature given only on cargo's command line does not reach the device build; enable it in a Cargo.toml"
        )
    }
}

/// A launch argument whose type has another layout in the device image
/// ([`LaunchError::layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutMismatch {
    /// The kernel parameter (`x: Real`).
    pub(crate) param: &'static str,
    /// Its layout word in the host build.
    pub(crate) host: u64,
    /// Its layout word in the device image.
    pub(crate) device: u64,
}

impl LayoutMismatch {
    /// The kernel parameter (`x: &mut [Real]`; a slice's length slot is
    /// `x (its length)`).
    pub const fn param(&self) -> &'static str {
        self.param
    }

    /// The type's `(size, alignment)` in the host build.
    pub const fn host(&self) -> (u64, u64) {
        (layout::size(self.host), layout::align(self.host))
    }

    /// The type's `(size, alignment)` in the device image (equal to the
    /// host's where field offsets or field types differ).
    pub const fn device(&self) -> (u64, u64) {
        (layout::size(self.device), layout::align(self.device))
    }
}

impl fmt::Display for LayoutMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, d) = (self.host, self.device);
        write!(
            f,
            "parameter `{}` has another layout in the device image than in the host build (host: {} bytes, align {}; device: {} bytes, align {}",
            self.param,
            layout::size(h),
            layout::align(h),
            layout::size(d),
            layout::align(d),
        )?;
        if (layout::size(h), layout::align(h)) == (layout::size(d), layout::align(d)) {
            write!(f, "; other field offsets or field types")?;
        }
        write!(
            f,
            "): the kernel crate was built for the device with other features or cfgs"
        )
    }
}

impl LaunchError {
    /// The kernel's Rust path (`my_kernels::saxpy`).
    pub const fn kernel(&self) -> &'static str {
        self.kernel
    }

    /// The kernel's symbol in the device image.
    pub const fn symbol(&self) -> &'static str {
        self.symbol
    }

    /// The return code (non-zero; see the type's docs).
    pub const fn code(&self) -> i32 {
        self.code
    }

    /// For [`LAYOUT_MISMATCH`]: the parameter and its type's layouts.
    pub const fn layout(&self) -> Option<LayoutMismatch> {
        match self.detail {
            Detail::Layout(mismatch) => Some(mismatch),
            _ => None,
        }
    }

    /// For [`FEATURE_MISMATCH`]: the kernel crate's features in both builds.
    pub const fn features(&self) -> Option<FeatureMismatch> {
        match self.detail {
            Detail::Features(features) => Some(features),
            _ => None,
        }
    }

    /// For [`OTHER_DEVICE`]: the parameter and both devices.
    pub const fn other_device(&self) -> Option<OtherDevice> {
        match self.detail {
            Detail::OtherDevice(other) => Some(other),
            _ => None,
        }
    }

    /// For [`NO_DEVICE_FOR_IMAGES`]: the targets of the images that hold
    /// the kernel (`host (<triple>)`, `<triple>:<cpu>`, comma-separated),
    /// none of which a device here runs.
    pub const fn image_targets(&self) -> Option<&'static str> {
        match self.detail {
            Detail::Images(targets) => Some(targets),
            _ => None,
        }
    }

    /// For code `-101`: the host address ranges `[start, end)` of the
    /// argument and of the live mapping it overlaps.
    #[cfg(not(feature = "device"))]
    pub fn overlap(&self) -> Option<((usize, usize), (usize, usize))> {
        match self.detail {
            Detail::Overlap(o) => Some((o.new, o.live)),
            _ => None,
        }
    }
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offload: kernel `{}` was not launched: ", self.kernel)?;
        match &self.detail {
            Detail::None => {}
            Detail::Layout(mismatch) => {
                write!(f, "{mismatch} (code {})", self.code)?;
                return self.fmt_symbol(f);
            }
            Detail::Features(features) => {
                write!(f, "{features} (code {})", self.code)?;
                return self.fmt_symbol(f);
            }
            Detail::OtherDevice(other) => {
                write!(f, "{other} (code {})", self.code)?;
                return self.fmt_symbol(f);
            }
            Detail::Images(targets) => {
                write!(
                    f,
                    "the runtime has no device: none here runs the kernel's images, built for {targets}, nor any other image of the program (build an image for a device this machine has too, OFFLOAD_TARGETS with `host` for the CPU, or run where a device of those targets is), or OMP_TARGET_OFFLOAD=DISABLED (code {})",
                    self.code
                )?;
                return self.fmt_symbol(f);
            }
            #[cfg(not(feature = "device"))]
            Detail::Overlap(overlap) => {
                write!(f, "an argument's {overlap} (code {})", self.code)?;
                return self.fmt_symbol(f);
            }
        }
        match self.code {
            NO_SUCH_DEVICE => write!(f, "no such device (code {})", self.code),
            BAD_CONFIG => write!(
                f,
                "the launch configuration was refused (code {BAD_CONFIG})"
            ),
            NO_SIZE => write!(f, "a pointer argument's size is unknown (code {NO_SIZE})"),
            TOO_MANY_THREADS => write!(
                f,
                "the launch asks for more than {} threads per team (code {TOO_MANY_THREADS})",
                offload_contract::grid::MAX_THREADS_PER_TEAM
            ),
            NULL_POINTER => write!(
                f,
                "a pointer argument is null but maps bytes (code {NULL_POINTER})"
            ),
            SIZE_TOO_LARGE => write!(
                f,
                "a pointer argument's size is 2^63 bytes or more (code {SIZE_TOO_LARGE})"
            ),
            OUT_OF_DEVICE_MEMORY => write!(
                f,
                "the device cannot allocate a pointer argument's data (a trial allocation of its size failed; code {OUT_OF_DEVICE_MEMORY})"
            ),
            NO_DEVICE_FOR_IMAGES => write!(
                f,
                "the runtime has no device: none here takes any of the program's device images (they were built only for devices this machine lacks: build the image of a device it has too, OFFLOAD_TARGETS with `host` for the CPU, or run where the images' device is), or OMP_TARGET_OFFLOAD=DISABLED (code {NO_DEVICE_FOR_IMAGES})"
            ),
            code => write!(f, "libomptarget returned {code}"),
        }?;
        self.fmt_symbol(f)
    }
}

impl LaunchError {
    /// The image symbol, where the kernel's Rust name does not end with it.
    fn fmt_symbol(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.kernel.ends_with(self.symbol) {
            write!(f, " (image symbol `{}`)", self.symbol)?;
        }
        Ok(())
    }
}

impl core::error::Error for LaunchError {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn each_lowering_code_says_what_was_refused() {
        let error = |code| LaunchError {
            kernel: "k::fill",
            symbol: "fill",
            code,
            detail: Detail::None,
        };
        assert_eq!(
            error(NULL_POINTER).to_string(),
            "offload: kernel `k::fill` was not launched: a pointer argument is null but maps bytes (code -4)"
        );
        assert_eq!(
            error(SIZE_TOO_LARGE).to_string(),
            "offload: kernel `k::fill` was not launched: a pointer argument's size is 2^63 bytes or more (code -5)"
        );
        assert_eq!(
            error(OUT_OF_DEVICE_MEMORY).to_string(),
            "offload: kernel `k::fill` was not launched: the device cannot allocate a pointer argument's data (a trial allocation of its size failed; code -6)"
        );
        let none = error(NO_DEVICE_FOR_IMAGES).to_string();
        assert!(
            none.contains("none here takes any of the program's device images")
                && none.contains("OFFLOAD_TARGETS")
                && none.ends_with("(code -7)"),
            "{none}"
        );
    }

    /// The kernel's hidden slots and the runtime's config say one grid.
    #[test]
    fn the_slots_and_the_config_carry_one_grid() {
        let launch = Launch::grid((6, 5), [32, 4, 2])
            .dyn_shared_mem(512)
            .device(3);
        assert_eq!(launch.teams(), Dim3 { x: 6, y: 5, z: 1 });
        assert_eq!(launch.threads(), Dim3 { x: 32, y: 4, z: 2 });
        let slots = crate::__private::grid_slots(&launch, "k::fill", "fill").unwrap();
        let grid = offload_contract::grid::decode(slots);
        let sizes = [8u64];
        let config = launch.config(&sizes);
        assert_eq!((config.teams, config.threads), (grid.teams, grid.threads));
        assert_eq!((grid.teams, grid.threads), ([6, 5, 1], [32, 4, 2]));
        assert_eq!(grid.dyn_shared_mem, 512);
        // The runtime is asked for the per-thread records too.
        assert_eq!(config.dyn_cgroup_mem, 512 + 16 + 256 * 8);
        assert_eq!((config.device, config.sizes), (3, sizes.as_ptr()));
    }

    #[test]
    fn no_device_for_the_images_names_their_targets() {
        unsafe extern "C" fn targets(len: *mut usize) -> *const u8 {
            const TEXT: &str = "amdgcn-amd-amdhsa:gfx90a";
            // SAFETY: `name_images` passes a valid `usize`.
            unsafe { *len = TEXT.len() };
            TEXT.as_ptr()
        }
        let error = |code| LaunchError {
            kernel: "k::fill",
            symbol: "fill",
            code,
            detail: Detail::None,
        };
        // SAFETY: `targets` is an image-targets function.
        let named =
            unsafe { crate::__private::name_images(Err(error(NO_DEVICE_FOR_IMAGES)), targets) };
        let named = named.unwrap_err();
        assert_eq!(named.image_targets(), Some("amdgcn-amd-amdhsa:gfx90a"));
        assert_eq!(
            named.to_string(),
            "offload: kernel `k::fill` was not launched: the runtime has no device: none here runs the kernel's images, built for amdgcn-amd-amdhsa:gfx90a, nor any other image of the program (build an image for a device this machine has too, OFFLOAD_TARGETS with `host` for the CPU, or run where a device of those targets is), or OMP_TARGET_OFFLOAD=DISABLED (code -7)"
        );
        // Other codes and results pass as they are.
        // SAFETY: as above.
        let other = unsafe { crate::__private::name_images(Err(error(NO_SIZE)), targets) };
        assert_eq!(other, Err(error(NO_SIZE)));
        // SAFETY: as above.
        let launched = unsafe { crate::__private::name_images(Ok(()), targets) };
        assert_eq!(launched, Ok(()));
    }

    #[test]
    fn a_feature_mismatch_names_the_features() {
        let features = FeatureMismatch {
            names: &["double", "fast", "libm"],
            host: 0b011,
            device: 0b110,
        };
        let error = LaunchError {
            kernel: "k::fill",
            symbol: "fill",
            code: FEATURE_MISMATCH,
            detail: Detail::Features(features),
        };
        assert_eq!(
            error.to_string(),
            "offload: kernel `k::fill` was not launched: the kernel crate's features differ between the host build and the device image (only in the host build: `double`; only in the device image: `libm`): a feature given only on cargo's command line does not reach the device build; enable it in a Cargo.toml (code -103)"
        );
    }
}
