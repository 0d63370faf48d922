//! [`DevicePtr`]: the device address of mapped data, for vendor libraries.

use core::ffi::c_void;
use core::fmt;
use core::marker::PhantomData;

use super::Device;
use crate::args::DeviceData;
use crate::runtime as rt;

/// A device address of mapped data, for libraries that take device
/// pointers. Valid while the region or device buffer it came from lives; never dereference it
/// on the host (on libomptarget's CPU plugin it happens to be host memory).
pub struct DevicePtr<T: ?Sized + DeviceData> {
    ptr: *mut c_void,
    len: usize,
    _elem: PhantomData<*const T>,
}

impl<T: ?Sized + DeviceData> Clone for DevicePtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized + DeviceData> Copy for DevicePtr<T> {}

impl<T: ?Sized + DeviceData> fmt::Debug for DevicePtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DevicePtr({:p}, {} elements)", self.ptr, self.len)
    }
}

impl<T: ?Sized + DeviceData> DevicePtr<T> {
    /// The device copy of the `bytes` bytes (`len` elements) at `host`,
    /// which a region maps on `device`.
    pub(super) fn of_mapped(device: Device, host: *const u8, bytes: usize, len: usize) -> Self {
        DevicePtr {
            ptr: device_address(device, host, bytes),
            len,
            _elem: PhantomData,
        }
    }

    /// A device address of `len` elements.
    pub(super) fn from_raw(ptr: *mut c_void, len: usize) -> Self {
        DevicePtr {
            ptr,
            len,
            _elem: PhantomData,
        }
    }

    /// The device address of the first element.
    pub fn as_ptr(&self) -> *const T::Elem {
        self.ptr.cast()
    }

    /// The device address of the first element, for writing.
    pub fn as_mut_ptr(&self) -> *mut T::Elem {
        self.ptr.cast()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

fn device_address(device: Device, ptr: *const u8, bytes: usize) -> *mut c_void {
    if bytes == 0 {
        return core::ptr::null_mut();
    }
    // SAFETY: an OpenMP query on a host address the caller's region maps.
    unsafe { rt::omp_get_mapped_ptr(ptr.cast(), device.0 as i32) }
}
