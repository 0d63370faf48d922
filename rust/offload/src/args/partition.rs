//! How an output parameter's elements are shared out among the threads of
//! a launch: the third type argument of [`InOut`](crate::InOut) and
//! [`Out`](crate::Out) slices (`Out<'_, [T], Chunks<64>>`), [`Strided`] when
//! it is left out.
//!
//! The partition is part of the parameter's type, so every thread of the
//! launch uses the same one: a thread cannot take its grid-stride elements
//! while another takes a chunk or the whole slice, which would hand the
//! same element to both.

mod sealed {
    pub trait Sealed {}
}

/// A way of sharing out a slice's elements among a launch's threads, each
/// element to one thread; sealed.
pub trait Partition: sealed::Sealed {}

/// Element `i` to the thread whose linear id is `i` modulo the grid's
/// thread count (`.grid_stride()`), as [`grid_stride`](crate::grid_stride)
/// gives indices. The default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strided;

/// Chunks of `N` elements (the last one maybe shorter), chunk `c` to the
/// thread whose linear id is `c` modulo the grid's thread count
/// (`.grid_stride_chunks()`). `N` is at least 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chunks<const N: usize>;

/// Every element to the grid's first thread, linear id 0
/// (`.first_thread()`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstThread;

impl sealed::Sealed for Strided {}
impl sealed::Sealed for FirstThread {}
impl<const N: usize> sealed::Sealed for Chunks<N> {}
impl Partition for Strided {}
impl Partition for FirstThread {}
impl<const N: usize> Partition for Chunks<N> {}
