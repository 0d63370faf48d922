//! The device crate of the multi-crate test: plain `extern "C"` kernels,
//! compiled for x86_64 as a cdylib through offload-wrap-kernels.

/// `x[i] *= factor`.
///
/// # Safety
/// `x` points at `n` mapped `f32`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scale(x: *mut f32, factor: f32, n: usize) {
    for i in 0..n {
        unsafe { *x.add(i) *= factor };
    }
}

/// `out[i] = a[i] + b[i]`.
///
/// # Safety
/// `a`, `b` and `out` point at `n` mapped `f32`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn add(a: *const f32, b: *const f32, out: *mut f32, n: usize) {
    for i in 0..n {
        unsafe { *out.add(i) = *a.add(i) + *b.add(i) };
    }
}

/// `out[i] = value + i`.
///
/// # Safety
/// `out` points at `n` mapped `u32`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fill(out: *mut u32, value: u32, n: usize) {
    for i in 0..n {
        unsafe { *out.add(i) = value + i as u32 };
    }
}
