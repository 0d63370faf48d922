//! Atomics in kernels: on device memory (kernel parameters `&[A]` and `&A`),
//! on shared memory, anywhere a `&A` reaches.
//!
//! The integer atomics are `core::sync::atomic`'s, re-exported here; the
//! float atomics [`AtomicF32`] and [`AtomicF64`] are this module's. All are
//! real atomics on every target: hardware atomics on AMDGPU (`global_atomic_*`
//! on device memory) and NVPTX (`atom.global.*`), the CPU's on the x86_64
//! image. Many threads of a launch may update the same element: that is
//! what atomics are for, and it is sound.
//!
//! As kernel parameters they are mapped TO|FROM, and the host passes the
//! plain values (`&mut [u32]` for `&[AtomicU32]`, `&mut f32` for
//! `&AtomicF32`): a histogram's bins go in zeroed and come back counted.
//!
//! ```
//! use offload::atomic::{AtomicU32, AtomicF32, Ordering};
//! use offload::kernel;
//!
//! /// Counts each value's bin; adds all values into `total`.
//! #[kernel]
//! pub fn histogram(values: &[u32], bins: &[AtomicU32], total: &AtomicF32) {
//!     let mut sum = 0.0;
//!     for i in offload::grid_stride(values.len()) {
//!         let bin = values[i] as usize % bins.len();
//!         bins[bin].fetch_add(1, Ordering::Relaxed);
//!         sum += values[i] as f32;
//!     }
//!     total.fetch_add(sum, Ordering::Relaxed);
//! }
//!
//! // On the host:
//! fn run(values: &[u32], bins: &mut [u32], total: &mut f32) -> Result<(), offload::LaunchError> {
//!     histogram(&offload::Launch::grid(64, 256), values, bins, total)
//! }
//! ```
//!
//! # Float atomics: a compare-exchange loop
//!
//! [`AtomicF32::fetch_add`] (and the other read-modify-write operations of
//! the float atomics) is a compare-exchange loop on the value's bits, not a
//! native `atomicrmw fadd`: Rust has no float atomic operation, stable or in
//! `core::intrinsics`, so a kernel crate cannot ask LLVM for one. The loop is
//! atomic on every target (`global_atomic_cmpswap` on AMDGPU,
//! `atom.global.cas.b32` on NVPTX) and is also what LLVM makes of a
//! system-scope `atomicrmw fadd` on gfx90a, whose native float add is not
//! atomic on fine-grained (host-coherent) memory. Under contention it
//! retries, so it is slower than an integer `fetch_add`: accumulate in a
//! local first and add once per thread, as the example above does.

pub use core::sync::atomic::{
    AtomicI32, AtomicI64, AtomicIsize, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};

use crate::DeviceCopy;

mod sealed {
    pub trait Sealed {}
}

/// An atomic type a kernel parameter may be (`&[A]`, `&A`): its memory is
/// a `Value`'s, which the host passes (`&mut [Value]`, `&mut Value`).
///
/// Implemented for [`AtomicU32`], [`AtomicI32`], [`AtomicU64`],
/// [`AtomicI64`], [`AtomicUsize`], [`AtomicIsize`], [`AtomicF32`] and
/// [`AtomicF64`]; sealed.
///
/// # Safety
/// `Self` has the size, alignment and valid bit patterns of `Value`, and
/// every access through `&Self` is atomic.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an atomic kernel parameter",
    label = "not an atomic type of `offload::atomic`",
    note = "atomic kernel parameters are `&[A]` and `&A` for A = AtomicU32, AtomicI32, AtomicU64, AtomicI64, AtomicUsize, AtomicIsize (core::sync::atomic, re-exported by offload::atomic), offload::atomic::AtomicF32 or AtomicF64"
)]
pub unsafe trait DeviceAtomic: Sync + sealed::Sealed {
    /// The plain type of the same memory, which the host passes.
    type Value: DeviceCopy;
}

macro_rules! device_atomic {
    ($($atomic:ty => $value:ty),* $(,)?) => { $(
        impl sealed::Sealed for $atomic {}
        // SAFETY: the size and alignment are checked below, an atomic of an
        // integer or float holds any of its bit patterns, and every access
        // through `&$atomic` is atomic.
        unsafe impl DeviceAtomic for $atomic {
            type Value = $value;
        }
        const _: () = assert!(
            size_of::<$atomic>() == size_of::<$value>()
                && align_of::<$atomic>() == align_of::<$value>()
        );
    )* };
}
device_atomic!(
    AtomicU32 => u32, AtomicI32 => i32, AtomicU64 => u64, AtomicI64 => i64,
    AtomicUsize => usize, AtomicIsize => isize, AtomicF32 => f32, AtomicF64 => f64,
);

/// The failure ordering of a compare-exchange whose success ordering is
/// `order` (the strongest one allowed).
const fn failure_ordering(order: Ordering) -> Ordering {
    match order {
        Ordering::Release | Ordering::Relaxed => Ordering::Relaxed,
        Ordering::AcqRel | Ordering::Acquire => Ordering::Acquire,
        _ => Ordering::SeqCst,
    }
}

macro_rules! atomic_float {
    ($(#[$doc:meta])* $name:ident, $float:ty, $bits:ident) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Default)]
        pub struct $name($bits);

        impl $name {
            #[doc = concat!("A new atomic `", stringify!($float), "`.")]
            pub const fn new(value: $float) -> Self {
                $name($bits::new(value.to_bits()))
            }

            /// The value, consuming the atomic.
            pub fn into_inner(self) -> $float {
                <$float>::from_bits(self.0.into_inner())
            }

            /// Loads the value.
            pub fn load(&self, order: Ordering) -> $float {
                <$float>::from_bits(self.0.load(order))
            }

            /// Stores `value`.
            pub fn store(&self, value: $float, order: Ordering) {
                self.0.store(value.to_bits(), order)
            }

            /// Stores `value`, returning the previous value.
            pub fn swap(&self, value: $float, order: Ordering) -> $float {
                <$float>::from_bits(self.0.swap(value.to_bits(), order))
            }

            /// Stores `new` if the value is bit for bit `current` (so a NaN
            /// matches itself and `0.0` does not match `-0.0`); the previous
            /// value, `Ok` if it was stored.
            pub fn compare_exchange(
                &self,
                current: $float,
                new: $float,
                success: Ordering,
                failure: Ordering,
            ) -> Result<$float, $float> {
                self.0
                    .compare_exchange(current.to_bits(), new.to_bits(), success, failure)
                    .map(<$float>::from_bits)
                    .map_err(<$float>::from_bits)
            }

            /// Replaces the value `v` with `f(v)`, atomically, by a
            /// compare-exchange loop; the previous value.
            pub fn fetch_update_with(
                &self,
                order: Ordering,
                mut f: impl FnMut($float) -> $float,
            ) -> $float {
                let mut current = self.0.load(Ordering::Relaxed);
                loop {
                    let new = f(<$float>::from_bits(current)).to_bits();
                    match self.0.compare_exchange_weak(
                        current,
                        new,
                        order,
                        failure_ordering(order),
                    ) {
                        Ok(previous) => return <$float>::from_bits(previous),
                        Err(actual) => current = actual,
                    }
                }
            }

            /// Adds `value`, returning the previous value (a
            /// compare-exchange loop, see the [module docs](self)).
            pub fn fetch_add(&self, value: $float, order: Ordering) -> $float {
                self.fetch_update_with(order, |v| v + value)
            }

            /// Subtracts `value`, returning the previous value.
            pub fn fetch_sub(&self, value: $float, order: Ordering) -> $float {
                self.fetch_update_with(order, |v| v - value)
            }

            /// Stores the maximum of the value and `value`
            #[doc = concat!("([`", stringify!($float), "::max`]),")]
            /// returning the previous value.
            pub fn fetch_max(&self, value: $float, order: Ordering) -> $float {
                self.fetch_update_with(order, |v| v.max(value))
            }

            /// Stores the minimum of the value and `value`
            #[doc = concat!("([`", stringify!($float), "::min`]),")]
            /// returning the previous value.
            pub fn fetch_min(&self, value: $float, order: Ordering) -> $float {
                self.fetch_update_with(order, |v| v.min(value))
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(&self.load(Ordering::Relaxed), f)
            }
        }
    };
}

atomic_float!(
    /// An `f32` that threads update atomically; the memory of an `f32`.
    AtomicF32, f32, AtomicU32
);
atomic_float!(
    /// An `f64` that threads update atomically; the memory of an `f64`.
    AtomicF64, f64, AtomicU64
);

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn float_fetch_add_from_many_threads_loses_nothing() {
        let total = AtomicF32::new(0.5);
        let wide = AtomicF64::new(0.0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        total.fetch_add(1.0, Ordering::Relaxed);
                        wide.fetch_sub(0.25, Ordering::AcqRel);
                    }
                });
            }
        });
        assert_eq!(total.into_inner(), 8000.5);
        assert_eq!(wide.into_inner(), -2000.0);
    }

    #[test]
    fn float_operations_return_the_previous_value() {
        let a = AtomicF64::new(2.0);
        assert_eq!(a.fetch_max(3.0, Ordering::SeqCst), 2.0);
        assert_eq!(a.fetch_min(-1.0, Ordering::Release), 3.0);
        assert_eq!(a.swap(5.0, Ordering::Acquire), -1.0);
        assert_eq!(
            a.compare_exchange(4.0, 0.0, Ordering::SeqCst, Ordering::SeqCst),
            Err(5.0)
        );
        assert_eq!(
            a.compare_exchange(5.0, 0.0, Ordering::SeqCst, Ordering::SeqCst),
            Ok(5.0)
        );
        let nan = AtomicF32::new(f32::NAN);
        assert!(nan.fetch_add(1.0, Ordering::Relaxed).is_nan());
        assert!(nan.load(Ordering::Relaxed).is_nan());
    }
}
