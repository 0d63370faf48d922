//! [`DeviceCopy`]: the types whose bytes mean the same on the device.

use offload_contract::layout;

/// A type whose bytes can be copied to an offload device and read there:
/// plain data with a C layout, no references, no pointers, no drop glue.
///
/// Implemented for the integer and float types, `bool`, arrays of
/// `DeviceCopy` types, and — with `#[derive(offload::DeviceCopy)]` — for
/// `#[repr(C)]` `Copy` structs whose fields are all `DeviceCopy`.
///
/// # Safety
/// The type must be `#[repr(C)]` (or a primitive or array), valid for any
/// bytes a kernel may write into it where it is mutable, and hold no
/// pointers or references (a host address means nothing on the device).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed to an offload kernel",
    label = "not a `DeviceCopy` type",
    note = "kernel arguments are scalars, `#[repr(C)]` `Copy` structs with `#[derive(offload::DeviceCopy)]`, `&`/`&mut` references and slices of them, `offload::Out`, and `offload::RawIn`/`RawOut`/`RawInOut` for raw pointers"
)]
pub unsafe trait DeviceCopy: Copy + 'static {
    /// The type's layout word (size, alignment, field offsets and field
    /// layouts, see `offload_contract::layout`), computed by rustc in each
    /// build: the device image records it, the host's launcher compares its
    /// own with it. `#[derive(DeviceCopy)]` covers every field; the default
    /// covers size and alignment only.
    #[doc(hidden)]
    const LAYOUT: u64 = layout::word(size_of::<Self>(), align_of::<Self>(), layout::START);
}

macro_rules! device_copy {
    ($($t:ty),*) => { $(
        // SAFETY: a primitive: C layout, no pointers.
        unsafe impl DeviceCopy for $t {
            const LAYOUT: u64 = layout::scalar::<$t>();
        }
    )* };
}
device_copy!(
    u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64, bool
);

// SAFETY: an array of DeviceCopy elements has their layout, repeated.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {
    const LAYOUT: u64 = layout::array(size_of::<Self>(), align_of::<Self>(), N, T::LAYOUT);
}
