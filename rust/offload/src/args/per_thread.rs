//! This thread's part of a kernel's output: what [`InOut`](super::InOut)
//! and [`Out`](super::Out) hand out.
//!
//! Every thread of a launch gets the same output parameter, so a safe view
//! may give a thread only elements no other thread of the launch can get,
//! by the [partition](super::partition) of the view's type (the same in
//! every thread): the grid-stride indices of its linear id
//! ([`GridStrideMut`]), the grid-stride chunks ([`GridStrideChunksMut`]), or
//! everything on the one thread whose linear id is 0 (`first_thread`), or
//! one element by the thread's place in the grid (`at_global_id`,
//! `at_global_2d`, `at_global_3d`). Distinct threads have
//! distinct linear ids below the grid's thread count
//! ([`grid_linear_id`](crate::index::grid_linear_id), the hardware's ids on a
//! GPU), so these parts are disjoint across the launch, and a thread's own
//! iterator yields each of its elements once. Any other access is
//! [`Unsync`], whose creation is `unsafe`.

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::partition::global_index;
use crate::index::{GridStride, global_count_3d, global_id_3d, grid_linear_id};

/// `len` elements at `ptr`, borrowed exclusively for `'a` by a view: the
/// part of [`InOut`](super::InOut) and [`Out`](super::Out) that hands out
/// this thread's elements.
pub(super) struct Elements<'a, E> {
    ptr: NonNull<E>,
    len: usize,
    _borrow: PhantomData<&'a mut [E]>,
}

impl<'a, E> Elements<'a, E> {
    /// # Safety
    /// `ptr` points at `len` valid `E`s (any pointer if `len` is 0) that
    /// nothing reaches for `'a` but views of these elements, one per thread
    /// of the launch.
    pub(super) const unsafe fn new(ptr: NonNull<E>, len: usize) -> Self {
        Elements {
            ptr,
            len,
            _borrow: PhantomData,
        }
    }

    pub(super) fn grid_stride(self) -> GridStrideMut<'a, E> {
        let (id, count) = grid_linear_id();
        self.grid_stride_of(id, count)
    }

    /// The elements of thread `id` of `count` (what `grid_stride` gives
    /// the thread whose linear id that is).
    pub(super) fn grid_stride_of(self, id: usize, count: usize) -> GridStrideMut<'a, E> {
        GridStrideMut {
            ptr: self.ptr,
            indices: GridStride::new(id, count, self.len),
            _borrow: PhantomData,
        }
    }

    #[track_caller]
    pub(super) fn grid_stride_chunks(self, size: usize) -> GridStrideChunksMut<'a, E> {
        let (id, count) = grid_linear_id();
        self.grid_stride_chunks_of(size, id, count)
    }

    #[track_caller]
    pub(super) fn grid_stride_chunks_of(
        self,
        size: usize,
        id: usize,
        count: usize,
    ) -> GridStrideChunksMut<'a, E> {
        assert!(size != 0, "grid_stride_chunks: the chunk size is 0");
        GridStrideChunksMut {
            ptr: self.ptr,
            len: self.len,
            size,
            chunks: GridStride::new(id, count, self.len.div_ceil(size)),
            _borrow: PhantomData,
        }
    }

    pub(super) fn first_thread(self) -> Option<&'a mut [E]> {
        self.first_thread_of(grid_linear_id().0)
    }

    pub(super) fn first_thread_of(self, id: usize) -> Option<&'a mut [E]> {
        // SAFETY: the elements are valid and borrowed for 'a (`new`); only
        // the thread of linear id 0 gets them.
        (id == 0).then(|| unsafe { slice_mut(self.ptr, 0, self.len) })
    }

    /// This thread's one element of a one-element-per-thread partition
    /// (`GlobalId`, `Rows<W>`, `Planes<W, H>`: `width`, `height` given or
    /// the grid's), and its index.
    pub(super) fn at_global(
        self,
        width: Option<usize>,
        height: Option<usize>,
    ) -> Option<(usize, &'a mut E)> {
        let (id, count) = (global_id_3d(), global_count_3d());
        self.at_global_of(id, count, width, height)
    }

    /// The element of the thread at `id` of a grid of `count` threads (what
    /// `at_global` gives that thread).
    pub(super) fn at_global_of(
        self,
        id: [usize; 3],
        count: [usize; 3],
        width: Option<usize>,
        height: Option<usize>,
    ) -> Option<(usize, &'a mut E)> {
        let i = global_index(id, count, width, height).filter(|&i| i < self.len)?;
        // SAFETY: in bounds; `global_index` is one-to-one on the grid's
        // threads and the partition the same in every thread, so no other
        // thread gets element `i`; the elements are borrowed for 'a.
        Some((i, unsafe { &mut *self.ptr.as_ptr().add(i) }))
    }

    pub(super) fn unsync(self) -> Unsync<'a, E> {
        Unsync {
            ptr: self.ptr,
            len: self.len,
            _borrow: PhantomData,
        }
    }
}

/// `len` elements from `start` at `ptr`.
///
/// # Safety
/// They are valid and nothing else reaches them for `'a`.
unsafe fn slice_mut<'a, E>(ptr: NonNull<E>, start: usize, len: usize) -> &'a mut [E] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr().add(start), len) }
}

/// This thread's elements of an output, with their indices: from its linear
/// id in the grid in steps of the grid's thread count, as
/// [`grid_stride`](crate::grid_stride) gives them. No other thread of the
/// launch gets any of them.
pub struct GridStrideMut<'a, E> {
    ptr: NonNull<E>,
    indices: GridStride,
    _borrow: PhantomData<&'a mut [E]>,
}

impl<'a, E> Iterator for GridStrideMut<'a, E> {
    type Item = (usize, &'a mut E);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let i = self.indices.next()?;
        // SAFETY: `i` is below the length (GridStride's end) and yielded
        // once; the elements are borrowed for 'a (`Elements::new`).
        Some((i, unsafe { &mut *self.ptr.as_ptr().add(i) }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.indices.size_hint()
    }
}

impl<E> ExactSizeIterator for GridStrideMut<'_, E> {}
impl<E> core::iter::FusedIterator for GridStrideMut<'_, E> {}

/// This thread's chunks of an output, with their chunk indices: the output
/// cut into chunks of `size` elements (the last one shorter), chunk `c`
/// from element `c * size`, handed out grid-stride (chunk `c` to the thread
/// whose linear id is `c` modulo the grid's thread count).
pub struct GridStrideChunksMut<'a, E> {
    ptr: NonNull<E>,
    len: usize,
    size: usize,
    chunks: GridStride,
    _borrow: PhantomData<&'a mut [E]>,
}

impl<'a, E> Iterator for GridStrideChunksMut<'a, E> {
    type Item = (usize, &'a mut [E]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let c = self.chunks.next()?;
        // `c < len.div_ceil(size)`, so `start < len`.
        let start = c * self.size;
        let len = self.size.min(self.len - start);
        // SAFETY: the chunk lies in the elements, chunks are disjoint and
        // each is yielded once; the elements are borrowed for 'a.
        Some((c, unsafe { slice_mut(self.ptr, start, len) }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl<E> ExactSizeIterator for GridStrideChunksMut<'_, E> {}
impl<E> core::iter::FusedIterator for GridStrideChunksMut<'_, E> {}

/// Any element of an output, read and written by index from any thread:
/// the `unsafe` escape hatch of [`InOut::unsync`](super::InOut::unsync) and
/// [`Out::unsync`](super::Out::unsync), for access patterns the per-thread
/// views do not express (a scatter, a permutation).
///
/// Indices are checked (a panic past the end); that no two threads race on
/// an element is the promise made by creating the view.
pub struct Unsync<'a, E> {
    ptr: NonNull<E>,
    len: usize,
    _borrow: PhantomData<&'a mut [E]>,
}

impl<E: Copy> Unsync<'_, E> {
    /// Number of elements.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads element `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[track_caller]
    pub fn read(&self, i: usize) -> E {
        self.check(i);
        // SAFETY: in bounds; no other thread writes it meanwhile (`unsync`'s
        // contract), and no `&mut` to it lives on this one (the view holds
        // the output's exclusive borrow).
        unsafe { self.ptr.as_ptr().add(i).read() }
    }

    /// Writes element `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[track_caller]
    pub fn write(&self, i: usize, value: E) {
        self.check(i);
        // SAFETY: as in `read`: no other thread reads or writes it meanwhile.
        unsafe { self.ptr.as_ptr().add(i).write(value) }
    }

    #[track_caller]
    fn check(&self, i: usize) {
        assert!(
            i < self.len,
            "Unsync: index {i} out of bounds (len {})",
            self.len
        );
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// How often each element is handed out when every thread of `count`
    /// takes its part through `part`.
    fn coverage(
        len: usize,
        count: usize,
        mut part: impl FnMut(Elements<'_, u32>, usize) -> Vec<usize>,
    ) -> Vec<u32> {
        let mut data = vec![0u32; len];
        let mut seen = vec![0u32; len];
        for id in 0..count {
            // SAFETY: `data` is borrowed exclusively by the view.
            let view = unsafe { Elements::<u32>::new(NonNull::from(&mut data[..]).cast(), len) };
            for i in part(view, id) {
                seen[i] += 1;
            }
        }
        seen
    }

    #[test]
    fn grid_stride_parts_are_disjoint_and_cover_odd_lengths() {
        for (len, count) in [(100, 7), (5, 8), (0, 3), (96, 96), (1, 1), (1000, 384)] {
            let seen = coverage(len, count, |view, id| {
                view.grid_stride_of(id, count)
                    .map(|(i, e)| {
                        *e += 1;
                        assert_eq!(i % count, id);
                        i
                    })
                    .collect()
            });
            assert!(seen.iter().all(|&c| c == 1), "len {len}, {count} threads");
        }
    }

    #[test]
    fn grid_stride_chunks_are_disjoint_and_cover_odd_lengths() {
        for (len, count, size) in [(100, 7, 3), (10, 4, 16), (0, 3, 2), (17, 2, 1), (64, 3, 8)] {
            let seen = coverage(len, count, |view, id| {
                let chunks = view.grid_stride_chunks_of(size, id, count);
                assert_eq!(chunks.len(), chunks.size_hint().0);
                let mut mine = Vec::new();
                for (c, chunk) in chunks {
                    assert_eq!(c % count, id);
                    assert!(!chunk.is_empty() && chunk.len() <= size);
                    let start = c * size;
                    mine.extend(start..start + chunk.len());
                }
                mine
            });
            assert!(seen.iter().all(|&c| c == 1), "len {len}, {count}, {size}");
        }
    }

    #[test]
    fn only_the_first_thread_gets_everything() {
        let seen = coverage(10, 4, |view, id| {
            view.first_thread_of(id).map_or(Vec::new(), |all| {
                assert_eq!(all.len(), 10);
                (0..10).collect()
            })
        });
        assert!(seen.iter().all(|&c| c == 1));
    }

    /// Every thread of a `count` grid takes its element by `width` and
    /// `height` (or the grid's).
    fn global_coverage(
        len: usize,
        count: [usize; 3],
        width: Option<usize>,
        height: Option<usize>,
    ) -> Vec<u32> {
        let mut ids = Vec::new();
        for z in 0..count[2] {
            for y in 0..count[1] {
                for x in 0..count[0] {
                    ids.push([x, y, z]);
                }
            }
        }
        coverage(len, ids.len(), |view, t| {
            view.at_global_of(ids[t], count, width, height)
                .map(|(i, e)| {
                    *e += 1;
                    vec![i]
                })
                .unwrap_or_default()
        })
    }

    #[test]
    fn one_element_per_thread_by_its_place_is_disjoint() {
        // GlobalId on a 1-D, 2-D and 3-D grid: everything once, if the
        // slice is no longer than the grid.
        for count in [[37, 1, 1], [8, 5, 1], [4, 3, 2]] {
            let n = count[0] * count[1] * count[2];
            let seen = global_coverage(n, count, None, None);
            assert!(seen.iter().all(|&c| c == 1), "{count:?}");
            let seen = global_coverage(n + 5, count, None, None);
            assert!(seen[..n].iter().all(|&c| c == 1) && seen[n..].iter().all(|&c| c == 0));
        }
        // Rows<10> of a 16 x 8 grid over a 10 x 7 image: the classic
        // `if (x < w && y < h)`, every pixel once.
        let seen = global_coverage(70, [16, 8, 1], Some(10), None);
        assert!(seen.iter().all(|&c| c == 1));
        // Rows<3> with z stacking more rows; Planes<3, 2> of a 4 x 4 x 3 grid.
        let seen = global_coverage(3 * 4 * 2, [4, 4, 2], Some(3), None);
        assert!(seen.iter().all(|&c| c == 1));
        let seen = global_coverage(3 * 2 * 3, [4, 4, 3], Some(3), Some(2));
        assert!(seen.iter().all(|&c| c == 1));
    }

    #[test]
    #[should_panic(expected = "index 3 out of bounds (len 3)")]
    fn unsync_checks_its_indices() {
        let mut data = [1u8, 2, 3];
        // SAFETY: `data` is borrowed exclusively by the view.
        let view = unsafe { Elements::<u8>::new(NonNull::from(&mut data[..]).cast(), 3) };
        let unsync = view.unsync();
        unsync.write(2, unsync.read(0) + 4);
        assert_eq!(unsync.read(2), 5);
        unsync.write(3, 0);
    }
}
