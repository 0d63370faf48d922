//! [`HostIn`] and [`HostMut`]: the host values a launcher takes for a
//! kernel's reference, slice and [`Out`](super::Out) parameters.

use super::DeviceCopy;

/// A host value a launch may read (a `&T`/`&[T]` kernel parameter): a
/// reference to a `T`, a slice, array or `Vec` for `[T]`, a mapped region,
/// or a device buffer.
///
/// # Safety
/// `host_ptr` must point at `bytes` bytes (`count` elements) that stay valid
/// and unchanged for the lifetime of `self`, or be a host key that
/// libomptarget has associated with `bytes` bytes of device memory on one
/// device for that long and that is a live region of that device (a
/// [`DeviceBuffer`](crate::DeviceBuffer): a launch there finds it present
/// and never touches the key, a launch elsewhere is refused).
/// [`keeps_mapped`](Self::keeps_mapped) may name a device only if `self`
/// holds the mapping of those bytes on it (a region or device buffer) for
/// its whole lifetime: a launch then passes the device address without
/// mapping anything, so no other owner may be able to end that mapping.
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
    /// The device on which `self` itself keeps the bytes mapped for its
    /// whole lifetime (a region or device buffer), else `None`: the launch
    /// maps them (libomptarget counts a reference, so a mapping another
    /// owner ends meanwhile stays until the launch returns).
    fn keeps_mapped(&self) -> Option<i64> {
        None
    }
}

/// A host value a launch may write (a `&mut T`, `&mut [T]` or
/// [`Out`](super::Out) kernel parameter): a mutable reference, slice, array
/// or `Vec`, a mutable mapped region, or a device buffer.
///
/// # Safety
/// `host_ptr` must point at `bytes` bytes (`count` elements) that `self`
/// borrows exclusively, or be a device buffer's host key as for
/// [`HostIn`], borrowed exclusively; [`keeps_mapped`](Self::keeps_mapped)
/// as for [`HostIn`].
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
    /// As [`HostIn::keeps_mapped`].
    fn keeps_mapped(&self) -> Option<i64> {
        None
    }
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
