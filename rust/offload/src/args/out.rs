//! [`Out`]: a write-only kernel parameter (mapped FROM).

use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use super::DeviceCopy;
use super::per_thread::{Elements, GridStrideChunksMut, GridStrideMut, Unsync};

/// A write-only kernel parameter: mapped FROM the device only, so nothing is
/// copied in (its device memory starts uninitialised, and what the kernel
/// leaves unwritten comes back as such, so `T` must be
/// [`AnyBitPattern`](crate::AnyBitPattern): `#[kernel]` refuses
/// `Out<'_, [bool]>`). `Out<'_, [T]>` for a slice, `Out<'_, T>` for one value.
///
/// Every thread of the launch gets the same `Out`; each writes only what is
/// its own, so no two threads write the same element: its grid-stride
/// elements ([`grid_stride`](Self::grid_stride), chunked:
/// [`grid_stride_chunks`](Self::grid_stride_chunks)), or all of it on the
/// grid's first thread ([`first_thread`](Self::first_thread)). The elements
/// are `MaybeUninit<T>` (write one with `slot.write(value)`): the kernel
/// cannot read what it did not write. Arbitrary indexed writes take
/// [`unsync`](Self::unsync), which is `unsafe`.
///
/// ```
/// # use offload::{kernel, Out};
/// #[kernel]
/// pub fn square(x: &[f32], mut y: Out<'_, [f32]>) {
///     for (i, slot) in y.grid_stride() {
///         slot.write(x[i] * x[i]);
///     }
/// }
/// ```
///
/// On the host, pass a `&mut` slice, array, `Vec` or value (or a
/// [`MappedMut`](crate::MappedMut)).
pub struct Out<'a, T: ?Sized> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<T: ?Sized> Out<'_, T> {
    /// The kernel entry point's view of its parameter.
    ///
    /// # Safety
    /// `ptr` is valid (readable, and writable, maybe uninitialised for
    /// `Out`) for the kernel, and every thread of the launch reaches it only
    /// through its own view made here: the per-thread parts keep the
    /// threads' accesses apart.
    #[cfg_attr(not(feature = "device"), allow(dead_code))]
    pub(crate) const unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        Out {
            ptr,
            _borrow: PhantomData,
        }
    }
}

impl<'a, T: DeviceCopy> Out<'a, [T]> {
    /// A write-only view of `slice` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new(slice: &'a mut [MaybeUninit<T>]) -> Self {
        let len = slice.len();
        let start = NonNull::from(slice).cast::<T>();
        Out {
            ptr: NonNull::slice_from_raw_parts(start, len),
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

    fn elements(&mut self) -> Elements<'_, MaybeUninit<T>> {
        // SAFETY: the view borrows the elements for 'a; every thread of the
        // launch reaches them only through its own `Out` (see the type).
        unsafe { Elements::new(self.ptr.cast(), self.len()) }
    }

    /// This thread's elements and their indices: from its linear id in the
    /// grid in steps of the grid's thread count, as
    /// [`grid_stride`](crate::grid_stride)`(self.len())` gives them. Every
    /// element goes to exactly one thread of the launch.
    pub fn grid_stride(&mut self) -> GridStrideMut<'_, MaybeUninit<T>> {
        self.elements().grid_stride()
    }

    /// This thread's chunks of `size` elements (the last chunk of the slice
    /// may be shorter) and their chunk indices (chunk `c` starts at element
    /// `c * size`): chunk `c` goes to the thread whose linear id is `c`
    /// modulo the grid's thread count.
    ///
    /// # Panics
    /// If `size` is 0.
    #[track_caller]
    pub fn grid_stride_chunks(&mut self, size: usize) -> GridStrideChunksMut<'_, MaybeUninit<T>> {
        self.elements().grid_stride_chunks(size)
    }

    /// All elements on the grid's first thread (linear id 0), `None` on
    /// every other thread.
    pub fn first_thread(&mut self) -> Option<&mut [MaybeUninit<T>]> {
        self.elements().first_thread()
    }

    /// Any element, written by index from any thread.
    ///
    /// # Safety
    /// While the view lives, no element it writes is written by another
    /// thread of the launch unless a synchronisation of the two threads
    /// (a team barrier, an atomic with release and acquire orderings)
    /// orders the two writes. Index checks stay: an index past the end
    /// panics.
    pub unsafe fn unsync(&mut self) -> Unsync<'_, MaybeUninit<T>> {
        self.elements().unsync()
    }
}

impl<'a, T: DeviceCopy> Out<'a, T> {
    /// A write-only view of `value` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new_one(value: &'a mut MaybeUninit<T>) -> Self {
        Out {
            ptr: NonNull::from(value).cast(),
            _borrow: PhantomData,
        }
    }

    /// The value on the grid's first thread (linear id 0), `None` on every
    /// other thread: one thread writes it.
    pub fn first_thread(&mut self) -> Option<&mut MaybeUninit<T>> {
        // SAFETY: a one-element view of the value, borrowed for 'a.
        let one = unsafe { Elements::new(self.ptr.cast::<MaybeUninit<T>>(), 1) };
        one.first_thread().map(|all| &mut all[0])
    }
}
