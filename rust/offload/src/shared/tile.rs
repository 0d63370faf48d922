//! Shared tiles: [`shared_tile!`](crate::shared_tile), a static shared
//! array whose elements each thread claims as it touches them, and
//! [`dyn_tile`], the dynamic shared memory viewed the same way, for the
//! patterns of CUDA kernels that the fixed phases of
//! [`SharedArray`](super::SharedArray) refuse (see the module docs of
//! [`shared`](super), "Shared tiles").
//!
//! Each element has an 8-byte record after the elements: the interval it
//! was last claimed in and how (by one reader, by many readers, or by one
//! writer). An *interval* is the stretch between two
//! [`sync_threads`](crate::sync_threads) of a team: every thread of the
//! team is in the same one (each passed as many barriers), named by the
//! team's stamp (unique per team of a launch, see `target::now`) and the
//! barriers passed. A record changes only by compare-and-swap, from a claim
//! of an earlier interval (or anything else) to one of the current
//! interval, then along `Read(r) -> Shared` or `Read(w) -> Written(w)`,
//! never back: a record of the current interval names at most one thread
//! that may write the element in it, and then no other thread may read it.

use core::marker::PhantomData;
use core::sync::atomic::AtomicU64;
use core::sync::atomic::Ordering::Relaxed;

use offload_contract::grid::STATIC_SHARED_ARRAY_MAX;

use super::static_array::StaticSite;
use crate::AnyBitPattern;

/// A tile's declaration site: made here, beside the layout it describes.
impl StaticSite {
    /// The site of a [`shared_tile!`](crate::shared_tile) of `len` `T`s:
    /// the elements, then one 8-byte record per element and an 8-byte
    /// header ([`tile`](super::tile)), all within
    /// `STATIC_SHARED_ARRAY_MAX` bytes (a compile error otherwise).
    pub const fn tile<T: AnyBitPattern>(len: usize) -> Self {
        let (size, align) = (size_of::<T>(), align_of::<T>());
        assert!(
            size != 0,
            "offload::shared_tile!: the element type is zero-sized"
        );
        let bytes = match tile_bytes(size, len) {
            Some(bytes) if bytes as u64 <= STATIC_SHARED_ARRAY_MAX => bytes,
            _ => panic!(
                "offload::shared_tile!: a shared tile (its elements and 8 bytes per element of records) may have at most 49152 bytes (STATIC_SHARED_ARRAY_MAX: NVIDIA's static shared memory)"
            ),
        };
        let memory_align = if align > 8 { align } else { 8 };
        StaticSite {
            size,
            align,
            len,
            bytes,
            memory_align,
            is_tile: true,
        }
    }
}

/// The bytes a tile of `len` elements of `size` bytes takes: the elements
/// (rounded up to 8 bytes), a record per element and the header.
pub(super) const fn tile_bytes(size: usize, len: usize) -> Option<usize> {
    let Some(elements) = size.checked_mul(len) else {
        return None;
    };
    let Some(records) = len.checked_mul(8) else {
        return None;
    };
    match elements.checked_next_multiple_of(8) {
        Some(start) => match start.checked_add(records) {
            Some(end) => end.checked_add(8),
            None => None,
        },
        None => None,
    }
}

/// Bits of a record: the interval (52, a hash of the team's stamp and the
/// barriers passed) and the claim (12).
const CLAIM_BITS: u32 = 12;
/// Read by several threads in the interval (no thread may write it).
const SHARED: u64 = 1;

/// A record's claim: read by thread `rank` alone.
const fn read_by(rank: usize) -> u64 {
    2 + 2 * rank as u64
}

/// A record's claim: written (and maybe read) by thread `rank` alone.
const fn written_by(rank: usize) -> u64 {
    3 + 2 * rank as u64
}

/// The rank a claim names (none for `SHARED`).
const fn claimant(claim: u64) -> Option<u64> {
    if claim >= 2 {
        Some((claim - 2) / 2)
    } else {
        None
    }
}

/// Where this thread's team is: its stamp and the barriers it passed.
#[derive(Clone, Copy)]
struct Now {
    stamp: u32,
    barriers: u32,
}

impl Now {
    #[inline]
    fn read() -> Now {
        let (stamp, barriers) = target::now();
        Now { stamp, barriers }
    }

    /// The interval as a record's high bits: a mix of the stamp and the
    /// barriers passed (splitmix64's finaliser, one-to-one on 64 bits)
    /// truncated to 52 bits, so two intervals (of one team or of two)
    /// share their bits with a chance of about 2^-52, however they differ.
    #[inline]
    fn interval(self) -> u64 {
        let mut z = (u64::from(self.stamp) << 32) | u64::from(self.barriers);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) & !CLAIM_MASK
    }
}

#[cfg(test)]
fn interval() -> u64 {
    Now::read().interval()
}

const CLAIM_MASK: u64 = (1 << CLAIM_BITS) - 1;

/// The header's value for a tile frozen from `barriers` passed on.
fn frozen_from(stamp: u32, barriers: u32) -> u64 {
    (u64::from(stamp) << 32) | u64::from(barriers)
}

/// A static shared array of the team whose accesses are checked element
/// by element ([`shared_tile!`](crate::shared_tile)): between two
/// [`sync_threads`](crate::sync_threads), an element is either written by
/// one thread (which alone may read it) or read by any number of threads;
/// after [`freeze`](Self::freeze), every element is read by any thread and
/// written by none. A handle per thread (neither `Send` nor `Sync`).
pub struct SharedTile<T> {
    base: *mut T,
    records: *const AtomicU64,
    frozen: *const AtomicU64,
    len: usize,
    rank: usize,
    _thread: PhantomData<*mut T>,
}

/// The team's tile of `site` (what [`shared_tile!`](crate::shared_tile)
/// expands to): `None` outside a launch grid, or if `site` is not a tile
/// site of `T`s.
#[doc(hidden)]
#[inline(always)]
pub fn static_tile<T: AnyBitPattern>(site: &'static StaticSite) -> Option<SharedTile<T>> {
    if !site.holds::<T>() || !site.is_tile {
        return None;
    }
    let base = super::static_array::target::static_shared(site)?;
    // SAFETY: the site's memory is a tile of `site.len()` `T`s (its
    // layout, `tile_bytes`), the same for every thread of the team.
    Some(unsafe { SharedTile::over(base, site.len(), site.len()) })
}

/// The most elements of `size` bytes a tile in `bytes` bytes holds.
const fn tile_capacity(size: usize, bytes: usize) -> usize {
    if size == 0 {
        return 0;
    }
    let mut capacity = bytes.saturating_sub(8) / (size + 8);
    // The elements' rounding to 8 bytes takes at most one element more.
    while capacity > 0 {
        match tile_bytes(size, capacity) {
            Some(need) if need <= bytes => break,
            _ => capacity -= 1,
        }
    }
    capacity
}

/// The launch's dynamic shared memory as a shared tile of `len` `T`s (the
/// element claims of [`shared_tile!`](crate::shared_tile) for memory whose
/// size the launch chooses), or `None` if it holds fewer (see
/// [`dyn_tile_len`]), if a thread of the team viewed the memory otherwise
/// before (as [`dyn_shared`](super::dyn_shared) or as a tile of another
/// element size: one layout per team), if `T` is zero-sized or more aligned
/// than the memory, or outside a launch grid.
///
/// The memory holds as many elements as fit with their 8-byte records and
/// an 8-byte header ([`dyn_tile_len`]), wherever `len` ends: views of any
/// `len` agree on where each element's record is.
#[inline]
pub fn dyn_tile<T: AnyBitPattern>(len: usize) -> Option<SharedTile<T>> {
    let (base, bytes) = super::target::dyn_shared()?;
    let size = size_of::<T>();
    let key = super::element_key(size, true)?;
    let agreed = super::agree(key);
    let capacity = tile_capacity(size, bytes);
    let fits = agreed && len <= capacity && base.align_offset(align_of::<T>().max(8)) == 0;
    // SAFETY: the memory holds a tile of `capacity` elements (`tile_capacity`),
    // valid for the kernel; every tile view of the team has this layout
    // (the agreed key, and `capacity` from the launch's size).
    fits.then(|| unsafe { SharedTile::over(base, capacity, len) })
}

/// The dynamic shared memory a launch asks for
/// ([`Launch::dyn_shared_mem`](crate::Launch::dyn_shared_mem)) so that
/// [`dyn_tile`]`::<T>(len)` fits: the elements, rounded up to 8 bytes, 8
/// bytes of record per element and an 8-byte header; `None` when that
/// overflows `u32`.
pub const fn dyn_tile_bytes<T>(len: usize) -> Option<u32> {
    match tile_bytes(size_of::<T>(), len) {
        Some(bytes) if bytes <= u32::MAX as usize => Some(bytes as u32),
        _ => None,
    }
}

/// The largest `len` for which [`dyn_tile`]`::<T>(len)` is `Some` (its
/// elements with 8 bytes of record each and the 8-byte header in the
/// launch's `dyn_shared_mem`).
#[inline]
pub fn dyn_tile_len<T>() -> usize {
    super::target::dyn_shared().map_or(0, |(_, bytes)| tile_capacity(size_of::<T>(), bytes))
}

impl<T> SharedTile<T> {
    /// The view of the first `len` elements of a tile of `capacity`
    /// elements at `base`.
    ///
    /// # Safety
    /// `base` is 8-aligned and aligned for `T`, and valid for the kernel
    /// for `tile_bytes(size_of::<T>(), capacity)` bytes shared by the team
    /// and laid out as a tile (the elements, the records from the next
    /// multiple of 8 bytes, the header), the same way in every view of the
    /// team; `len <= capacity`.
    unsafe fn over(base: *mut u8, capacity: usize, len: usize) -> Self {
        let records_at = (capacity * size_of::<T>()).next_multiple_of(8);
        // SAFETY: the records and the header lie in the tile (the caller).
        let (records, frozen) = unsafe {
            let records = base.add(records_at).cast::<AtomicU64>();
            (records.cast_const(), records.add(capacity).cast_const())
        };
        SharedTile {
            base: base.cast(),
            records,
            frozen,
            len,
            rank: crate::index::thread_rank(),
            _thread: PhantomData,
        }
    }
}

impl<T: AnyBitPattern> SharedTile<T> {
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

    fn record(&self, i: usize) -> &AtomicU64 {
        // SAFETY: `i < len` (checked by the callers); the records are
        // valid for the kernel and only accessed atomically.
        unsafe { &*self.records.add(i) }
    }

    fn header(&self) -> &AtomicU64 {
        // SAFETY: as for the records.
        unsafe { &*self.frozen }
    }

    /// Whether a `freeze` in an earlier interval of this team made the
    /// tile read-only: the same answer in every thread of the interval.
    #[inline]
    fn is_frozen(&self, now: Now) -> bool {
        let header = self.header().load(Relaxed);
        (header >> 32) as u32 == now.stamp && header as u32 <= now.barriers
    }

    #[inline]
    #[track_caller]
    fn check_index(&self, i: usize) {
        if i >= self.len {
            super::fail::index_out_of_bounds("tile ", i, self.len);
        }
    }

    /// Reads element `i`: any element the tile's other threads do not
    /// write in this interval (or any after [`freeze`](Self::freeze)).
    ///
    /// # Panics
    /// If `i` is out of bounds, or another thread of the team writes
    /// element `i` between the same two barriers (before or after).
    // Always inlined: in a compiled CPU team the record reads behind
    // `Now::read` then leave the loops over the threads (a call would read
    // the record again for each access).
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, i: usize) -> T {
        self.check_index(i);
        let now = Now::read();
        if !self.is_frozen(now) {
            self.claim_read(i, now.interval());
        }
        // SAFETY: in bounds; no other thread writes element `i` in this
        // interval (its record, or the freeze); any bits are a `T`.
        unsafe { self.base.add(i).read() }
    }

    /// Writes element `i`: one no other thread reads or writes in this
    /// interval; this thread may read it back.
    ///
    /// # Panics
    /// If `i` is out of bounds, the tile is frozen, or another thread of
    /// the team reads or writes element `i` between the same two barriers
    /// (before or after).
    #[inline(always)]
    #[track_caller]
    pub fn set(&self, i: usize, value: T) {
        self.check_index(i);
        let now = Now::read();
        assert!(
            !self.is_frozen(now),
            "offload: shared tile element {i} written after the tile was frozen"
        );
        self.claim_write(i, now.interval());
        // SAFETY: in bounds; no other thread reads or writes element `i` in
        // this interval (its record names this thread as its writer).
        unsafe { self.base.add(i).write(value) }
    }

    #[inline]
    #[track_caller]
    fn claim_read(&self, i: usize, now: u64) {
        let record = self.record(i);
        let mut seen = record.load(Relaxed);
        loop {
            let claim = seen & CLAIM_MASK;
            let next = if seen & !CLAIM_MASK != now {
                read_by(self.rank)
            } else if claim == SHARED
                || claim == read_by(self.rank)
                || claim == written_by(self.rank)
            {
                return;
            } else if claim & 1 == 0 {
                // Read by another thread alone: now by several.
                SHARED
            } else {
                self.conflict(i, "read", claim)
            };
            match record.compare_exchange_weak(seen, now | next, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(newer) => seen = newer,
            }
        }
    }

    #[inline]
    #[track_caller]
    fn claim_write(&self, i: usize, now: u64) {
        let mine = written_by(self.rank);
        let record = self.record(i);
        let mut seen = record.load(Relaxed);
        loop {
            let claim = seen & CLAIM_MASK;
            if seen & !CLAIM_MASK == now && claim == mine {
                return;
            }
            if seen & !CLAIM_MASK == now && claim != read_by(self.rank) {
                self.conflict(i, "written", claim);
            }
            match record.compare_exchange_weak(seen, now | mine, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(newer) => seen = newer,
            }
        }
    }

    #[cold]
    #[inline(never)]
    #[track_caller]
    fn conflict(&self, i: usize, access: &str, claim: u64) -> ! {
        match claimant(claim) {
            Some(other) if claim & 1 == 1 => panic!(
                "offload: shared tile element {i} {access} by thread rank {}, but thread rank {other} writes it between the same two sync_threads",
                self.rank
            ),
            Some(other) => panic!(
                "offload: shared tile element {i} {access} by thread rank {}, but thread rank {other} reads it between the same two sync_threads",
                self.rank
            ),
            None => panic!(
                "offload: shared tile element {i} {access} by thread rank {}, but other threads read it between the same two sync_threads",
                self.rank
            ),
        }
    }

    /// Makes the tile read-only from the next
    /// [`sync_threads`](crate::sync_threads) of the team on: then any
    /// thread reads any element without a claim, and no thread writes.
    /// One thread's call is enough (every thread may call it); the
    /// accesses until that barrier are checked as before.
    ///
    /// # Panics
    /// If the team passed `u32::MAX` barriers (the next one would not be
    /// counted).
    #[track_caller]
    pub fn freeze(&self) {
        let Now { stamp, barriers } = Now::read();
        let Some(next) = barriers.checked_add(1) else {
            panic!("offload: shared tile frozen after u32::MAX sync_threads");
        };
        let value = frozen_from(stamp, next);
        let header = self.header();
        let mut seen = header.load(Relaxed);
        // The interval the tile is frozen from only moves earlier within
        // the team, so no thread sees it frozen where another does not.
        while (seen >> 32) as u32 != stamp || seen as u32 > next {
            match header.compare_exchange_weak(seen, value, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(newer) => seen = newer,
            }
        }
    }

    /// The indices this thread touches in a plain split of the tile:
    /// `thread_rank()`, then every `team_size()` further, below `len` (any
    /// other split works as well: claims are per element).
    #[inline]
    pub fn own_indices(&self) -> crate::GridStride {
        super::own_indices(self.len)
    }
}

/// This team's stamp and the barriers this thread passed in it. The stamp
/// is different for every team of a launch, and on GPUs for every team
/// since the image was loaded (modulo 2^32), so a record left by an
/// earlier team in the same memory is of another interval. Read at each
/// access, not kept in the handle: a handle kept past its team still
/// claims in the current team's intervals.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod target {
    #[inline(always)]
    pub fn now() -> (u32, u32) {
        (
            crate::shared::target::team_stamp(),
            crate::shared::target::barriers_passed(),
        )
    }
}

/// The CPU: the teams of a launch run one after another over one zeroed
/// allocation per site, so the team's linear id plus one names it (one
/// team of stamp 1 outside a grid).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    use crate::index::{Idx3, linear_id, team_count, team_id};

    #[inline(always)]
    pub fn now() -> (u32, u32) {
        if crate::cpu_grid::current().is_none() {
            return (1, 0);
        }
        let zero = Idx3 { x: 0, y: 0, z: 0 };
        let one = Idx3 { x: 1, y: 1, z: 1 };
        let (team, _) = linear_id(team_id(), team_count(), zero, one);
        (
            (team as u32).wrapping_add(1),
            crate::sync::barriers_passed(),
        )
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::boxed::Box;
    use std::string::String;
    use std::vec::Vec;

    /// A tile of `len` `u32`s over `memory` as thread `rank` sees it
    /// (outside a grid: team stamp 1, no barrier passed).
    fn view(memory: &[AtomicU64], len: usize, rank: usize) -> SharedTile<u32> {
        assert!(memory.len() >= tile_bytes(4, len).unwrap() / 8);
        let base = memory.as_ptr().cast_mut().cast::<u8>();
        let records_at = (len * 4).next_multiple_of(8);
        // SAFETY: within `memory`, laid out as a tile site's.
        let records = unsafe { base.add(records_at).cast::<AtomicU64>() };
        SharedTile {
            base: base.cast(),
            records,
            // SAFETY: the header follows the records.
            frozen: unsafe { records.add(len) },
            len,
            rank,
            _thread: PhantomData,
        }
    }

    fn memory(len: usize) -> Vec<AtomicU64> {
        (0..tile_bytes(4, len).unwrap() / 8)
            .map(|_| AtomicU64::new(0))
            .collect()
    }

    fn panic_message(f: impl FnOnce()) -> String {
        let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_err();
        let payload: Box<dyn core::any::Any> = payload;
        match payload.downcast::<String>() {
            Ok(s) => *s,
            Err(p) => String::from(*p.downcast::<&str>().unwrap()),
        }
    }

    #[test]
    fn intervals_of_one_team_and_of_two_differ() {
        let mut seen = std::collections::BTreeSet::new();
        for stamp in [1, 2, 3, 1 << 20, u32::MAX] {
            for barriers in [0, 1, 2, 1 << 20, (1 << 20) + 1, u32::MAX] {
                let bits = Now { stamp, barriers }.interval();
                assert_eq!(bits & CLAIM_MASK, 0);
                assert!(bits != 0 && seen.insert(bits), "{stamp} {barriers}");
            }
        }
    }

    #[test]
    fn a_capacity_is_the_most_elements_that_fit() {
        for size in [1, 3, 4, 8, 12, 64] {
            for bytes in [0, 7, 8, 16, 17, 100, 1208, 4099] {
                let capacity = tile_capacity(size, bytes);
                let fits = |n| tile_bytes(size, n).is_some_and(|need| need <= bytes);
                assert!(
                    capacity == 0 && bytes < 8 + 8 + size.next_multiple_of(8) || fits(capacity)
                );
                assert!(!fits(capacity + 1), "{size} {bytes}");
            }
        }
        assert_eq!(tile_capacity(0, 100), 0);
        assert_eq!(tile_capacity(4, 1208), 100);
    }

    #[test]
    fn the_layout_counts_elements_records_and_header() {
        assert_eq!(tile_bytes(4, 3), Some(16 + 24 + 8));
        assert_eq!(tile_bytes(8, 4), Some(32 + 32 + 8));
        assert_eq!(tile_bytes(1, 0), Some(8));
        assert_eq!(tile_bytes(usize::MAX, 2), None);
    }

    #[test]
    fn many_threads_read_an_element_no_thread_writes() {
        let m = memory(8);
        let (a, b, c) = (view(&m, 8, 0), view(&m, 8, 1), view(&m, 8, 2));
        assert_eq!(a.get(5) + b.get(5) + c.get(5) + a.get(5), 0);
    }

    #[test]
    fn a_thread_reads_back_what_it_writes_and_writes_what_it_read() {
        let m = memory(8);
        let (a, b) = (view(&m, 8, 0), view(&m, 8, 1));
        a.set(3, 7);
        assert_eq!(a.get(3), 7);
        a.set(3, a.get(3) + 1);
        assert_eq!(b.get(4), 0);
        b.set(4, b.get(4) + 2);
        assert_eq!((a.get(3), b.get(4)), (8, 2));
    }

    #[test]
    fn a_read_of_an_element_another_thread_wrote_panics() {
        let m = memory(8);
        let (a, b) = (view(&m, 8, 0), view(&m, 8, 1));
        a.set(2, 1);
        let message = panic_message(|| {
            b.get(2);
        });
        assert!(
            message.contains("element 2 read by thread rank 1, but thread rank 0 writes it"),
            "{message}"
        );
    }

    #[test]
    fn a_write_of_an_element_another_thread_read_panics() {
        let m = memory(8);
        let (a, b, c) = (view(&m, 8, 0), view(&m, 8, 1), view(&m, 8, 2));
        b.get(6);
        let message = panic_message(|| a.set(6, 1));
        assert!(
            message.contains("element 6 written by thread rank 0, but thread rank 1 reads it"),
            "{message}"
        );
        // Read by two: not even one of them may write.
        c.get(6);
        let message = panic_message(|| b.set(6, 1));
        assert!(message.contains("other threads read it"), "{message}");
        let message = panic_message(|| a.set(6, 1));
        assert!(message.contains("other threads read it"), "{message}");
    }

    #[test]
    fn two_writers_of_an_element_panic() {
        let m = memory(8);
        let (a, b) = (view(&m, 8, 0), view(&m, 8, 1));
        b.set(0, 1);
        let message = panic_message(|| a.set(0, 2));
        assert!(message.contains("thread rank 1 writes it"), "{message}");
        assert_eq!(b.get(0), 1);
    }

    #[test]
    fn claims_of_another_team_are_stale() {
        let m = memory(8);
        let records = (8 * 4) / 8;
        // Team 2's thread 0 wrote element 1 and thread 2 read element 2,
        // in the interval of no barrier passed, as this team is in.
        let stale = |claim| {
            let team_2 = Now {
                stamp: 2,
                barriers: 0,
            };
            team_2.interval() | claim
        };
        m[records + 1].store(stale(written_by(0)), Relaxed);
        m[records + 2].store(stale(read_by(2)), Relaxed);
        assert_eq!(Now::read().stamp, 1);
        let (a, b) = (view(&m, 8, 3), view(&m, 8, 4));
        assert_eq!(a.get(1), 0);
        b.set(2, 9);
        assert_eq!(b.get(2), 9);
        assert_eq!(m[records + 2].load(Relaxed), interval() | written_by(4));
    }

    #[test]
    fn a_tile_is_frozen_from_the_next_barrier_and_only_earlier_later() {
        let m = memory(4);
        let (a, b) = (view(&m, 4, 0), view(&m, 4, 1));
        a.freeze();
        // Frozen from barrier 1 on: this interval (0) is still checked.
        assert!(!a.is_frozen(Now::read()) && !b.is_frozen(Now::read()));
        a.set(0, 1);
        assert_eq!(m[m.len() - 1].load(Relaxed), frozen_from(1, 1));
        b.freeze();
        assert_eq!(m[m.len() - 1].load(Relaxed), frozen_from(1, 1));
        // A freeze of this interval, as a team that froze it at the start
        // sees it: reads of anything, no writes.
        m[m.len() - 1].store(frozen_from(1, 0), Relaxed);
        assert!(a.is_frozen(Now::read()));
        assert_eq!(b.get(0), 1);
        let message = panic_message(|| b.set(1, 1));
        assert!(
            message.contains("written after the tile was frozen"),
            "{message}"
        );
        // Another team's freeze does not hold for this one.
        m[m.len() - 1].store(frozen_from(6, 0), Relaxed);
        assert!(!a.is_frozen(Now::read()));
    }

    #[test]
    fn an_index_out_of_bounds_panics() {
        let m = memory(4);
        let message = panic_message(|| {
            view(&m, 4, 0).get(4);
        });
        assert!(
            message.contains("index 4 out of bounds (len 4)"),
            "{message}"
        );
    }
}
