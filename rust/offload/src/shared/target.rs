//! Where the team's shared memory is on each target: on GPUs the
//! `addrspace(3)` arrays the plugin places, with the team's header (the
//! element size the team's views agreed on, the barrier count); on the CPU
//! the grid runner's allocation per team.

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
mod gpu {
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

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub use gpu::*;

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod cpu {
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

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
pub use cpu::*;
