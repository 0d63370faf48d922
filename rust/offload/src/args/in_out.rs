//! [`InOut`]: a kernel parameter read and written in place (mapped TO|FROM).

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::DeviceCopy;
use super::per_thread::{Elements, GridStrideChunksMut, GridStrideMut, Unsync};

/// A kernel parameter updated in place: mapped TO and FROM the device, so
/// the host's values are copied in and the kernel's come back.
/// `InOut<'_, [T]>` for a slice, `InOut<'_, T>` for one value.
///
/// Every thread of the launch gets the same `InOut`, so a thread reaches
/// only what is its own and no two threads touch the same element: its
/// grid-stride elements ([`grid_stride`](Self::grid_stride), chunked:
/// [`grid_stride_chunks`](Self::grid_stride_chunks)), or all of it on the
/// grid's first thread ([`first_thread`](Self::first_thread)), each as a
/// `&mut T` — what rayon's `par_iter_mut` gives its threads. Arbitrary
/// indexed access takes [`unsync`](Self::unsync), which is `unsafe`;
/// elements many threads update take atomics (`&[AtomicU32]`, see
/// [`atomic`](crate::atomic)).
///
/// ```
/// # use offload::{kernel, InOut};
/// #[kernel]
/// pub fn increment(mut data: InOut<'_, [i32]>) {
///     for (_, x) in data.grid_stride() {
///         *x += 1;
///     }
/// }
/// ```
///
/// On the host, pass a `&mut` slice, array, `Vec` or value (or a
/// [`MappedMut`](crate::MappedMut)), as for a `&mut [T]`.
pub struct InOut<'a, T: ?Sized> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<T: ?Sized> InOut<'_, T> {
    /// The kernel entry point's view of its parameter.
    ///
    /// # Safety
    /// `ptr` is valid (readable, and writable, maybe uninitialised for
    /// `Out`) for the kernel, and every thread of the launch reaches it only
    /// through its own view made here: the per-thread parts keep the
    /// threads' accesses apart.
    #[cfg_attr(not(feature = "device"), allow(dead_code))]
    pub(crate) const unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        InOut {
            ptr,
            _borrow: PhantomData,
        }
    }
}

impl<'a, T: DeviceCopy> InOut<'a, [T]> {
    /// An in-place view of `slice` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new(slice: &'a mut [T]) -> Self {
        InOut {
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

    fn elements(&mut self) -> Elements<'_, T> {
        // SAFETY: the view borrows the elements for 'a; every thread of the
        // launch reaches them only through its own `InOut` (see the type).
        unsafe { Elements::new(self.ptr.cast(), self.len()) }
    }

    /// This thread's elements and their indices: from its linear id in the
    /// grid in steps of the grid's thread count, as
    /// [`grid_stride`](crate::grid_stride)`(self.len())` gives them. Every
    /// element goes to exactly one thread of the launch.
    pub fn grid_stride(&mut self) -> GridStrideMut<'_, T> {
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
    pub fn grid_stride_chunks(&mut self, size: usize) -> GridStrideChunksMut<'_, T> {
        self.elements().grid_stride_chunks(size)
    }

    /// All elements on the grid's first thread (linear id 0), `None` on
    /// every other thread.
    pub fn first_thread(&mut self) -> Option<&mut [T]> {
        self.elements().first_thread()
    }

    /// Any element, read and written by index from any thread.
    ///
    /// # Safety
    /// While the view lives, no element it writes is read or written by
    /// another thread of the launch, and no element it reads is written by
    /// another thread, unless a synchronisation of the two threads (a team
    /// barrier, an atomic with release and acquire orderings) orders the
    /// two accesses. Index checks stay: an index past the end panics.
    pub unsafe fn unsync(&mut self) -> Unsync<'_, T> {
        self.elements().unsync()
    }
}

impl<'a, T: DeviceCopy> InOut<'a, T> {
    /// An in-place view of `value` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new_one(value: &'a mut T) -> Self {
        InOut {
            ptr: NonNull::from(value),
            _borrow: PhantomData,
        }
    }

    /// The value on the grid's first thread (linear id 0), `None` on every
    /// other thread: one thread reads and writes it.
    pub fn first_thread(&mut self) -> Option<&mut T> {
        // SAFETY: a one-element view of the value, borrowed for 'a.
        let one = unsafe { Elements::new(self.ptr, 1) };
        one.first_thread().map(|all| &mut all[0])
    }
}
