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

mod fail;
mod slice;
mod static_array;
pub(crate) mod target;
mod tile;

pub use slice::{DynShared, SharedSlice, dyn_shared, dyn_shared_len};
use slice::{agree, element_key, own_indices};
pub use static_array::{SharedArray, SharedAtomics};
#[doc(hidden)]
pub use static_array::{StaticSite, static_array, static_atomics};
#[doc(hidden)]
pub use tile::static_tile;
pub use tile::{SharedTile, dyn_tile, dyn_tile_bytes, dyn_tile_len};

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
