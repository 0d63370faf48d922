//! Barriers and memory fences, in CUDA's terms: [`sync_threads`]
//! (`__syncthreads`), [`thread_fence_block`], [`thread_fence`] and
//! [`thread_fence_system`] (`__threadfence_block`, `__threadfence`,
//! `__threadfence_system`).
//!
//! `sync_threads` is checked at build time: offload-build refuses a kernel
//! in which some threads of a team can reach a `sync_threads` (or warp
//! operation) that others skip (docs/uniformity.md lists what is accepted
//! and refused). Where a kernel keeps the rule by means the check cannot
//! see, [`sync_threads_unchecked`] is the same barrier with the rule as its
//! `unsafe` contract. Fences are not meeting points: they are safe
//! anywhere.
//!
//! ```
//! use offload::{kernel, sync};
//!
//! #[kernel]
//! pub fn two_phases(x: &[f32]) {
//!     // ... each thread writes its own slots of the team's shared memory
//!     sync::sync_threads(); // every thread's writes are visible to all
//!     // ... each thread reads any slot
//!     let _ = x;
//! }
//! ```

use core::sync::atomic::{Ordering, fence};

/// The team barrier: waits until every thread of the team has reached it
/// (or returned from the kernel), and makes every memory write the team's
/// threads made before it visible to all of them after it.
///
/// Every thread of the team must reach the same `sync_threads` calls, in
/// the same order, as on a GPU (not inside a branch some threads of the
/// team skip): on NVIDIA GPUs `bar.sync 0`, on AMD GPUs `s_barrier` between
/// release and acquire fences, and on the CPU a barrier of the team's OS
/// threads (a thread that returned from the kernel no longer counts, so
/// early returns do not deadlock). It also starts the next phase of the
/// team's shared memory ([`shared`](crate::shared)).
#[inline]
#[track_caller]
pub fn sync_threads() {
    target::sync_threads();
}

/// [`sync_threads`] without the build-time check that every thread of the
/// team reaches it: the same barrier (on the CPU grid, a mismatch that
/// reaches run time still aborts naming both sites rather than hanging).
///
/// # Safety
/// Every thread of the team that has not returned from the kernel reaches
/// this same call site, the same number of times, in the same order
/// relative to the team's other barriers and warp operations. A thread
/// that returned no longer counts. Otherwise GPUs deadlock or let threads
/// run in different phases (and the shared memory's phase checks, which
/// make [`SharedSlice`](crate::shared::SharedSlice) sound, no longer hold).
#[inline]
#[track_caller]
pub unsafe fn sync_threads_unchecked() {
    // SAFETY: the caller's promise is the barrier's contract.
    unsafe { target::sync_threads_unchecked() };
}

/// A fence ordering this thread's memory accesses as the threads of its
/// team see them (`__threadfence_block`). Here as strong as
/// [`thread_fence_system`]: a sequentially consistent fence.
#[inline]
pub fn thread_fence_block() {
    fence(Ordering::SeqCst);
}

/// A fence ordering this thread's memory accesses as every thread of the
/// device sees them (`__threadfence`): a sequentially consistent fence.
#[inline]
pub fn thread_fence() {
    fence(Ordering::SeqCst);
}

/// A fence ordering this thread's memory accesses as the device's threads
/// and the host see them (`__threadfence_system`): a sequentially
/// consistent fence (system scope on both GPUs).
#[inline]
pub fn thread_fence_system() {
    fence(Ordering::SeqCst);
}

/// Team barriers this thread passed in its current team (the phase of the
/// shared memory); 0 outside a launch grid.
#[inline]
pub(crate) fn barriers_passed() -> u32 {
    target::barriers_passed()
}

#[cfg(target_arch = "nvptx64")]
mod target {
    pub use crate::shared::target::barriers_passed;

    #[inline]
    pub fn sync_threads() {
        // SAFETY: `bar.sync 0`, which every thread of the block reaches
        // (`sync_threads`' contract, as CUDA's).
        unsafe { core::arch::nvptx::_syncthreads() }
        crate::shared::target::count_barrier();
    }

    /// # Safety
    /// As `sync_threads_unchecked`.
    #[inline]
    pub unsafe fn sync_threads_unchecked() {
        // SAFETY: the caller's promise.
        unsafe { __offload_unchecked_sync_threads() };
        crate::shared::target::count_barrier();
    }

    /// The barrier of the `unsafe` form, never inlined, so the build-time
    /// check (which skips `__offload_unchecked_*`) tells it apart.
    ///
    /// # Safety
    /// As `sync_threads_unchecked`.
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub unsafe extern "C" fn __offload_unchecked_sync_threads() {
        // SAFETY: the caller's promise.
        unsafe { core::arch::nvptx::_syncthreads() }
    }
}

#[cfg(target_arch = "amdgpu")]
mod target {
    use core::sync::atomic::{Ordering, fence};

    pub use crate::shared::target::barriers_passed;

    #[inline]
    pub fn sync_threads() {
        // What clang emits for `__syncthreads`, with system-scope fences
        // (Rust has no workgroup-scope fence; these are stronger).
        fence(Ordering::Release);
        core::arch::amdgpu::s_barrier();
        fence(Ordering::Acquire);
        crate::shared::target::count_barrier();
    }

    /// # Safety
    /// As `sync_threads_unchecked`.
    #[inline]
    pub unsafe fn sync_threads_unchecked() {
        fence(Ordering::Release);
        // SAFETY: the caller's promise.
        unsafe { __offload_unchecked_sync_threads() };
        fence(Ordering::Acquire);
        crate::shared::target::count_barrier();
    }

    /// The barrier of the `unsafe` form, never inlined, so the build-time
    /// check (which skips `__offload_unchecked_*`) tells it apart.
    ///
    /// # Safety
    /// As `sync_threads_unchecked`.
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub unsafe extern "C" fn __offload_unchecked_sync_threads() {
        core::arch::amdgpu::s_barrier();
    }
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    #[inline]
    pub fn barriers_passed() -> u32 {
        let count = crate::cpu_grid::hooks::__offload_cpu_barriers();
        if count.is_null() {
            return 0;
        }
        // SAFETY: the grid thread's own count, live while it runs; only its
        // own barriers (or, under the compiled executor, the runtime between
        // team body calls) change it.
        unsafe { count.read() }
    }

    #[track_caller]
    pub fn sync_threads() {
        // Host code has no grid: the hook fences and returns.
        crate::cpu_grid::hooks::__offload_cpu_sync_threads(core::panic::Location::caller());
    }

    /// # Safety
    /// As `sync_threads_unchecked`.
    #[track_caller]
    pub unsafe fn sync_threads_unchecked() {
        crate::cpu_grid::hooks::__offload_unchecked_sync_threads(core::panic::Location::caller());
    }
}
