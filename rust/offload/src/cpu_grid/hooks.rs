//! The CPU grid's entry points into a kernel's code: its one thread-dependent
//! query and its two meeting points, as fixed symbols that are never inlined.
//!
//! Everything a kernel learns that differs between the threads of a team
//! (its rank, from which its thread id and lane follow) and every point
//! where threads of a team wait for each other (the team barrier, a warp's
//! exchange) is one of these calls. So the plugin's passes find them by
//! name in the x86_64 image's IR, as they find `llvm.nvvm.barrier0` or
//! `llvm.amdgcn.s.barrier` in a GPU image's:
//!
//! | symbol | what | GPU counterpart |
//! |---|---|---|
//! | `__offload_cpu_thread_rank` | the thread's linear id in its team | `tid.x/y/z`, `workitem.id.x/y/z` |
//! | `__offload_cpu_sync_threads` | the team barrier | `bar.sync 0`, `s_barrier` |
//! | `__offload_cpu_warp_exchange` | offer a lane's 8 bytes, wait for the warp, see every lane's | `shfl.sync`, `ds_bpermute`, `ballot` |
//! | `__offload_cpu_warp_release` | wait until every lane of the warp has read the exchange | (none: a GPU's exchange is one instruction) |
//! | `__offload_cpu_current` | the team's record (ids, counts, shared memory): the same for a whole team, its fields too | (none) |
//! | `__offload_cpu_barriers` | where the team barriers passed are counted: the same count for a whole team body call | (none) |
//! | `__offload_cpu_static_shared` | a static shared array's address: the same for a whole team body call | the `addrspace(3)` global |
//!
//! The `unsafe` unchecked forms (`sync::sync_threads_unchecked`,
//! `warp::*_unchecked`) call `__offload_unchecked_sync_threads`,
//! `__offload_unchecked_warp_exchange` and `__offload_unchecked_warp_release`,
//! never-inlined entry points that forward to the hooks above: a pass that
//! looks for meeting points finds them as calls of either name, and the
//! build-time uniformity check (`offload-check-uniform`) skips the
//! `__offload_unchecked_*` ones, whose callers promised what it checks.
//!
//! The meeting points take the caller's source location (`#[track_caller]`
//! of the safe functions above them), so the grid can name both sites when
//! the threads of a team meet at different ones.
//!
//! Outside a launch grid (host code) a team is one thread: rank 0, the
//! barrier is a fence, a warp is one lane.

use core::panic::Location;
use core::sync::atomic::{Ordering, fence};

use super::current;

/// A source site of a meeting point.
pub type Site = &'static Location<'static>;

/// This thread's linear id in its team (x fastest), in `0..team_size()`.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_thread_rank() -> u32 {
    current().map_or(0, |t| t.rank())
}

/// The record of this OS thread's grid thread (under the compiled
/// executor: its team's), an opaque pointer; null outside a grid. It does
/// not change while a thread body or team body runs, so the plugin's
/// `offload-team-loops` pass calls it once per team body call.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_current() -> *const core::ffi::c_void {
    super::current_record().cast()
}

/// The team's static shared array of declaration `site` (its address as an
/// integer): `bytes` bytes aligned to `align`, allocated at the team's
/// first call; null outside a grid. Every thread of a team, and every call
/// in a team body call, gets the same address, so `offload-team-loops`
/// makes one call per team body call (in its entry) of each call with
/// constant arguments, instead of one per thread and step.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_static_shared(site: usize, bytes: usize, align: usize) -> *mut u8 {
    current().map_or(core::ptr::null_mut(), |t| {
        t.static_shared(site, bytes, align)
    })
}

/// Where the team barriers this thread (under the compiled executor: its
/// team) passed are counted, the phase of the shared memory; null outside
/// a grid. The count changes at every barrier, so, unlike the record's
/// fields, it is fixed only within one team body call: `offload-team-loops`
/// reads it once per call, and keeps a value computed from it before a
/// barrier in the thread's context storage.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_barriers() -> *const u32 {
    current().map_or(core::ptr::null(), |t| t.barriers_ptr())
}

/// The team barrier (`sync::sync_threads`), reached at `site`.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_sync_threads(site: Site) {
    match current() {
        Some(thread) => thread.sync_threads(site),
        None => fence(Ordering::SeqCst),
    }
}

/// Offers `*own` as this lane's value, waits for every lane of the warp,
/// and returns the warp's offers, indexed by lane (`lanes` of them, see
/// `Thread::warp_lanes`). They stay valid, and `*own` must stay alive,
/// until this thread calls [`__offload_cpu_warp_release`], which it must
/// call next.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_warp_exchange(own: *const u64, site: Site) -> *const u64 {
    match current() {
        Some(thread) => thread.warp_offer(own, site),
        // A warp of one lane: its own offer.
        None => own,
    }
}

/// Waits until every lane of this thread's warp has read the exchange it
/// made last (so no lane offers again before all have read).
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_cpu_warp_release(site: Site) {
    if let Some(thread) = current() {
        thread.warp_release(site);
    }
}

/// The team barrier of `sync::sync_threads_unchecked`: forwards to
/// [`__offload_cpu_sync_threads`].
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_unchecked_sync_threads(site: Site) {
    __offload_cpu_sync_threads(site);
}

/// The exchange of the `warp::*_unchecked` forms: forwards to
/// [`__offload_cpu_warp_exchange`] (same contract).
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_unchecked_warp_exchange(own: *const u64, site: Site) -> *const u64 {
    __offload_cpu_warp_exchange(own, site)
}

/// The release of the `warp::*_unchecked` forms: forwards to
/// [`__offload_cpu_warp_release`].
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn __offload_unchecked_warp_release(site: Site) {
    __offload_cpu_warp_release(site);
}
