//! Ranges of a device buffer handed to MPI by device address (the
//! [`ExchangePath::DeviceAddress`](crate::ExchangePath) path).

use core::ffi::c_void;
use core::marker::PhantomData;
use core::ops::Range;

use mpi::Count;
use mpi::datatype::{AsDatatype, Buffer, BufferMut, Collection, Equivalence, Pointer, PointerMut};
use offload::{DeviceBuffer, DeviceCopy};

use crate::ExchangeError;

/// Elements of a device buffer, by device address, borrowed (shared) for
/// one MPI send. Built only on the device-address path, where the MPI
/// library reported that it reads and writes device memory.
pub(crate) struct DeviceRange<'a, T> {
    ptr: *mut c_void,
    count: Count,
    _buffer: PhantomData<&'a [T]>,
}

/// Elements of a device buffer, by device address, borrowed exclusively
/// for one MPI receive (the device-address path only, as above).
pub(crate) struct DeviceRangeMut<'a, T> {
    range: DeviceRange<'a, T>,
    _buffer: PhantomData<&'a mut [T]>,
}

impl<'a, T: DeviceCopy + Equivalence> DeviceRange<'a, T> {
    /// Elements `range` of `buffer`, to send.
    pub(crate) fn of(
        buffer: &'a DeviceBuffer<T>,
        range: Range<usize>,
    ) -> Result<Self, ExchangeError> {
        let ptr = buffer.device_ptr_range(range)?;
        let count = Count::try_from(ptr.len()).map_err(|_| ExchangeError::TooLong(ptr.len()))?;
        Ok(DeviceRange {
            ptr: ptr.as_mut_ptr().cast(),
            count,
            _buffer: PhantomData,
        })
    }
}

impl<'a, T: DeviceCopy + Equivalence> DeviceRangeMut<'a, T> {
    /// Elements `range` of `buffer`, to receive into.
    pub(crate) fn of(
        buffer: &'a mut DeviceBuffer<T>,
        range: Range<usize>,
    ) -> Result<Self, ExchangeError> {
        Ok(DeviceRangeMut {
            range: DeviceRange::of(buffer, range)?,
            _buffer: PhantomData,
        })
    }
}

// SAFETY: `count` elements of `T` at `ptr` lie in a device buffer borrowed
// for the MPI call; the MPI library reported that it accesses device memory.
unsafe impl<T: Equivalence> Pointer for DeviceRange<'_, T> {
    fn pointer(&self) -> *const c_void {
        self.ptr
    }
}

// SAFETY: the range holds `count` elements.
unsafe impl<T: Equivalence> Collection for DeviceRange<'_, T> {
    fn count(&self) -> Count {
        self.count
    }
}

// SAFETY: the elements are `T`s.
unsafe impl<T: Equivalence> AsDatatype for DeviceRange<'_, T> {
    type Out = <T as Equivalence>::Out;
    fn as_datatype(&self) -> Self::Out {
        T::equivalent_datatype()
    }
}

// SAFETY: pointer, count and datatype describe the range (above).
unsafe impl<T: Equivalence> Buffer for DeviceRange<'_, T> {}

// SAFETY: as for `DeviceRange`; the buffer is borrowed exclusively, so
// nothing else reads or writes the range while MPI writes it.
unsafe impl<T: Equivalence> PointerMut for DeviceRangeMut<'_, T> {
    fn pointer_mut(&mut self) -> *mut c_void {
        self.range.ptr
    }
}

// SAFETY: as for `DeviceRange`.
unsafe impl<T: Equivalence> Collection for DeviceRangeMut<'_, T> {
    fn count(&self) -> Count {
        self.range.count
    }
}

// SAFETY: as for `DeviceRange`.
unsafe impl<T: Equivalence> AsDatatype for DeviceRangeMut<'_, T> {
    type Out = <T as Equivalence>::Out;
    fn as_datatype(&self) -> Self::Out {
        T::equivalent_datatype()
    }
}

// SAFETY: pointer, count and datatype describe the range (above).
unsafe impl<T: Equivalence> BufferMut for DeviceRangeMut<'_, T> {}
