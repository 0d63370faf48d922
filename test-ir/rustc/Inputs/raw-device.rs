//! Plain `extern "C"` Rust kernels (the rust-offload example before the offload
//! crates), compiled by rustc with the plugin: test-ir/rustc/offload-program.test.
//! The plugin's `offload-wrap-kernels` pass gives each kernel
//! libomptarget's launch signature (a leading dyn
//! pointer, one 8-byte slot per argument). libomptarget's host plugin runs a
//! kernel once whatever the grid, so each kernel loops over its data itself.

mod particle {
    //! A `repr(C)` struct passed by value (24 bytes: `byval` on x86_64).
    #[repr(C)]
    #[derive(Clone, Copy, Debug)]
    pub struct Particle {
        pub x: f64,
        pub v: f64,
        pub mass: f64,
    }
}
pub use particle::Particle;

/// `data[i] += 1`: an array updated in place.
///
/// # Safety
/// `data` points at `n` mapped `i32`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn increment(data: *mut i32, n: usize) {
    let data = unsafe { core::slice::from_raw_parts_mut(data, n) };
    for v in data {
        *v += 1;
    }
}

/// `out[i] = a * x[i] + y[i]`: read-only inputs, a write-only output, an `f32` scalar.
///
/// # Safety
/// `x`, `y` and `out` point at `n` mapped `f32`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn saxpy(a: f32, x: *const f32, y: *const f32, out: *mut f32, n: usize) {
    for i in 0..n {
        unsafe { *out.add(i) = a * *x.add(i) + *y.add(i) };
    }
}

/// Scalars of every width: `out = a + b * c + d` with `i32`, `i64`, `f32`, `f64`.
///
/// # Safety
/// `out` points at one mapped `f64`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mix(a: i32, b: i64, c: f32, d: f64, out: *mut f64) {
    unsafe { *out = f64::from(a) + b as f64 * f64::from(c) + d };
}

/// One time step of a particle passed by value (the kernel may change its copy).
///
/// # Safety
/// `out` points at one mapped `Particle`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn step(mut p: Particle, force: f64, dt: f64, out: *mut Particle) {
    p.v += force / p.mass * dt;
    p.x += p.v * dt;
    unsafe { *out = p };
}

/// The sum of a slice (pointer plus length).
///
/// # Safety
/// `values` points at `n` mapped `f64`s, `out` at one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sum(values: *const f64, n: usize, out: *mut f64) {
    let values = unsafe { core::slice::from_raw_parts(values, n) };
    unsafe { *out = values.iter().sum() };
}
