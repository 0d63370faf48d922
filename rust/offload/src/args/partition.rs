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

/// One element per thread, by the thread's place in the grid: thread
/// `[x, y, z]` ([`global_id_3d`](crate::index::global_id_3d)) of a grid of
/// `[X, Y, Z]` threads ([`global_count_3d`](crate::index::global_count_3d))
/// gets element `x + X * (y + Y * z)`, if the slice has it
/// (`.at_global_id()`): the grid laid over the slice row by row, CUDA's
/// `if (i < n) out[i] = ...` for a one-dimensional grid. Distinct threads
/// have distinct places, and the map is one-to-one on them.
#[derive(Clone, Copy, Debug, Default)]
pub struct GlobalId;

/// One element per thread of a two-dimensional image of rows of `W`
/// elements: thread `[x, y, z]` gets element `x + W * (y + Y * z)` (`Y`:
/// the grid's threads in y; z stacks more rows) if `x < W` and the slice
/// has it (`.at_global_2d()`), CUDA's `if (x < w && y < h) out[y * w + x]
/// = ...` with the width in the type: the same in every thread, so no two
/// threads get one element. `W` is at least 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rows<const W: usize>;

/// One element per thread of a three-dimensional volume of planes of `H`
/// rows of `W` elements: thread `[x, y, z]` gets element
/// `x + W * (y + H * z)` if `x < W`, `y < H` and the slice has it
/// (`.at_global_3d()`). `W` and `H` are at least 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Planes<const W: usize, const H: usize>;

/// The element index a one-element-per-thread partition gives the thread
/// at `id` of a grid of `count` threads per dimension: `None` where it
/// gives none. One-to-one on the threads of a grid, whatever its shape.
pub(crate) fn global_index(
    id: [usize; 3],
    count: [usize; 3],
    width: Option<usize>,
    height: Option<usize>,
) -> Option<usize> {
    let [x, y, z] = id;
    let w = width.unwrap_or(count[0]);
    let h = height.unwrap_or(count[1]);
    if x >= w || y >= h {
        return None;
    }
    // Cannot overflow on a real grid; an overflow gives no element.
    z.checked_mul(h)?
        .checked_add(y)?
        .checked_mul(w)?
        .checked_add(x)
}

impl sealed::Sealed for GlobalId {}
impl<const W: usize> sealed::Sealed for Rows<W> {}
impl<const W: usize, const H: usize> sealed::Sealed for Planes<W, H> {}
impl Partition for GlobalId {}
impl<const W: usize> Partition for Rows<W> {}
impl<const W: usize, const H: usize> Partition for Planes<W, H> {}
impl sealed::Sealed for Strided {}
impl sealed::Sealed for FirstThread {}
impl<const N: usize> sealed::Sealed for Chunks<N> {}
impl Partition for Strided {}
impl Partition for FirstThread {}
impl<const N: usize> Partition for Chunks<N> {}
