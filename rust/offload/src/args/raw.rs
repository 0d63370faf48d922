//! [`RawIn`], [`RawOut`] and [`RawInOut`]: raw pointers with a length and
//! a direction.

use super::DeviceCopy;

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
            /// there as the direction says). Mapped FROM only ([`RawOut`]),
            /// the elements a kernel does not write come back as whatever
            /// the device memory held: unless `T` is
            /// [`AnyBitPattern`](crate::AnyBitPattern), the kernel must write
            /// every element.
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
