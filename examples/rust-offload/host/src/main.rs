//! The host side of the rust-offload example. It calls the kernels through
//! `extern "C"` declarations; the plugin's `offload-host` pass (run inside
//! rustc, see `build.rs`) turns each such call into a libomptarget launch of
//! the kernel in the device image, embeds and registers the image, and lowers
//! the `__offload_data_*` calls to data mappers.
//!
//! What the pass cannot see in the IR is said in launch descriptors:
//! `#[unsafe(export_name = "__offload_launch.<kernel>")]` statics of `u64`
//! words (layout in README, "The launch contract"): version 1, teams x/y/z,
//! threads x/y/z, dynamic shared memory, the argument count, then per
//! argument (MAP, SIZE, LEN). Raw pointers carry no `readonly`/
//! `dereferenceable` attributes, so every pointer's map type and size is given
//! here; LEN = 1 + the index of the argument holding the element count.

use std::process::ExitCode;

#[path = "../../device/src/particle.rs"]
mod particle;
use particle::Particle;

const TO: u64 = 0x1;
const FROM: u64 = 0x2;
/// Infer (scalars become literals).
const INFER: [u64; 3] = [0, 0, 0];

/// A launch descriptor for `A` arguments: header (version 1, teams 1x1x1,
/// threads 1x1x1, no dynamic shared memory), `A`, then each argument's
/// (MAP, SIZE, LEN). `N` must be `9 + 3 * A` (checked at compile time).
const fn descriptor<const A: usize, const N: usize>(args: [[u64; 3]; A]) -> [u64; N] {
    assert!(
        N == 9 + 3 * A,
        "a descriptor has 9 + 3 * (argument count) words"
    );
    let mut words = [0u64; N];
    let header = [1, 1, 1, 1, 1, 1, 1, 0, A as u64];
    let mut i = 0;
    while i < header.len() {
        words[i] = header[i];
        i += 1;
    }
    let mut a = 0;
    while a < A {
        words[9 + 3 * a] = args[a][0];
        words[10 + 3 * a] = args[a][1];
        words[11 + 3 * a] = args[a][2];
        a += 1;
    }
    words
}

/// `increment(data, n)`: data TO|FROM, `n` 4-byte elements (argument 1).
#[unsafe(export_name = "__offload_launch.increment")]
pub static INCREMENT: [u64; 15] = descriptor([[TO | FROM, 4, 2], INFER]);
/// `saxpy(a, x, y, out, n)`: x and y TO, out FROM, `n` elements (argument 4).
#[unsafe(export_name = "__offload_launch.saxpy")]
pub static SAXPY: [u64; 24] = descriptor([INFER, [TO, 4, 5], [TO, 4, 5], [FROM, 4, 5], INFER]);
/// `mix(a, b, c, d, out)`: out FROM, one f64.
#[unsafe(export_name = "__offload_launch.mix")]
pub static MIX: [u64; 24] = descriptor([INFER, INFER, INFER, INFER, [FROM, 8, 0]]);
/// `step(p, force, dt, out)`: p by value (inferred: TO, its size), out FROM.
#[unsafe(export_name = "__offload_launch.step")]
pub static STEP: [u64; 21] = descriptor([INFER, INFER, INFER, [FROM, 24, 0]]);
/// `sum(values, n, out)`: values TO, `n` 8-byte elements (argument 1); out FROM.
#[unsafe(export_name = "__offload_launch.sum")]
pub static SUM: [u64; 18] = descriptor([[TO, 8, 2], INFER, [FROM, 8, 0]]);

unsafe extern "C" {
    fn increment(data: *mut i32, n: usize);
    fn saxpy(a: f32, x: *const f32, y: *const f32, out: *mut f32, n: usize);
    fn mix(a: i32, b: i64, c: f32, d: f64, out: *mut f64);
    fn step(p: Particle, force: f64, dt: f64, out: *mut Particle);
    fn sum(values: *const f64, n: usize, out: *mut f64);
    fn __offload_data_begin(p: *const u8, size: u64, map_type: u64);
    fn __offload_data_update(p: *const u8, size: u64, map_type: u64);
    fn __offload_data_end(p: *const u8, size: u64, map_type: u64);
}

fn main() -> ExitCode {
    let mut data = vec![1i32, 2, 3, 4, 5];
    unsafe { increment(data.as_mut_ptr(), data.len()) };
    println!("increment: {data:?}");

    let x = [1.0f32, 2.0, 3.0, 4.0];
    let y = [0.5f32, 0.25, -1.0, 10.0];
    let mut out = [0.0f32; 4];
    unsafe { saxpy(2.5, x.as_ptr(), y.as_ptr(), out.as_mut_ptr(), x.len()) };
    println!("saxpy: {out:?}");

    let mut mixed = 0.0f64;
    unsafe { mix(-7, 3_000_000_000, 0.5, 0.125, &mut mixed) };
    println!("mix: {mixed}");

    let p = Particle {
        x: 1.0,
        v: 2.0,
        mass: 4.0,
    };
    let mut moved = Particle {
        x: 0.0,
        v: 0.0,
        mass: 0.0,
    };
    unsafe { step(p, 8.0, 0.5, &mut moved) };
    println!("step: {moved:?} (host copy unchanged: {p:?})");

    let values: Vec<f64> = (1..=10).map(f64::from).collect();
    let mut total = 0.0f64;
    unsafe { sum(values.as_ptr(), values.len(), &mut total) };
    println!("sum: {total}");

    // A data region: the array is mapped once; the launches inside it find it
    // present (libomptarget counts references) and copy nothing back, so the
    // host copy changes only at the update and at the end.
    let bytes = (data.len() * size_of::<i32>()) as u64;
    unsafe {
        __offload_data_begin(data.as_ptr().cast(), bytes, TO | FROM);
        for _ in 0..3 {
            increment(data.as_mut_ptr(), data.len());
        }
        println!("in region, before update: {data:?}");
        __offload_data_update(data.as_ptr().cast(), bytes, FROM);
        println!("in region, after update: {data:?}");
        increment(data.as_mut_ptr(), data.len());
        __offload_data_end(data.as_ptr().cast(), bytes, TO | FROM);
    }
    println!("after region: {data:?}");
    ExitCode::SUCCESS
}
