//! [`InOut`]: a kernel parameter read and written in place (mapped TO|FROM).

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::DeviceCopy;
use super::partition::{Chunks, FirstThread, GlobalId, Partition, Planes, Rows, Strided};
use super::per_thread::{Elements, GridStrideChunksMut, GridStrideMut, Unsync};

/// A kernel parameter updated in place: mapped TO and FROM the device, so
/// the host's values are copied in and the kernel's come back.
/// `InOut<'_, [T]>` for a slice, `InOut<'_, T>` for one value.
///
/// Every thread of the launch gets the same `InOut`, so a thread reaches
/// only what is its own, each element as a `&mut T` no other thread gets
/// (what rayon's `par_iter_mut` gives its threads). Which elements are a
/// thread's is the [`Partition`] `P`, part of the type so that every thread
/// uses the same:
/// - `InOut<'_, [T]>` ([`Strided`]): [`grid_stride`](Self::grid_stride),
///   element `i` to the thread of linear id `i` modulo the thread count;
/// - `InOut<'_, [T], Chunks<N>>`:
///   [`grid_stride_chunks`](InOut::grid_stride_chunks), chunks of `N`;
/// - `InOut<'_, [T], FirstThread>`: [`first_thread`](InOut::first_thread),
///   all of it to the grid's first thread;
/// - `InOut<'_, T>`: [`first_thread`](InOut::first_thread), the value to the
///   grid's first thread.
/// - `InOut<'_, [T], GlobalId>`, `InOut<'_, [T], Rows<W>>`,
///   `InOut<'_, [T], Planes<W, H>>`: [`at_global_id`](InOut::at_global_id),
///   [`at_global_2d`](InOut::at_global_2d),
///   [`at_global_3d`](InOut::at_global_3d), one element per thread by its
///   place in the grid (the others keep their values).
///
/// Arbitrary indexed access takes [`unsync`](Self::unsync), which is
/// `unsafe`; elements many threads update take atomics (`&[AtomicU32]`, see
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
pub struct InOut<'a, T: ?Sized, P: Partition = Strided> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
    _partition: PhantomData<fn() -> P>,
}

impl<T: ?Sized, P: Partition> InOut<'_, T, P> {
    /// The kernel entry point's view of its parameter.
    ///
    /// # Safety
    /// `ptr` is valid for reads and writes for the kernel, and every thread
    /// of the launch reaches it only through its own view made here: the
    /// partition, the same in every thread, keeps the threads apart.
    #[cfg_attr(not(feature = "device"), allow(dead_code))]
    pub(crate) const unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        InOut {
            ptr,
            _borrow: PhantomData,
            _partition: PhantomData,
        }
    }
}

impl<'a, T: DeviceCopy, P: Partition> InOut<'a, [T], P> {
    /// An in-place view of `slice` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new(slice: &'a mut [T]) -> Self {
        InOut {
            ptr: NonNull::from(slice),
            _borrow: PhantomData,
            _partition: PhantomData,
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

    /// Any element, read and written by index from any thread, whatever the
    /// partition.
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

impl<T: DeviceCopy> InOut<'_, [T], Strided> {
    /// This thread's elements and their indices: from its linear id in the
    /// grid in steps of the grid's thread count, as
    /// [`grid_stride`](crate::grid_stride)`(self.len())` gives them. Every
    /// element goes to exactly one thread of the launch.
    pub fn grid_stride(&mut self) -> GridStrideMut<'_, T> {
        self.elements().grid_stride()
    }
}

impl<T: DeviceCopy, const N: usize> InOut<'_, [T], Chunks<N>> {
    /// This thread's chunks of `N` elements (the last chunk of the slice may
    /// be shorter) and their chunk indices (chunk `c` starts at element
    /// `c * N`): chunk `c` goes to the thread whose linear id is `c` modulo
    /// the grid's thread count.
    pub fn grid_stride_chunks(&mut self) -> GridStrideChunksMut<'_, T> {
        const { assert!(N > 0, "Chunks<N>: the chunk size is 0") };
        self.elements().grid_stride_chunks(N)
    }
}

impl<T: DeviceCopy> InOut<'_, [T], GlobalId> {
    /// This thread's one element and its index: element
    /// `x + X * (y + Y * z)` for the thread at `[x, y, z]` of a grid of
    /// `[X, Y, Z]` threads ([`global_id_3d`](crate::index::global_id_3d)),
    /// `None` past the end. No other thread of the launch gets it.
    pub fn at_global_id(&mut self) -> Option<(usize, &mut T)> {
        self.elements().at_global(None, None)
    }
}

impl<T: DeviceCopy, const W: usize> InOut<'_, [T], Rows<W>> {
    /// This thread's one element of rows of `W` and its index: element
    /// `x + W * (y + Y * z)` for the thread at `[x, y, z]`, `None` if
    /// `x >= W` or past the end. No other thread of the launch gets it.
    pub fn at_global_2d(&mut self) -> Option<(usize, &mut T)> {
        const { assert!(W > 0, "Rows<W>: the row width is 0") };
        self.elements().at_global(Some(W), None)
    }
}

impl<T: DeviceCopy, const W: usize, const H: usize> InOut<'_, [T], Planes<W, H>> {
    /// This thread's one element of planes of `H` rows of `W` and its
    /// index: element `x + W * (y + H * z)` for the thread at `[x, y, z]`,
    /// `None` if `x >= W`, `y >= H` or past the end. No other thread of the
    /// launch gets it.
    pub fn at_global_3d(&mut self) -> Option<(usize, &mut T)> {
        const { assert!(W > 0 && H > 0, "Planes<W, H>: a dimension is 0") };
        self.elements().at_global(Some(W), Some(H))
    }
}

impl<T: DeviceCopy> InOut<'_, [T], FirstThread> {
    /// All elements on the grid's first thread (linear id 0), `None` on
    /// every other thread.
    pub fn first_thread(&mut self) -> Option<&mut [T]> {
        self.elements().first_thread()
    }
}

impl<'a, T: DeviceCopy> InOut<'a, T> {
    /// An in-place view of `value` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new_one(value: &'a mut T) -> Self {
        InOut {
            ptr: NonNull::from(value),
            _borrow: PhantomData,
            _partition: PhantomData,
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
