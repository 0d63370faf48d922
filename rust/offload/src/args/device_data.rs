//! [`DeviceData`]: what a region or a device pointer holds.

use super::DeviceCopy;

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
