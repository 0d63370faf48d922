//! Shared (team-local) memory: the launch's dynamic shared memory as a typed
//! slice every thread of a team sees, and static shared arrays declared in
//! a kernel, with access that cannot race.
//!
//! [`Launch::dyn_shared_mem`](crate::Launch::dyn_shared_mem)`(bytes)` gives
//! each team `bytes` of memory its threads share (CUDA's `extern
//! __shared__`, HIP's dynamic LDS). In a kernel, [`dyn_shared`]`::<T>(len)`
//! is that memory as `len` `T`s, or `None` where the launch gave fewer bytes
//! (never an access out of bounds).
//!
//! [`shared_array!`](crate::shared_array)`(T; LEN)` declares a static
//! shared array of the team (CUDA's `__shared__ T a[LEN]`): a
//! [`SharedArray`] of `LEN` `T`s, its own storage per declaration, the same
//! for every thread of the team, with the same phases.
//!
//! # Phases: why the safe accesses cannot race
//!
//! The team's [`sync_threads`](crate::sync_threads) calls cut a kernel into
//! *phases*; every thread of the team is in the same phase between two
//! barriers (each thread reaches the same barriers, and a thread that
//! returned no longer counts). Phases alternate, starting with a **write
//! phase** when the team starts:
//!
//! - in a **write phase** (an even number of `sync_threads` passed) a thread
//!   may [`set`](DynShared::set) and [`get`](DynShared::get) (of a
//!   `DynShared` or a `SharedArray`) only the
//!   elements it *owns*: index `i` with `i % team_size() == thread_rank()`
//!   ([`own_indices`](DynShared::own_indices) lists them). No two threads
//!   own the same element, so no two threads touch one element;
//! - in a **read phase** (an odd number passed) every thread may `get` any
//!   element and none may `set`: reads do not race with reads.
//!
//! The barrier between two phases orders every write before every read.
//! Each access checks the phase and the ownership, and an access that
//! breaks them panics (on the CPU: the message and an abort; on GPUs a
//! trap) instead of racing. A kernel whose threads touch other elements
//! between two barriers (a stencil, a wavefront, a halo load) takes a
//! shared tile (below); one that needs a pattern no safe form allows (a
//! thread reading a neighbour's element written in the same phase, after
//! a fence) uses [`as_ptr`](DynShared::as_ptr), under its own proof.
//!
//! ```
//! use offload::atomic::{AtomicF32, Ordering};
//! use offload::{kernel, shared, sync_threads};
//!
//! /// Each team's sum of `x`'s elements at its threads' ranks, stored in
//! /// `sums[team]` (a tree in shared memory: one `f32` per thread).
//! #[kernel]
//! pub fn team_sums(x: &[f32], sums: &[AtomicF32]) {
//!     let n = offload::index::team_size();
//!     let me = offload::index::thread_rank();
//!     let team = offload::index::team_id().x as usize;
//!     let Some(s) = shared::dyn_shared::<f32>(n) else { return };
//!     s.set(me, x.get(team * n + me).copied().unwrap_or(0.0));
//!     let mut width = n;
//!     while width > 1 {
//!         let half = width.div_ceil(2);
//!         sync_threads(); // read phase: any element
//!         let v = if me < width - half { s.get(me) + s.get(me + half) } else { s.get(me) };
//!         sync_threads(); // write phase: own elements
//!         s.set(me, v);
//!         width = half;
//!     }
//!     if me == 0 && team < sums.len() {
//!         sums[team].store(s.get(0), Ordering::Relaxed);
//!     }
//! }
//! ```
//!
//! The tree takes two barriers per step where CUDA code takes one: a thread
//! may not read what another writes in the same phase.
//!
//! # Shared tiles: claims per element, per interval
//!
//! The fixed phases are cheap (no memory, one comparison per access) but
//! refuse much of what CUDA kernels do between two `__syncthreads()`: a
//! stencil reads its neighbours in one array while it writes its own
//! element of another; a wavefront writes, in each step, cells the rule
//! `i % team_size() == thread_rank()` gives to another thread; a table
//! filled once is read by everyone from then on.
//! [`shared_tile!`](crate::shared_tile)`(T; LEN)` declares a static shared
//! array for these, a [`SharedTile`], whose accesses are checked element by
//! element; [`dyn_tile`]`::<T>(len)` views the launch's dynamic shared
//! memory the same way (a team views it one way: as a tile or with the
//! fixed phases, with one element size). Call the stretch of a team's run between two of its barriers an
//! *interval* (every thread of the team is in the same one: each passed as
//! many barriers). In an interval, each element of a tile is
//!
//! - written by **one** thread, which may also read it, and by no other
//!   thread read or written; or
//! - read by **any** threads and written by none;
//!
//! and which of the two is decided by the first access of the element in
//! the interval, whoever makes it. After [`freeze`](SharedTile::freeze)
//! (by any one thread), from the team's next barrier on, every element is
//! read by any thread and written by none.
//!
//! **Why no two threads race.** Two accesses of one element race only if
//! they are in the same interval (a barrier orders every access before it
//! before every access after it, as in the fixed phases), are made by two
//! threads, and one writes. Each element has a *record* (8 bytes after the
//! elements): the interval of its last claim (52 bits of a hash of the
//! team's stamp, unique per team of a launch, and the barriers passed) and
//! the claim, *read by r*, *read by several* or *written by w*. An access
//! first makes sure the record holds a claim of the current interval that
//! allows it, changing it only by compare-and-swap: a claim of another
//! interval (or any other bits) becomes *read by r* or *written by w*;
//! *read by r* becomes *read by several* (another reader) or *written by r*
//! (its own write). No claim of the interval leaves *read by several* or
//! *written by w*, so in one interval an element is written (by `w`, whose
//! claim is then final) only if no other thread's read was claimed before,
//! and no other thread reads or writes it after; every other case panics
//! before the access. A compare-and-swap always sees the latest value of
//! the record, and the claims of one interval only move forward, so two
//! threads cannot both see the claim they need. Bits left in the memory by
//! another team or kernel are another interval's (or, with a chance of
//! about 2^-52 per element, a claim of this one, whose rules are then kept
//! all the same): they can cause a spurious panic, never a race. (GPU
//! stamps count the teams started since the image was loaded, modulo 2^32.)
//! A tile is frozen from the barrier after a `freeze` for every thread
//! alike: the interval it is frozen from only moves earlier, and a thread
//! in interval `k` sees every value stored before the barrier that started
//! `k`.
//!
//! The records cost 8 bytes of shared memory per element and an atomic
//! load per access (a compare-and-swap for the first access of an element
//! in an interval); a frozen tile costs one load per access. See the guide
//! for the CUDA idioms each form takes.
//!
//! # Targets
//!
//! On AMD and NVIDIA GPUs the memory is the team's dynamic shared memory
//! (LDS, `.shared`: `addrspace(3)`, the external array `extern __shared__`
//! makes in HIP and CUDA), 8-byte aligned; its first 16 bytes and 8 bytes
//! per thread of the team hold the team's element size and each thread's
//! phase and the launch's size (the host's launcher asks the runtime for
//! `dyn_shared_mem` plus these, 8 KiB and 16 bytes when the runtime chooses
//! the threads), so a launch has that much less than the GPU's shared
//! memory for its own. The kernel's entry point sets them up and waits at
//! a barrier of the team. On the CPU (libomptarget's
//! host plugin) the teams run one after another and share one allocation of
//! the launch's `dyn_shared_mem` bytes (16-byte aligned, zeroed before the
//! first team).
//!
//! A static shared array is, on GPUs, an `addrspace(3)` array of its own
//! per declaration (the plugin's `offload-shared-memory` pass, clang's
//! `__shared__`), counted in the kernel's fixed shared memory: one array
//! over 48 KiB does not compile (offload-contract's
//! `STATIC_SHARED_ARRAY_MAX`, what every GPU takes), and a kernel's arrays
//! together over 64 KiB on AMD GPUs (gfx90a's LDS) or 48 KiB on NVIDIA GPUs
//! (static `.shared`) are a build error of the GPU image naming the kernel.
//! A kernel's static arrays and its dynamic shared memory share the GPU's
//! shared memory. On the CPU each declaration is one zeroed allocation per
//! launch, made when a thread first reaches it and reused by each team;
//! only memory limits the total. On both it starts with no defined value
//! for the kernel (hence `T: AnyBitPattern`).

use core::marker::PhantomData;
use core::sync::atomic::Ordering::Relaxed;

use crate::AnyBitPattern;

mod static_array;
mod tile;

pub use static_array::{SharedArray, SharedAtomics};
#[doc(hidden)]
pub use static_array::{StaticSite, static_array, static_atomics};
#[doc(hidden)]
pub use tile::static_tile;
pub use tile::{SharedTile, dyn_tile, dyn_tile_len};

/// A static shared array of the team: `shared_array!(T; LEN)` declares
/// `LEN` `T`s (a constant) shared by the threads of a team, like CUDA's
/// `__shared__ T a[LEN]`, and is this thread's
/// `Option<`[`SharedArray<T>`](crate::shared::SharedArray)`>` view of them (`None`
/// only outside a launch grid), with the phases of
/// [`dyn_shared`](crate::shared::dyn_shared) (see [`shared`](crate::shared)).
///
/// Each declaration is its own array, the same for every thread of the
/// team wherever it reaches it (in a loop, or in a function called from
/// several places). `T` has any bit pattern as a value (the array starts
/// with no defined value) and cannot be a generic parameter of the
/// enclosing function (one array per declaration); an array of more than
/// 48 KiB is a compile error (what every GPU takes), and a kernel's arrays
/// together over the GPU's limit (AMD: 64 KiB, NVIDIA: 48 KiB) are a build
/// error of the GPU image naming the kernel.
///
/// ```
/// use offload::atomic::{AtomicU32, Ordering};
/// use offload::{kernel, shared_array, sync_threads};
///
/// /// Reverses each team's block of 256 elements of `x` into `out`.
/// #[kernel]
/// pub fn reverse_256(x: &[u32], out: &[AtomicU32]) {
///     let Some(tile) = shared_array!(u32; 256) else { return };
///     let base = offload::index::team_id().x as usize * 256;
///     for i in tile.own_indices() {
///         tile.set(i, x.get(base + i).copied().unwrap_or(0));
///     }
///     sync_threads();
///     for i in tile.own_indices() {
///         if let Some(o) = out.get(base + i) {
///             o.store(tile.get(255 - i), Ordering::Relaxed);
///         }
///     }
/// }
/// ```
#[macro_export]
macro_rules! shared_array {
    ($t:ty; $len:expr $(,)?) => {{
        static SITE: $crate::shared::StaticSite = $crate::shared::StaticSite::new::<$t>($len);
        $crate::shared::static_array::<$t>(&SITE)
    }};
}

/// A shared tile of the team: `shared_tile!(T; LEN)` declares `LEN` `T`s
/// shared by the threads of a team, like [`shared_array!`](crate::shared_array),
/// whose accesses are checked element by element instead of by the fixed
/// phases: between two [`sync_threads`](crate::sync_threads) an element is
/// written by one thread (which may read it back) or read by any number,
/// and [`freeze`](crate::shared::SharedTile::freeze) makes the tile
/// read-only for the rest of the team's run (see [`shared`](crate::shared),
/// "Shared tiles"). It is an `Option<`[`SharedTile<T>`](crate::shared::SharedTile)`>`
/// (`None` only outside a launch grid). Each element takes 8 more bytes
/// of shared memory (its record); the elements and records together may
/// have at most 48 KiB (a compile error otherwise).
///
/// ```
/// use offload::{kernel, shared_tile, sync_threads, Out};
///
/// /// Each team of 256 threads: `out[i] = x[i-1] + x[i] + x[i+1]` within
/// /// its block of `x` (0 past the block's ends).
/// #[kernel]
/// pub fn blur_256(x: &[f32], mut out: Out<'_, [f32], offload::partition::GlobalId>) {
///     let Some(a) = shared_tile!(f32; 256) else { return };
///     let Some(b) = shared_tile!(f32; 256) else { return };
///     let me = offload::index::thread_rank();
///     let base = offload::index::team_id().x as usize * 256;
///     a.set(me, x.get(base + me).copied().unwrap_or(0.0));
///     sync_threads();
///     // Reads neighbours in `a` while writing its own element of `b`.
///     let left = if me > 0 { a.get(me - 1) } else { 0.0 };
///     let right = if me < 255 { a.get(me + 1) } else { 0.0 };
///     b.set(me, left + a.get(me) + right);
///     if let Some((_, slot)) = out.at_global_id() {
///         slot.write(b.get(me));
///     }
/// }
/// ```
#[macro_export]
macro_rules! shared_tile {
    ($t:ty; $len:expr $(,)?) => {{
        static SITE: $crate::shared::StaticSite = $crate::shared::StaticSite::tile::<$t>($len);
        $crate::shared::static_tile::<$t>(&SITE)
    }};
}

/// A static shared array of atomics of the team: `shared_atomic_array!(A;
/// LEN)` declares `LEN` atomics `A` (`AtomicU32`, `AtomicI64`, `AtomicF32`,
/// ... of [`offload::atomic`](crate::atomic)) shared by the threads of a
/// team, CUDA's `__shared__` counters updated with `atomicAdd`, as an
/// `Option<`[`SharedAtomics<A>`](crate::shared::SharedAtomics)`>` (`None`
/// outside a launch grid). Every access is atomic, so there are no phases;
/// the limits are `shared_array!`'s.
///
/// ```
/// use offload::atomic::{AtomicU32, Ordering::Relaxed};
/// use offload::{kernel, shared_atomic_array, sync_threads};
///
/// /// Each team's histogram of its block of `x` (16 bins), added to `bins`.
/// #[kernel]
/// pub fn team_histogram(x: &[u32], bins: &[AtomicU32]) {
///     let Some(team_bins) = shared_atomic_array!(AtomicU32; 16) else { return };
///     for i in team_bins.own_indices() {
///         team_bins.get(i).store(0, Relaxed);
///     }
///     sync_threads();
///     for i in offload::grid_stride(x.len()) {
///         team_bins.get(x[i] as usize % 16).fetch_add(1, Relaxed);
///     }
///     sync_threads();
///     for i in team_bins.own_indices() {
///         if let Some(bin) = bins.get(i) {
///             bin.fetch_add(team_bins.get(i).load(Relaxed), Relaxed);
///         }
///     }
/// }
/// ```
#[macro_export]
macro_rules! shared_atomic_array {
    ($t:ty; $len:expr $(,)?) => {{
        static SITE: $crate::shared::StaticSite = $crate::shared::StaticSite::atomics::<$t>($len);
        $crate::shared::static_atomics::<$t>(&SITE)
    }};
}

/// Shared memory of the team as `len` `T`s, the launch's dynamic shared
/// memory ([`DynShared`]) or a static array ([`SharedArray`]): a handle per
/// thread (neither `Send` nor `Sync`: it checks this thread's phase).
pub struct SharedSlice<T> {
    base: *mut T,
    len: usize,
    _thread: PhantomData<*mut T>,
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
    let agreed = match target::element_size().compare_exchange(0, key, Relaxed, Relaxed) {
        Ok(_) => true,
        Err(size) => size == key,
    };
    let fits = agreed
        && size != 0
        && base.align_offset(align_of::<T>()) == 0
        && len.checked_mul(size).is_some_and(|need| need <= bytes);
    fits.then(|| SharedSlice {
        base: base.cast(),
        len,
        _thread: PhantomData,
    })
}

/// The value a team's views of its dynamic shared memory agree on: the
/// element size, and whether they are tiles ([`dyn_tile`]: claims per
/// element) or of the fixed phases (`None` for sizes of 2^31 bytes or
/// more, which no launch holds with their records).
#[inline]
fn element_key(size: usize, tile: bool) -> Option<u32> {
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
fn own_indices(len: usize) -> crate::GridStride {
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
    assert!(
        i < len,
        "offload: shared index {i} out of bounds (len {len})"
    );
    assert!(
        write_phase(),
        "offload: shared memory written in a read phase (after an odd number of sync_threads)"
    );
    assert!(
        owns(i),
        "offload: shared element {i} written by thread rank {}, which does not own it (i % team_size() == thread_rank())",
        crate::index::thread_rank()
    );
}

/// The checks of a `get` of element `i` of `len` (see the module docs).
#[inline]
#[track_caller]
fn check_get(i: usize, len: usize) {
    assert!(
        i < len,
        "offload: shared index {i} out of bounds (len {len})"
    );
    assert!(
        !write_phase() || owns(i),
        "offload: shared element {i} read in a write phase by thread rank {}, which does not own it",
        crate::index::thread_rank()
    );
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

/// The GPUs: the dynamic shared memory is the external `addrspace(3)` array
/// `__offload_dyn_shared` (the plugin's `offload-shared-memory` pass). Its
/// first `SHARED_HEADER_TEAM` bytes are the team's (the agreed element size
/// and the team's stamp for shared tiles, set by thread 0 at the entry,
/// before a barrier), the next
/// `SHARED_HEADER_PER_THREAD` bytes per thread of the team each thread's
/// own record (the team barriers it passed and the
/// launch's `dyn_shared_mem`), which only that thread touches; the kernel's
/// memory follows, 8-byte aligned (the host's launcher asks for both).
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub(crate) mod target {
    use core::sync::atomic::AtomicU32;
    use core::sync::atomic::Ordering::Relaxed;
    use offload_contract::grid::{SHARED_HEADER_PER_THREAD, SHARED_HEADER_TEAM};

    unsafe extern "C" {
        /// offload-contract's `grid::DYN_SHARED_BASE_FN`: stable Rust
        /// cannot name `addrspace(3)`, so the plugin's
        /// `offload-shared-memory` pass replaces each call by the generic
        /// address of the `addrspace(3)` array (a call, not a static: the
        /// optimiser would fold a static's accesses into the global address
        /// space before the pass runs).
        fn __offload_dyn_shared_base() -> *mut u8;
    }

    #[inline(always)]
    fn base() -> *mut u8 {
        // SAFETY: replaced by a constant address (see above).
        unsafe { __offload_dyn_shared_base() }
    }

    /// This thread's record: `[barriers passed, dyn_shared_mem]`.
    #[inline(always)]
    fn record() -> *mut [u32; 2] {
        let base = base();
        let offset = SHARED_HEADER_TEAM as usize
            + crate::index::thread_rank() * SHARED_HEADER_PER_THREAD as usize;
        // SAFETY: the launcher asked for a record per thread of the team.
        unsafe { base.add(offset).cast() }
    }

    /// The team's agreed element size (0: none yet), at the start.
    #[inline(always)]
    pub fn element_size() -> &'static AtomicU32 {
        // SAFETY: the team's header, aligned, only accessed atomically
        // after `enter` (valid while the kernel runs: the reference does
        // not leave this crate's functions).
        unsafe { AtomicU32::from_ptr(base().cast()) }
    }

    /// The team's stamp for shared tiles (`tile::target::now`), at offset
    /// 4 of the team's header: written by thread 0 before the entry's
    /// barrier, only read after it (plain accesses, which the compiler may
    /// merge).
    #[inline(always)]
    fn stamp() -> *mut u32 {
        // SAFETY: the header's second word (the launcher asked for it).
        unsafe { base().cast::<u32>().add(1) }
    }

    /// Teams started since the image was loaded (a device global): each
    /// team's stamp.
    static TEAMS_STARTED: AtomicU32 = AtomicU32::new(0);

    #[inline(always)]
    pub fn team_stamp() -> u32 {
        // SAFETY: written before the entry's barrier, never after.
        unsafe { stamp().read() }
    }

    /// At the kernel's entry: this thread's record, the team's header (by
    /// thread 0: no element size yet, a fresh stamp), and a barrier so no
    /// thread uses the header before.
    #[inline(always)]
    pub fn enter(dyn_shared_mem: u32) {
        // SAFETY: this thread's own record, which no other thread touches.
        unsafe { record().write([0, dyn_shared_mem]) }
        if crate::index::thread_rank() == 0 {
            element_size().store(0, Relaxed);
            let team = TEAMS_STARTED.fetch_add(1, Relaxed).wrapping_add(1);
            // SAFETY: thread 0 alone writes it, before the barrier below.
            unsafe { stamp().write(team) }
        }
        hardware_barrier();
    }

    #[cfg(target_arch = "nvptx64")]
    #[inline(always)]
    fn hardware_barrier() {
        // SAFETY: every thread of the block runs the entry.
        unsafe { core::arch::nvptx::_syncthreads() }
    }

    #[cfg(target_arch = "amdgpu")]
    #[inline(always)]
    fn hardware_barrier() {
        use core::sync::atomic::{Ordering, fence};
        fence(Ordering::Release);
        core::arch::amdgpu::s_barrier();
        fence(Ordering::Acquire);
    }

    #[inline(always)]
    pub fn barriers_passed() -> u32 {
        // SAFETY: as in `enter`.
        unsafe { (*record())[0] }
    }

    #[inline(always)]
    pub fn count_barrier() {
        // SAFETY: as in `enter`.
        unsafe { (*record())[0] = (*record())[0].wrapping_add(1) }
    }

    #[inline(always)]
    pub fn dyn_shared() -> Option<(*mut u8, usize)> {
        let base = base();
        let header = SHARED_HEADER_TEAM as usize
            + crate::index::team_size() * SHARED_HEADER_PER_THREAD as usize;
        // SAFETY: as in `enter`; the kernel's bytes follow the records.
        unsafe { Some((base.add(header), (*record())[1] as usize)) }
    }
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    use core::sync::atomic::AtomicU32;

    pub fn dyn_shared() -> Option<(*mut u8, usize)> {
        crate::cpu_grid::current().map(|t| t.dyn_shared())
    }

    /// Only reached in a launch grid (`dyn_shared` is `None` elsewhere).
    pub fn element_size() -> &'static AtomicU32 {
        static NONE: AtomicU32 = AtomicU32::new(u32::MAX);
        crate::cpu_grid::current().map_or(&NONE, |t| t.shared_element_size())
    }
}
