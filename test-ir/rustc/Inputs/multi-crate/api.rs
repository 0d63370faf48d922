//! The v2 launch contract as a Rust crate writes it by hand (what the Rust
//! front end generates): a `LaunchConfig`, one `const` descriptor per kernel
//! whose address is passed (so every codegen unit holds its own private
//! copy), and the `__offload_launch2.K` declarations. The image digest comes
//! from `digest.rs`, written from the image by the test.

include!(concat!(env!("OFFLOAD_TEST_DIR"), "/digest.rs"));

pub const TO: u64 = 1;
pub const FROM: u64 = 2;

#[repr(C)]
pub struct LaunchConfig {
    pub version: u32,
    pub reserved: u32,
    pub teams: [u32; 3],
    pub threads: [u32; 3],
    pub dyn_cgroup_mem: u32,
    pub device: i64,
    pub sizes: *const u64,
}

impl LaunchConfig {
    /// One team of one thread on the default device; `sizes` per argument.
    pub fn new(sizes: &[u64]) -> LaunchConfig {
        LaunchConfig {
            version: 2,
            reserved: 0,
            teams: [1, 0, 0],
            threads: [1, 0, 0],
            dyn_cgroup_mem: 0,
            device: -1,
            sizes: sizes.as_ptr(),
        }
    }
}

/// `scale(x, factor, n)`: x TO|FROM, its size from the config.
pub const SCALE: [u64; 9] = [2, DIGEST, 3, TO | FROM, 0, 0, 0, 0, 0];
/// `add(a, b, out, n)`.
pub const ADD: [u64; 11] = [2, DIGEST, 4, TO, 0, TO, 0, FROM, 0, 0, 0];
/// `fill(out, value, n)`.
pub const FILL: [u64; 9] = [2, DIGEST, 3, FROM, 0, 0, 0, 0, 0];

unsafe extern "C" {
    #[link_name = "__offload_launch2.scale"]
    pub fn scale(d: *const u64, c: *const LaunchConfig, x: *mut f32, factor: f32, n: usize) -> i32;
    #[link_name = "__offload_launch2.add"]
    pub fn add(d: *const u64, c: *const LaunchConfig, a: *const f32, b: *const f32, out: *mut f32, n: usize) -> i32;
    #[link_name = "__offload_launch2.fill"]
    pub fn fill(d: *const u64, c: *const LaunchConfig, out: *mut u32, value: u32, n: usize) -> i32;
}

/// The descriptor's address: `&CONST` is promoted to a constant of the
/// codegen unit that uses it. A macro, not a function: at -Copt-level=0 a
/// function's result is no constant the pass can read.
#[macro_export]
macro_rules! words {
    ($descriptor:expr) => {
        &$descriptor as *const _ as *const u64
    };
}
