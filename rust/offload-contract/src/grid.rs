//! The launch grid a kernel receives in its hidden leading launch slots.
//!
//! libomptarget's host (CPU) plugin ignores the launch configuration and
//! calls a kernel once, so the grid reaches the kernel through the launch
//! contract instead: `#[kernel]` puts [`SLOTS`] ordinary 8-byte scalar slots
//! (kind int, 8 bytes, map LITERAL) before the kernel's own parameters, the
//! host's launcher fills them from its `Launch` ([`encode`]) and the entry
//! point reads them back ([`decode`]). They are ordinary record slots, so the
//! launch stubs and the passes treat them like any scalar argument.
//!
//! ```text
//! slot 0  teams.x   | teams.y   << 32
//! slot 1  teams.z   | threads.x << 32
//! slot 2  threads.y | threads.z << 32
//! slot 3  dynamic shared memory in bytes
//! ```
//!
//! On the GPUs the ids come from hardware registers; the x86_64 image's
//! entry point runs the whole grid these slots describe.

/// How many hidden slots lead every kernel's launch arguments.
pub const SLOTS: usize = 4;

/// The most threads a team may have (per launch, x × y × z), as on both GPUs.
pub const MAX_THREADS_PER_TEAM: u32 = 1024;

/// The warp size of the x86_64 image's grid runner: consecutive groups of
/// this many threads of a team (by linear thread id) exchange values in the
/// warp operations, as NVIDIA's warps do.
pub const CPU_WARP_SIZE: u32 = 32;

/// The function the `offload` crate's GPU code calls for the address of
/// the team's dynamic shared memory (declared, never defined): the plugin's
/// `offload-shared-memory` pass replaces each call by the generic address
/// of [`DYN_SHARED_SYMBOL`].
pub const DYN_SHARED_BASE_FN: &str = "__offload_dyn_shared_base";

/// The dynamic shared memory in a GPU image: the external `addrspace(3)`
/// array `offload-shared-memory` adds, which both GPU backends place at the
/// start of a team's dynamic shared memory (what clang emits for
/// `extern __shared__`).
pub const DYN_SHARED_SYMBOL: &str = "__offload_dyn_shared";

/// The function the `offload` crate's GPU code calls for the address of a
/// static shared array (`offload::shared_array!`), declared, never defined:
/// `ptr (ptr site, i64 bytes, i64 align)`, `site` a distinct global per
/// declaration. The plugin's `offload-shared-memory` pass gives each site
/// its own internal `addrspace(3)` array of `bytes` bytes aligned to
/// `align` and replaces each call by its generic address.
pub const STATIC_SHARED_FN: &str = "__offload_static_shared";

/// The most bytes of static shared memory a kernel may use on AMD GPUs
/// (gfx90a's LDS per workgroup); `offload-shared-memory` refuses more.
pub const STATIC_SHARED_LIMIT_AMDGPU: u64 = 64 << 10;

/// The most bytes of static shared memory a kernel may use on NVIDIA GPUs
/// (the static `.shared` limit of sm_90 and all earlier targets);
/// `offload-shared-memory` refuses more.
pub const STATIC_SHARED_LIMIT_NVPTX: u64 = 48 << 10;

/// The most bytes one static shared array may have on every target (the
/// smaller GPU limit): `offload::shared_array!` refuses more at compile
/// time, also in the x86_64 image, whose arrays are otherwise limited only
/// by memory.
pub const STATIC_SHARED_ARRAY_MAX: u64 = STATIC_SHARED_LIMIT_NVPTX;

/// Bytes at the start of a GPU team's dynamic shared memory the `offload`
/// crate keeps for the team (the element size its shared views agree on
/// and the team's stamp for shared tiles, see `offload::shared`), before
/// the per-thread records.
pub const SHARED_HEADER_TEAM: u32 = 16;

/// Bytes of a GPU team's dynamic shared memory the `offload` crate keeps
/// per thread of the team after [`SHARED_HEADER_TEAM`], before the
/// kernel's own (the phase of the shared memory and the launch's
/// `dyn_shared_mem`); the host's launcher asks the runtime for both.
pub const SHARED_HEADER_PER_THREAD: u32 = 8;

/// The launcher's names of the hidden slots, for its errors.
pub const SLOT_NAMES: [&str; SLOTS] = [
    "the launch grid (teams x, y)",
    "the launch grid (teams z, threads x)",
    "the launch grid (threads y, z)",
    "the launch grid (dynamic shared memory)",
];

/// A launch's grid as the kernel sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Teams per dimension (0: the runtime chooses).
    pub teams: [u32; 3],
    /// Threads per team per dimension (0: the runtime chooses).
    pub threads: [u32; 3],
    /// Bytes of dynamic shared memory per team.
    pub dyn_shared_mem: u32,
}

const fn pair(lo: u32, hi: u32) -> u64 {
    lo as u64 | (hi as u64) << 32
}

const fn lo(word: u64) -> u32 {
    (word & 0xffff_ffff) as u32
}

const fn hi(word: u64) -> u32 {
    (word >> 32) as u32
}

/// The hidden slots of `grid`.
pub const fn encode(grid: Grid) -> [u64; SLOTS] {
    let (t, h) = (grid.teams, grid.threads);
    [
        pair(t[0], t[1]),
        pair(t[2], h[0]),
        pair(h[1], h[2]),
        grid.dyn_shared_mem as u64,
    ]
}

/// The grid in the hidden slots `slots`.
pub const fn decode(slots: [u64; SLOTS]) -> Grid {
    Grid {
        teams: [lo(slots[0]), hi(slots[0]), lo(slots[1])],
        threads: [hi(slots[1]), lo(slots[2]), hi(slots[2])],
        dyn_shared_mem: lo(slots[3]),
    }
}

impl Grid {
    /// Threads per team (x × y × z, each 0 taken as 1: a dimension the
    /// runtime chooses gets one thread on the CPU), or `None` above
    /// [`MAX_THREADS_PER_TEAM`].
    pub const fn team_size(&self) -> Option<u32> {
        let t = self.threads;
        let xy = (at_least_one(t[0]) as u64) * (at_least_one(t[1]) as u64);
        let n = xy.saturating_mul(at_least_one(t[2]) as u64);
        if n > MAX_THREADS_PER_TEAM as u64 {
            None
        } else {
            Some(n as u32)
        }
    }
}

impl Grid {
    /// The dynamic shared memory the runtime is asked for: the kernel's
    /// [`dyn_shared_mem`](Self::dyn_shared_mem) after [`SHARED_HEADER_TEAM`]
    /// and [`SHARED_HEADER_PER_THREAD`] bytes per thread of the team (a team of
    /// [`MAX_THREADS_PER_TEAM`] when the runtime chooses the threads).
    pub const fn runtime_shared_bytes(&self) -> u32 {
        let threads = if self.threads[0] == 0 {
            MAX_THREADS_PER_TEAM
        } else {
            match self.team_size() {
                Some(n) => n,
                None => MAX_THREADS_PER_TEAM,
            }
        };
        self.dyn_shared_mem
            .saturating_add(SHARED_HEADER_TEAM + threads * SHARED_HEADER_PER_THREAD)
    }
}

/// `n`, or 1 for 0 (the runtime chooses: one on the CPU).
pub const fn at_least_one(n: u32) -> u32 {
    if n == 0 { 1 } else { n }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slots_round_trip() {
        let grid = Grid {
            teams: [64, 7, 3],
            threads: [u32::MAX, 2, 1],
            dyn_shared_mem: 4096,
        };
        assert_eq!(decode(encode(grid)), grid);
        assert_eq!(encode(grid)[3], 4096);
    }

    #[test]
    fn a_team_has_at_most_1024_threads() {
        let grid = |threads| Grid {
            teams: [1; 3],
            threads,
            dyn_shared_mem: 0,
        };
        assert_eq!(grid([32, 32, 1]).team_size(), Some(1024));
        assert_eq!(grid([0, 1, 1]).team_size(), Some(1));
        assert_eq!(grid([32, 32, 2]).team_size(), None);
        assert_eq!(grid([u32::MAX, u32::MAX, u32::MAX]).team_size(), None);
    }

    #[test]
    fn the_runtime_is_asked_for_the_records_too() {
        let grid = |threads, dyn_shared_mem| Grid {
            teams: [1; 3],
            threads,
            dyn_shared_mem,
        };
        assert_eq!(
            grid([16, 16, 1], 2048).runtime_shared_bytes(),
            2048 + 16 + 256 * 8
        );
        assert_eq!(grid([0, 1, 1], 0).runtime_shared_bytes(), 16 + 1024 * 8);
        assert_eq!(grid([8, 1, 1], u32::MAX).runtime_shared_bytes(), u32::MAX);
    }
}
