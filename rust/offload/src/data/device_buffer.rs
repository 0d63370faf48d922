//! [`DeviceBuffer`]: device memory that no host data mirrors.

use alloc::vec::Vec;
use core::ffi::{c_int, c_void};
use core::marker::PhantomData;
use core::ptr::NonNull;

use super::live::Ranges;
use super::{BufferError, BufferProblem, Device, DevicePtr};
use crate::args::{AnyBitPattern, DeviceCopy, HostIn, HostMut};
use crate::runtime::{self as rt, reserve};

/// `len` elements of `T` in one device's memory (`omp_target_alloc`),
/// freed when dropped: copied to and from the host explicitly, and passed
/// to kernels as `&buffer` (a `&[T]` parameter) or `&mut buffer` (an
/// `InOut<'_, [T]>` or `Out<'_, [T]>`), where nothing is copied.
///
/// ```no_run
/// # use offload::{kernel, Launch};
/// # #[kernel] pub fn scale(a: f32, x: offload::InOut<'_, [f32]>) {}
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut x = offload::Device::DEFAULT.alloc_from(&[1.0f32, 2.0, 3.0])?;
/// scale(&Launch::grid(1, 64), 2.0, &mut x)?;          // no copies
/// assert_eq!(x.to_vec()?, [2.0, 4.0, 6.0]);
/// # Ok(()) }
/// ```
///
/// A launch finds the buffer through a host key: an address range reserved
/// in the host's address space (no memory behind it) that libomptarget
/// associates with the buffer (`omp_target_associate_ptr`), so it finds the
/// buffer present and passes its device address. A launch on another
/// device than the buffer's is an error ([`OTHER_DEVICE`](crate::OTHER_DEVICE)).
/// Memory from [`Device::alloc`] starts zeroed (so any `T` may be read
/// back), [`Device::alloc_from`] copies host values in.
pub struct DeviceBuffer<T: DeviceCopy> {
    device: Device,
    /// The device address (null when empty).
    ptr: *mut c_void,
    len: usize,
    /// The host key associated with `ptr` (dangling when empty).
    key: NonNull<T>,
    /// The key's range among the live regions (None when empty).
    live: Option<Ranges>,
    _elem: PhantomData<T>,
}

// SAFETY: the buffer owns its device memory; `&self` methods only read it.
unsafe impl<T: DeviceCopy> Send for DeviceBuffer<T> {}
// SAFETY: as above: shared access only reads.
unsafe impl<T: DeviceCopy> Sync for DeviceBuffer<T> {}

impl Device {
    /// A buffer of `len` zeroed elements on this device.
    pub fn alloc<T: AnyBitPattern>(self, len: usize) -> Result<DeviceBuffer<T>, BufferError> {
        let mut buffer = DeviceBuffer::allocate(self, len, "alloc")?;
        buffer.memset_zero()?;
        Ok(buffer)
    }

    /// A buffer on this device holding a copy of `data`.
    pub fn alloc_from<T: DeviceCopy>(self, data: &[T]) -> Result<DeviceBuffer<T>, BufferError> {
        let mut buffer = DeviceBuffer::allocate(self, data.len(), "alloc_from")?;
        buffer.copy_from_host(data)?;
        Ok(buffer)
    }
}

impl<T: DeviceCopy> DeviceBuffer<T> {
    /// Allocates `len` elements (contents unspecified until written).
    fn allocate(device: Device, len: usize, op: &'static str) -> Result<Self, BufferError> {
        let bytes = len.saturating_mul(size_of::<T>());
        let error = |device, problem| BufferError {
            op,
            device,
            bytes,
            problem,
        };
        if !device.exists() {
            return Err(error(device.number(), BufferProblem::NoSuchDevice));
        }
        let device = Device(device.number());
        if len.checked_mul(size_of::<T>()).is_none() || bytes > isize::MAX as usize {
            return Err(error(device.0, BufferProblem::TooLarge));
        }
        let mut buffer = DeviceBuffer {
            device,
            ptr: core::ptr::null_mut(),
            len,
            key: NonNull::dangling(),
            live: None,
            _elem: PhantomData,
        };
        if bytes == 0 {
            return Ok(buffer);
        }
        let number = device.0 as c_int;
        // SAFETY: an allocation on a device of the runtime.
        buffer.ptr = unsafe { rt::omp_target_alloc(bytes, number) };
        let key = reserve::reserve(bytes);
        let (Some(key), false) = (NonNull::new(key), buffer.ptr.is_null()) else {
            if !key.is_null() {
                // SAFETY: just reserved, not associated.
                unsafe { reserve::release(key, bytes) };
            }
            // Drop frees the device memory; the key stays dangling.
            return Err(error(device.0, BufferProblem::OutOfMemory));
        };
        // SAFETY: the key is `bytes` of reserved host address space, the
        // device memory `bytes` of this device's.
        let code =
            unsafe { rt::omp_target_associate_ptr(key.as_ptr(), buffer.ptr, bytes, 0, number) };
        if code != 0 {
            // SAFETY: reserved above, not associated.
            unsafe { reserve::release(key.as_ptr(), bytes) };
            return Err(error(device.0, BufferProblem::RuntimeFailed(code)));
        }
        buffer.key = key.cast();
        // A fresh reservation overlaps no live host range.
        let live = Ranges::region(device.0, [(key.as_ptr() as usize, bytes)], || ())
            .map(|(live, ())| live);
        let live = live.map_err(|_| {
            error(
                device.0,
                BufferProblem::RuntimeFailed(crate::OVERLAPPING_RANGE),
            )
        })?;
        // Launches on the buffer pass this address as it is.
        live.set_device_address(buffer.ptr as usize);
        buffer.live = Some(live);
        Ok(buffer)
    }

    fn bytes(&self) -> usize {
        self.len * size_of::<T>()
    }

    fn error(&self, op: &'static str, problem: BufferProblem) -> BufferError {
        BufferError {
            op,
            device: self.device.0,
            bytes: self.bytes(),
            problem,
        }
    }

    fn same_length(&self, op: &'static str, other: usize) -> Result<(), BufferError> {
        if other == self.len {
            return Ok(());
        }
        let problem = BufferProblem::LengthMismatch {
            buffer: self.len,
            other,
        };
        Err(self.error(op, problem))
    }

    /// Copies `bytes` between device memory and `other` (an address on
    /// `other_device`), in the direction `to_device` says.
    ///
    /// # Safety
    /// `at..at + bytes` lies in the buffer and `other` points at `bytes`
    /// valid bytes of `other_device` (writable when not `to_device`).
    unsafe fn memcpy(
        &self,
        op: &'static str,
        (at, bytes): (usize, usize),
        (other, other_device): (*mut c_void, c_int),
        to_device: bool,
    ) -> Result<(), BufferError> {
        if bytes == 0 {
            return Ok(());
        }
        let here = self.device.0 as c_int;
        // SAFETY: the caller's contract.
        let code = unsafe {
            if to_device {
                rt::omp_target_memcpy(self.ptr, other, bytes, at, 0, here, other_device)
            } else {
                rt::omp_target_memcpy(other, self.ptr, bytes, 0, at, other_device, here)
            }
        };
        match code {
            0 => Ok(()),
            code => Err(self.error(op, BufferProblem::RuntimeFailed(code))),
        }
    }

    fn host() -> c_int {
        // SAFETY: an OpenMP query without preconditions.
        unsafe { rt::omp_get_initial_device() }
    }

    fn memset_zero(&mut self) -> Result<(), BufferError> {
        if self.ptr.is_null() {
            return Ok(());
        }
        // SAFETY: the buffer's own device memory.
        let done =
            unsafe { rt::omp_target_memset(self.ptr, 0, self.bytes(), self.device.0 as c_int) };
        if done.is_null() {
            return Err(self.error("alloc", BufferProblem::RuntimeFailed(-1)));
        }
        Ok(())
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device the buffer is on.
    pub fn device(&self) -> Device {
        self.device
    }

    /// The device address, for vendor libraries (valid while the buffer
    /// lives).
    pub fn device_ptr(&self) -> DevicePtr<[T]> {
        DevicePtr::from_raw(self.ptr, self.len)
    }

    /// The device address of elements `range` (valid while the buffer
    /// lives), for libraries that take a part of a buffer (an MPI send of
    /// one row); an error when the range is not in the buffer.
    pub fn device_ptr_range(
        &self,
        range: core::ops::Range<usize>,
    ) -> Result<DevicePtr<[T]>, BufferError> {
        self.byte_range("device_ptr_range", range.clone())?;
        let len = range.end - range.start;
        if len == 0 {
            return Ok(DevicePtr::from_raw(core::ptr::null_mut(), 0));
        }
        // In bounds (checked above), so inside the buffer's allocation.
        let ptr = self.ptr.cast::<T>().wrapping_add(range.start);
        Ok(DevicePtr::from_raw(ptr.cast(), len))
    }

    /// Copies `src` (of the buffer's length) to the device.
    pub fn copy_from_host(&mut self, src: &[T]) -> Result<(), BufferError> {
        self.same_length("copy_from_host", src.len())?;
        let host = (src.as_ptr().cast_mut().cast(), Self::host());
        // SAFETY: the whole buffer, from `src`'s bytes on the host.
        unsafe { self.memcpy("copy_from_host", (0, self.bytes()), host, true) }
    }

    /// Copies the device's elements to `dst` (of the buffer's length).
    pub fn copy_to_host(&self, dst: &mut [T]) -> Result<(), BufferError> {
        self.same_length("copy_to_host", dst.len())?;
        let host = (dst.as_mut_ptr().cast(), Self::host());
        // SAFETY: the whole buffer, into `dst`'s bytes on the host.
        unsafe { self.memcpy("copy_to_host", (0, self.bytes()), host, false) }
    }

    /// The device's elements, copied to a new `Vec`.
    pub fn to_vec(&self) -> Result<Vec<T>, BufferError> {
        let mut out: Vec<T> = Vec::with_capacity(self.len);
        let host = (out.as_mut_ptr().cast(), Self::host());
        // SAFETY: the whole buffer into the Vec's capacity of `len` elements.
        unsafe { self.memcpy("to_vec", (0, self.bytes()), host, false)? };
        // SAFETY: the copy wrote all `len` elements: device data of a
        // DeviceCopy type (zeroed, copied in, or written by kernels).
        unsafe { out.set_len(self.len) };
        Ok(out)
    }

    /// The byte offset and size of elements `range`, or an error when they
    /// are not all in the buffer.
    fn byte_range(
        &self,
        op: &'static str,
        range: core::ops::Range<usize>,
    ) -> Result<(usize, usize), BufferError> {
        let core::ops::Range { start, end } = range;
        if start <= end && end <= self.len {
            return Ok((start * size_of::<T>(), (end - start) * size_of::<T>()));
        }
        let problem = BufferProblem::OutOfRange {
            start,
            end,
            buffer: self.len,
        };
        Err(self.error(op, problem))
    }

    /// Copies elements `start..start + dst.len()` of the device's to `dst`,
    /// and nothing else (for instance one row of a grid, to send it).
    pub fn copy_range_to_host(&self, start: usize, dst: &mut [T]) -> Result<(), BufferError> {
        let end = start.saturating_add(dst.len());
        let range = self.byte_range("copy_range_to_host", start..end)?;
        let host = (dst.as_mut_ptr().cast(), Self::host());
        // SAFETY: a range inside the buffer (checked), into `dst`'s bytes.
        unsafe { self.memcpy("copy_range_to_host", range, host, false) }
    }

    /// Copies `src` to elements `start..start + src.len()` on the device,
    /// leaving the others as they are.
    pub fn copy_range_from_host(&mut self, start: usize, src: &[T]) -> Result<(), BufferError> {
        let end = start.saturating_add(src.len());
        let range = self.byte_range("copy_range_from_host", start..end)?;
        let host = (src.as_ptr().cast_mut().cast(), Self::host());
        // SAFETY: a range inside the buffer (checked), from `src`'s bytes.
        unsafe { self.memcpy("copy_range_from_host", range, host, true) }
    }

    /// Elements `range` of the device's, copied to a new `Vec` (only
    /// those).
    pub fn range_to_vec(&self, range: core::ops::Range<usize>) -> Result<Vec<T>, BufferError> {
        let bytes = self.byte_range("range_to_vec", range.clone())?;
        let len = range.end - range.start;
        let mut out: Vec<T> = Vec::with_capacity(len);
        let host = (out.as_mut_ptr().cast(), Self::host());
        // SAFETY: a range inside the buffer (checked) into the Vec's
        // capacity of `len` elements.
        unsafe { self.memcpy("range_to_vec", bytes, host, false)? };
        // SAFETY: the copy wrote all `len` elements (as in `to_vec`).
        unsafe { out.set_len(len) };
        Ok(out)
    }

    /// Copies `src` (a buffer of the same length, on any device) here.
    pub fn copy_from(&mut self, src: &DeviceBuffer<T>) -> Result<(), BufferError> {
        self.same_length("copy_from", src.len)?;
        let other = (src.ptr, src.device.0 as c_int);
        // SAFETY: both buffers whole, each on its own device.
        unsafe { self.memcpy("copy_from", (0, self.bytes()), other, true) }
    }

    /// Writes `value` to every element (one host copy, then copies on the
    /// device doubling the filled part).
    pub fn fill(&mut self, value: T) -> Result<(), BufferError> {
        if self.len == 0 {
            return Ok(());
        }
        let size = size_of::<T>();
        let host = ((&raw const value).cast_mut().cast(), Self::host());
        // SAFETY: the first element, from `value` on the host.
        unsafe { self.memcpy("fill", (0, size), host, true)? };
        let mut filled = 1;
        while filled < self.len {
            let n = filled.min(self.len - filled);
            let from = (self.ptr, self.device.0 as c_int);
            // SAFETY: elements filled..filled + n of the buffer from its
            // first n (already written, disjoint).
            unsafe { self.memcpy("fill", (filled * size, n * size), from, true)? };
            filled += n;
        }
        Ok(())
    }
}

impl<T: DeviceCopy> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        let number = self.device.0 as c_int;
        if let Some(live) = self.live.take() {
            drop(live);
            let key = self.key.as_ptr().cast::<c_void>();
            // SAFETY: the key this buffer associated and reserved, once.
            unsafe {
                rt::omp_target_disassociate_ptr(key, number);
                reserve::release(key, self.bytes());
            }
        }
        if !self.ptr.is_null() {
            // SAFETY: this buffer's allocation on its device, freed once.
            unsafe { rt::omp_target_free(self.ptr, number) };
        }
    }
}

impl<T: DeviceCopy> core::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "DeviceBuffer({} elements on device {})",
            self.len, self.device.0
        )
    }
}

// SAFETY: the key is associated with the buffer's device memory for the
// buffer's life, so a launch on its device finds it present and neither
// reads nor writes the key (a launch on another device is refused first:
// the key is a live region of the buffer's device); `&self` keeps the
// buffer alive and unchanged.
unsafe impl<T: DeviceCopy> HostIn<[T]> for &DeviceBuffer<T> {
    fn host_ptr(&self) -> *const u8 {
        self.key.as_ptr().cast()
    }
    fn count(&self) -> usize {
        self.len
    }
    fn bytes(&self) -> usize {
        DeviceBuffer::bytes(self)
    }
    fn keeps_mapped(&self) -> Option<i64> {
        Some(self.device.0)
    }
}

// SAFETY: as above, borrowed exclusively.
unsafe impl<T: DeviceCopy> HostMut<[T]> for &mut DeviceBuffer<T> {
    fn host_ptr(&mut self) -> *mut u8 {
        self.key.as_ptr().cast()
    }
    fn count(&self) -> usize {
        self.len
    }
    fn bytes(&self) -> usize {
        DeviceBuffer::bytes(self)
    }
    fn keeps_mapped(&self) -> Option<i64> {
        Some(self.device.0)
    }
}
