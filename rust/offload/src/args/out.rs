//! [`Out`]: a write-only kernel parameter (mapped FROM).

use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use super::DeviceCopy;
use super::partition::{Chunks, FirstThread, GlobalId, Partition, Planes, Rows, Strided};
use super::per_thread::{Elements, GridStrideChunksMut, GridStrideMut, Unsync};

/// A write-only kernel parameter: mapped FROM the device only, so nothing is
/// copied in (its device memory starts uninitialised, and what the kernel
/// leaves unwritten comes back as such, so `T` must be
/// [`AnyBitPattern`](crate::AnyBitPattern): `#[kernel]` refuses
/// `Out<'_, [bool]>`). `Out<'_, [T]>` for a slice, `Out<'_, T>` for one value.
///
/// Every thread of the launch gets the same `Out`; each writes only what is
/// its own, so no two threads write the same element. Which elements are a
/// thread's is the [`Partition`] `P`, part of the type so that every thread
/// uses the same, as for [`InOut`](crate::InOut): `Out<'_, [T]>`
/// ([`grid_stride`](Self::grid_stride)), `Out<'_, [T], Chunks<N>>`
/// ([`grid_stride_chunks`](Out::grid_stride_chunks)),
/// `Out<'_, [T], FirstThread>` and `Out<'_, T>`
/// ([`first_thread`](Out::first_thread)), and one element per thread by its
/// place in the grid: `Out<'_, [T], GlobalId>`
/// ([`at_global_id`](Out::at_global_id)), `Out<'_, [T], Rows<W>>`
/// ([`at_global_2d`](Out::at_global_2d)) and `Out<'_, [T], Planes<W, H>>`
/// ([`at_global_3d`](Out::at_global_3d)); the elements no thread gets stay
/// as they are on the device (uninitialised). The elements are `MaybeUninit<T>`
/// (write one with `slot.write(value)`): the kernel cannot read what it did
/// not write. Arbitrary indexed writes take [`unsync`](Self::unsync), which
/// is `unsafe`.
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
/// There is no `set(i, value)` or `fill(value)`: any thread could write any
/// element, a data race between the launch's threads. Write through the
/// thread's own elements instead:
///
/// | instead of | write |
/// |---|---|
/// | `y.set(i, v)` in every thread | `for (i, slot) in y.grid_stride() { slot.write(v) }` |
/// | `y.fill(v)` | the same loop, `slot.write(v)` |
/// | `y.set(v)` on an `Out<'_, T>`, one thread | `if let Some(slot) = y.first_thread() { slot.write(v); }` |
/// | `y.set(i, v)` at an index the kernel computes | an atomic parameter (`&[AtomicU32]`), or `unsafe { y.unsync() }` with the proof that no two threads write `i` |
///
/// ```
/// # use offload::{kernel, Out};
/// #[kernel]
/// pub fn fill(value: u32, mut y: Out<'_, [u32]>, mut count: Out<'_, usize>) {
///     for (_, slot) in y.grid_stride() {
///         slot.write(value);
///     }
///     if let Some(slot) = count.first_thread() {
///         slot.write(y.len());
///     }
/// }
/// ```
///
/// On the host, pass a `&mut` slice, array, `Vec` or value (or a
/// [`MappedMut`](crate::MappedMut)).
pub struct Out<'a, T: ?Sized, P: Partition = Strided> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
    _partition: PhantomData<fn() -> P>,
}

impl<T: ?Sized, P: Partition> Out<'_, T, P> {
    /// The kernel entry point's view of its parameter.
    ///
    /// # Safety
    /// `ptr` is valid for writes (maybe uninitialised) for the kernel, and
    /// every thread of the launch reaches it only through its own view made
    /// here: the partition, the same in every thread, keeps the threads
    /// apart.
    #[cfg_attr(not(feature = "device"), allow(dead_code))]
    pub(crate) const unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        Out {
            ptr,
            _borrow: PhantomData,
            _partition: PhantomData,
        }
    }
}

impl<'a, T: DeviceCopy, P: Partition> Out<'a, [T], P> {
    /// A write-only view of `slice` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new(slice: &'a mut [MaybeUninit<T>]) -> Self {
        let len = slice.len();
        let start = NonNull::from(slice).cast::<T>();
        Out {
            ptr: NonNull::slice_from_raw_parts(start, len),
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

    fn elements(&mut self) -> Elements<'_, MaybeUninit<T>> {
        // SAFETY: the view borrows the elements for 'a; every thread of the
        // launch reaches them only through its own `Out` (see the type).
        unsafe { Elements::new(self.ptr.cast(), self.len()) }
    }

    /// Any element, written by index from any thread, whatever the
    /// partition.
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

impl<T: DeviceCopy> Out<'_, [T], Strided> {
    /// This thread's elements and their indices: from its linear id in the
    /// grid in steps of the grid's thread count, as
    /// [`grid_stride`](crate::grid_stride)`(self.len())` gives them. Every
    /// element goes to exactly one thread of the launch.
    pub fn grid_stride(&mut self) -> GridStrideMut<'_, MaybeUninit<T>> {
        self.elements().grid_stride()
    }
}

impl<T: DeviceCopy, const N: usize> Out<'_, [T], Chunks<N>> {
    /// This thread's chunks of `N` elements (the last chunk of the slice may
    /// be shorter) and their chunk indices (chunk `c` starts at element
    /// `c * N`): chunk `c` goes to the thread whose linear id is `c` modulo
    /// the grid's thread count.
    pub fn grid_stride_chunks(&mut self) -> GridStrideChunksMut<'_, MaybeUninit<T>> {
        const { assert!(N > 0, "Chunks<N>: the chunk size is 0") };
        self.elements().grid_stride_chunks(N)
    }
}

impl<T: DeviceCopy> Out<'_, [T], GlobalId> {
    /// This thread's one element and its index: element
    /// `x + X * (y + Y * z)` for the thread at `[x, y, z]` of a grid of
    /// `[X, Y, Z]` threads ([`global_id_3d`](crate::index::global_id_3d)),
    /// `None` past the end. No other thread of the launch gets it.
    pub fn at_global_id(&mut self) -> Option<(usize, &mut MaybeUninit<T>)> {
        self.elements().at_global(None, None)
    }
}

impl<T: DeviceCopy, const W: usize> Out<'_, [T], Rows<W>> {
    /// This thread's one element of rows of `W` and its index: element
    /// `x + W * (y + Y * z)` for the thread at `[x, y, z]`, `None` if
    /// `x >= W` or past the end. No other thread of the launch gets it.
    pub fn at_global_2d(&mut self) -> Option<(usize, &mut MaybeUninit<T>)> {
        const { assert!(W > 0, "Rows<W>: the row width is 0") };
        self.elements().at_global(Some(W), None)
    }
}

impl<T: DeviceCopy, const W: usize, const H: usize> Out<'_, [T], Planes<W, H>> {
    /// This thread's one element of planes of `H` rows of `W` and its
    /// index: element `x + W * (y + H * z)` for the thread at `[x, y, z]`,
    /// `None` if `x >= W`, `y >= H` or past the end. No other thread of the
    /// launch gets it.
    pub fn at_global_3d(&mut self) -> Option<(usize, &mut MaybeUninit<T>)> {
        const { assert!(W > 0 && H > 0, "Planes<W, H>: a dimension is 0") };
        self.elements().at_global(Some(W), Some(H))
    }
}

impl<T: DeviceCopy> Out<'_, [T], FirstThread> {
    /// All elements on the grid's first thread (linear id 0), `None` on
    /// every other thread.
    pub fn first_thread(&mut self) -> Option<&mut [MaybeUninit<T>]> {
        self.elements().first_thread()
    }
}

impl<'a, T: DeviceCopy> Out<'a, T> {
    /// A write-only view of `value` (the kernel entry point makes the
    /// parameter's; this one is for host code and tests).
    pub fn new_one(value: &'a mut MaybeUninit<T>) -> Self {
        Out {
            ptr: NonNull::from(value).cast(),
            _borrow: PhantomData,
            _partition: PhantomData,
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
