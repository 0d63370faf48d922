//! Kernel argument types: what may cross to the device, and how.

use core::marker::PhantomData;
use core::ptr::NonNull;

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
pub unsafe trait DeviceCopy: Copy + 'static {}

macro_rules! device_copy {
    ($($t:ty),*) => { $(
        // SAFETY: a primitive: C layout, no pointers.
        unsafe impl DeviceCopy for $t {}
    )* };
}
device_copy!(
    u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64, bool
);

// SAFETY: an array of DeviceCopy elements has their layout, repeated.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {}

/// What a mapped region or a device pointer can hold: one [`DeviceCopy`]
/// value or a slice of them.
///
/// # Safety
/// `count` must be the number of `Elem`s the value holds.
pub unsafe trait DeviceData {
    /// The element type.
    type Elem: DeviceCopy;
    /// Number of elements.
    fn count(&self) -> usize;
}

// SAFETY: one value is one element.
unsafe impl<T: DeviceCopy> DeviceData for T {
    type Elem = T;
    fn count(&self) -> usize {
        1
    }
}

// SAFETY: a slice holds `len` elements.
unsafe impl<T: DeviceCopy> DeviceData for [T] {
    type Elem = T;
    fn count(&self) -> usize {
        self.len()
    }
}

/// A host value a launch may read (a `&T`/`&[T]` kernel parameter): a
/// reference to a `T`, a slice, array or `Vec` for `[T]`, or a mapped region.
///
/// # Safety
/// `host_ptr` must point at `bytes` bytes (`count` elements) that stay valid
/// and unchanged for the lifetime of `self`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed where the kernel reads a `{T}`",
    note = "pass a shared reference (`&x`: a value, slice, array or Vec), or a mapped region (`&region`)"
)]
pub unsafe trait HostIn<T: ?Sized> {
    /// The host address (libomptarget's key for the mapping).
    fn host_ptr(&self) -> *const u8;
    /// Number of elements.
    fn count(&self) -> usize;
    /// Size in bytes.
    fn bytes(&self) -> usize;
}

/// A host value a launch may write (a `&mut T`, `&mut [T]` or [`Out`] kernel
/// parameter): a mutable reference, slice, array or `Vec`, or a mutable
/// mapped region.
///
/// # Safety
/// `host_ptr` must point at `bytes` bytes (`count` elements) that `self`
/// borrows exclusively.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed where the kernel writes a `{T}`",
    note = "pass a mutable reference (`&mut x`: a value, slice, array or Vec), or a mutable mapped region (`&mut region` from `offload::map_mut`/`map_out`)"
)]
pub unsafe trait HostMut<T: ?Sized> {
    /// The host address (libomptarget's key for the mapping).
    fn host_ptr(&mut self) -> *mut u8;
    /// Number of elements.
    fn count(&self) -> usize;
    /// Size in bytes.
    fn bytes(&self) -> usize;
}

// SAFETY: the reference is valid and shared for its lifetime.
unsafe impl<T: DeviceCopy> HostIn<T> for &T {
    fn host_ptr(&self) -> *const u8 {
        (*self as *const T).cast()
    }
    fn count(&self) -> usize {
        1
    }
    fn bytes(&self) -> usize {
        size_of::<T>()
    }
}

// SAFETY: the reference is valid and exclusive for its lifetime.
unsafe impl<T: DeviceCopy> HostMut<T> for &mut T {
    fn host_ptr(&mut self) -> *mut u8 {
        (*self as *mut T).cast()
    }
    fn count(&self) -> usize {
        1
    }
    fn bytes(&self) -> usize {
        size_of::<T>()
    }
}

macro_rules! slice_like {
    ($(($($g:tt)*) $shared:ty, $exclusive:ty;)*) => { $(
        // SAFETY: the slice is valid and shared for the reference's lifetime.
        unsafe impl<T: DeviceCopy $($g)*> HostIn<[T]> for $shared {
            fn host_ptr(&self) -> *const u8 {
                self.as_ptr().cast()
            }
            fn count(&self) -> usize {
                self.len()
            }
            fn bytes(&self) -> usize {
                size_of::<T>() * self.len()
            }
        }
        // SAFETY: the slice is borrowed exclusively for the reference's lifetime.
        unsafe impl<T: DeviceCopy $($g)*> HostMut<[T]> for $exclusive {
            fn host_ptr(&mut self) -> *mut u8 {
                self.as_mut_ptr().cast()
            }
            fn count(&self) -> usize {
                self.len()
            }
            fn bytes(&self) -> usize {
                size_of::<T>() * self.len()
            }
        }
    )* };
}

slice_like! {
    () &[T], &mut [T];
    (, const N: usize) &[T; N], &mut [T; N];
}
#[cfg(not(feature = "device"))]
slice_like! {
    () &alloc::vec::Vec<T>, &mut alloc::vec::Vec<T>;
}

/// A write-only kernel parameter: mapped FROM the device only, so nothing is
/// copied in and the kernel may only write it (its device memory starts
/// uninitialised). `Out<'_, [T]>` for a slice, `Out<'_, T>` for one value.
///
/// On the host, pass a `&mut` slice, array, `Vec` or value (or a
/// [`MappedMut`](crate::MappedMut)).
pub struct Out<'a, T: ?Sized> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<'a, T: DeviceCopy> Out<'a, [T]> {
    /// A write-only view of `slice`.
    pub fn new(slice: &'a mut [T]) -> Self {
        Out {
            ptr: NonNull::from(slice),
            _borrow: PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.ptr.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes element `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[track_caller]
    pub fn set(&mut self, i: usize, value: T) {
        assert!(
            i < self.len(),
            "Out::set: index {i} out of bounds (len {})",
            self.len()
        );
        // SAFETY: `i` is in bounds of the exclusively borrowed slice.
        unsafe { self.ptr.cast::<T>().add(i).write(value) }
    }

    /// Writes `value` to every element.
    pub fn fill(&mut self, value: T) {
        for i in 0..self.len() {
            // SAFETY: `i` is in bounds of the exclusively borrowed slice.
            unsafe { self.ptr.cast::<T>().add(i).write(value) }
        }
    }
}

impl<'a, T: DeviceCopy> Out<'a, T> {
    /// A write-only view of `value`.
    pub fn new_one(value: &'a mut T) -> Self {
        Out {
            ptr: NonNull::from(value),
            _borrow: PhantomData,
        }
    }

    /// Writes the value.
    pub fn write(&mut self, value: T) {
        // SAFETY: the pointer is valid and exclusively borrowed.
        unsafe { self.ptr.write(value) }
    }
}

macro_rules! raw_wrapper {
    ($(#[$doc:meta])* $name:ident, $ptr:ty, $dir:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name<T: DeviceCopy> {
            ptr: $ptr,
            len: usize,
        }

        impl<T: DeviceCopy> $name<T> {
            #[doc = concat!("A raw pointer to `len` elements, mapped ", $dir, ".")]
            ///
            /// # Safety
            /// On the host, `ptr` must point at `len` valid elements for the
            /// whole launch it is passed to (a launch reads or writes them
            /// there as the direction says).
            pub const unsafe fn new(ptr: $ptr, len: usize) -> Self {
                $name { ptr, len }
            }

            /// The pointer (in a kernel: the device address).
            pub const fn as_ptr(&self) -> $ptr {
                self.ptr
            }

            /// Number of elements.
            pub const fn len(&self) -> usize {
                self.len
            }

            /// Whether there are no elements.
            pub const fn is_empty(&self) -> bool {
                self.len == 0
            }
        }
    };
}

raw_wrapper!(
    /// A raw pointer argument the device only reads (mapped TO).
    RawIn, *const T, "TO the device"
);
raw_wrapper!(
    /// A raw pointer argument the device only writes (mapped FROM).
    RawOut, *mut T, "FROM the device"
);
raw_wrapper!(
    /// A raw pointer argument the device reads and writes (mapped TO|FROM).
    RawInOut, *mut T, "TO and FROM the device"
);
