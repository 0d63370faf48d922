//! [`SharedSlice`]: the team's dynamic shared memory ([`dyn_shared`]) and
//! its static shared arrays as `T`s, with the fixed phases of the module
//! docs (even phases written at owned indices, odd phases read anywhere).

use core::marker::PhantomData;
use core::sync::atomic::Ordering::Relaxed;

use super::target;
use crate::AnyBitPattern;

/// Shared memory of the team as `len` `T`s, the launch's dynamic shared
/// memory ([`DynShared`]) or a static array ([`SharedArray`](super::SharedArray)): a handle per
/// thread (neither `Send` nor `Sync`: it checks this thread's phase).
pub struct SharedSlice<T> {
    pub(super) base: *mut T,
    pub(super) len: usize,
    pub(super) _thread: PhantomData<*mut T>,
}

/// The team's dynamic shared memory ([`dyn_shared`]).
pub type DynShared<T> = SharedSlice<T>;

/// The launch's dynamic shared memory as `len` `T`s (`T`: any bit pattern
/// is a value, as the memory starts uninitialised on GPUs), or `None` if
/// the launch's `dyn_shared_mem` holds fewer, if a thread of the team took
/// it as elements of another size before (all views of a team share one
/// element size: ownership is by index), if `T` is zero-sized or more
/// aligned than the memory (16 bytes on the CPU, 8 on GPUs), or outside a
/// launch grid.
#[inline]
pub fn dyn_shared<T: AnyBitPattern>(len: usize) -> Option<DynShared<T>> {
    let (base, bytes) = target::dyn_shared()?;
    let size = size_of::<T>();
    // Ownership is by index: views of one element size own the same bytes.
    let key = element_key(size, false)?;
    let fits = agree(key)
        && size != 0
        && base.align_offset(align_of::<T>()) == 0
        && len.checked_mul(size).is_some_and(|need| need <= bytes);
    fits.then(|| SharedSlice {
        base: base.cast(),
        len,
        _thread: PhantomData,
    })
}

/// Whether the team's views of its dynamic shared memory agree on `key`
/// ([`element_key`]); the team's first view sets it. A plain load first:
/// every view after the team's first finds the key set, so the common case
/// is no read-modify-write (one per thread per view on a CPU team).
#[inline]
pub(super) fn agree(key: u32) -> bool {
    let agreed = target::element_size();
    match agreed.load(Relaxed) {
        0 => match agreed.compare_exchange(0, key, Relaxed, Relaxed) {
            Ok(_) => true,
            Err(other) => other == key,
        },
        other => other == key,
    }
}

/// The value a team's views of its dynamic shared memory agree on: the
/// element size, and whether they are tiles ([`dyn_tile`]: claims per
/// element) or of the fixed phases (`None` for sizes of 2^31 bytes or
/// more, which no launch holds with their records).
#[inline]
pub(super) fn element_key(size: usize, tile: bool) -> Option<u32> {
    const TILE: u32 = 1 << 31;
    let size = u32::try_from(size).ok().filter(|s| s & TILE == 0)?;
    Some(if tile { size | TILE } else { size })
}

/// The largest `len` for which [`dyn_shared`]`::<T>(len)` is `Some`.
#[inline]
pub fn dyn_shared_len<T>() -> usize {
    match (target::dyn_shared(), size_of::<T>()) {
        (Some(_), 0) | (None, _) => 0,
        (Some((_, bytes)), size) => bytes / size,
    }
}

/// The indices of `len` elements this thread owns (writes in a write
/// phase, initialises): `thread_rank()`, then every `team_size()` further.
#[inline]
pub(super) fn own_indices(len: usize) -> crate::GridStride {
    crate::GridStride::new(crate::index::thread_rank(), crate::index::team_size(), len)
}

/// Which accesses the current phase allows this thread.
#[inline]
fn write_phase() -> bool {
    crate::sync::barriers_passed().is_multiple_of(2)
}

#[inline]
fn owns(i: usize) -> bool {
    let (n, rank) = (crate::index::team_size(), crate::index::thread_rank());
    // Below the team size (the usual one element per thread) `i % n` is
    // `i`: no division on the common path.
    if i < n { i == rank } else { i % n == rank }
}

/// The checks of a `set` of element `i` of `len` (see the module docs).
#[inline]
#[track_caller]
fn check_set(i: usize, len: usize) {
    if i >= len {
        super::fail::index_out_of_bounds("", i, len);
    }
    if !write_phase() {
        super::fail::written_in_read_phase();
    }
    if !owns(i) {
        super::fail::written_not_owned(i);
    }
}

/// The checks of a `get` of element `i` of `len` (see the module docs).
#[inline]
#[track_caller]
fn check_get(i: usize, len: usize) {
    if i >= len {
        super::fail::index_out_of_bounds("", i, len);
    }
    if write_phase() && !owns(i) {
        super::fail::read_not_owned(i);
    }
}

impl<T: AnyBitPattern> SharedSlice<T> {
    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes element `i`: in a write phase, an element this thread owns.
    ///
    /// # Panics
    /// If `i` is out of bounds, the team is in a read phase or another
    /// thread owns `i` (see the module docs).
    #[inline]
    #[track_caller]
    pub fn set(&self, i: usize, value: T) {
        check_set(i, self.len);
        // SAFETY: in bounds; in this phase no other thread touches element
        // `i` (the module docs).
        unsafe { self.base.add(i).write(value) }
    }

    /// Reads element `i`: any element in a read phase, an element this
    /// thread owns in a write phase.
    ///
    /// # Panics
    /// If `i` is out of bounds, or the team is in a write phase and another
    /// thread owns `i`.
    #[inline]
    #[track_caller]
    pub fn get(&self, i: usize) -> T {
        check_get(i, self.len);
        // SAFETY: in bounds; no thread writes element `i` in this phase but
        // this one (the module docs); any bits are a `T`.
        unsafe { self.base.add(i).read() }
    }

    /// The indices this thread owns: `thread_rank()`, then every
    /// `team_size()` further, below `len`.
    #[inline]
    pub fn own_indices(&self) -> crate::GridStride {
        own_indices(self.len)
    }

    /// The memory's address, for accesses the phases do not allow.
    ///
    /// # Safety
    /// Valid for `len` `T`s during the kernel; every thread of the team sees
    /// the same memory. The caller makes sure no two threads access an
    /// element at the same time unless all do so by reading (or atomically):
    /// a write and another access of the same element are ordered by
    /// [`sync_threads`](crate::sync_threads) or by fences and atomics.
    #[inline]
    pub unsafe fn as_ptr(&self) -> *mut T {
        self.base
    }
}
