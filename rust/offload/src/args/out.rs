//! [`Out`]: a write-only kernel parameter (mapped FROM).

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::DeviceCopy;

/// A write-only kernel parameter: mapped FROM the device only, so nothing is
/// copied in and the kernel may only write it (its device memory starts
/// uninitialised, and what the kernel leaves unwritten comes back as such,
/// so `T` must be [`AnyBitPattern`](crate::AnyBitPattern): `#[kernel]`
/// refuses `Out<'_, [bool]>`). `Out<'_, [T]>` for a slice, `Out<'_, T>` for
/// one value.
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
