//! [`AnyBitPattern`]: the types that write-only (FROM) data may hold.

use super::DeviceCopy;

/// A [`DeviceCopy`] type for which every bit pattern is a valid value: the
/// integer and float types, arrays of them, and `#[repr(C)]` structs of them
/// with `#[derive(offload::AnyBitPattern)]`.
///
/// Write-only data ([`Out`](crate::Out) parameters, [`map_out`](crate::map_out)
/// regions) is copied back from device memory that nothing initialised where
/// the kernel did not write it, so it may hold any bytes: a `bool` or a
/// struct with a `bool` field could come back as no valid value. Such types
/// go through [`InOut`](crate::InOut) parameters (launched on `&mut x`) and
/// [`map_mut`](crate::map_mut) instead, which copy the host's values in
/// first (a kernel's `&mut T` or `&mut [T]` parameter is refused: every
/// thread would get the same `&mut`).
///
/// # Safety
/// Every bit pattern of `size_of::<Self>()` bytes (padding aside) must be a
/// valid `Self`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written-only (mapped FROM): not every bit pattern is a `{Self}`",
    label = "not an `AnyBitPattern` type",
    note = "write-only data comes back from uninitialised device memory where the kernel did not write it; use `InOut` (launched on `&mut x`, or `map_mut`) for types such as `bool`, or `#[derive(offload::AnyBitPattern)]` on a struct of integers and floats"
)]
pub unsafe trait AnyBitPattern: DeviceCopy {}

macro_rules! any_bit_pattern {
    ($($t:ty),*) => { $(
        // SAFETY: every bit pattern is a value of an integer or float type.
        unsafe impl AnyBitPattern for $t {}
    )* };
}
any_bit_pattern!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

// SAFETY: an array's bytes are its elements' bytes.
unsafe impl<T: AnyBitPattern, const N: usize> AnyBitPattern for [T; N] {}
