//! Where a kernel instance runs in the grid: portable team and thread ids.
//!
//! A launch runs `team_count()` teams of `thread_count()` threads each (per
//! dimension). On `amdgcn-amd-amdhsa` a team is a workgroup and a thread a
//! work-item; on `nvptx64-nvidia-cuda` a block and a thread. On
//! libomptarget's host (CPU) plugin the x86_64 image runs the launch's whole
//! grid, every thread an OS thread with its own ids (see the crate docs,
//! "GPU semantics on the CPU"); host code outside a kernel is one team of
//! one thread.
//!
//! # The idiom: grid-stride loops
//!
//! Do not write a kernel as a loop over the whole array (every GPU thread
//! would do all of it), nor assume one thread per element (a launch may
//! have fewer threads than elements, and the runtime may choose the grid).
//! Let each thread start at its global id and step by the number of threads
//! in the grid: [`grid_stride`] does exactly that, and is correct on any grid.
//!
//! ```
//! use offload::{kernel, Out};
//!
//! #[kernel]
//! pub fn add(x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
//!     for (i, out) in out.grid_stride() {
//!         out.write(x[i] + y[i]);
//!     }
//! }
//! ```

/// A three-dimensional id or count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Idx3 {
    /// The x component (the fastest-varying in a linear id).
    pub x: u32,
    /// The y component.
    pub y: u32,
    /// The z component (the slowest-varying in a linear id).
    pub z: u32,
}

#[cfg(target_arch = "amdgpu")]
mod target {
    use super::Idx3;
    use core::arch::amdgpu as gpu;

    pub fn team_id() -> Idx3 {
        Idx3 {
            x: gpu::workgroup_id_x(),
            y: gpu::workgroup_id_y(),
            z: gpu::workgroup_id_z(),
        }
    }

    pub fn thread_id() -> Idx3 {
        Idx3 {
            x: gpu::workitem_id_x(),
            y: gpu::workitem_id_y(),
            z: gpu::workitem_id_z(),
        }
    }

    /// The HSA kernel dispatch packet: u16 workgroup sizes at 4, 6, 8 and
    /// u32 grid sizes (in work-items) at 12, 16, 20.
    fn packet_u16(offset: usize) -> u32 {
        let packet = core::intrinsics::gpu::amdgpu_dispatch_ptr().cast::<u8>();
        // SAFETY: the dispatch packet is valid for the whole kernel and holds
        // a u16 at this (aligned) offset.
        u32::from(unsafe { packet.add(offset).cast::<u16>().read() })
    }

    fn packet_u32(offset: usize) -> u32 {
        let packet = core::intrinsics::gpu::amdgpu_dispatch_ptr().cast::<u8>();
        // SAFETY: as above, a u32 at this (aligned) offset.
        unsafe { packet.add(offset).cast::<u32>().read() }
    }

    pub fn thread_count() -> Idx3 {
        Idx3 {
            x: packet_u16(4),
            y: packet_u16(6),
            z: packet_u16(8),
        }
    }

    pub fn team_count() -> Idx3 {
        let threads = thread_count();
        let teams = |grid: u32, size: u32| grid.div_ceil(size.max(1));
        Idx3 {
            x: teams(packet_u32(12), threads.x),
            y: teams(packet_u32(16), threads.y),
            z: teams(packet_u32(20), threads.z),
        }
    }
}

#[cfg(target_arch = "nvptx64")]
mod target {
    use super::Idx3;
    use core::arch::nvptx as gpu;

    pub fn team_id() -> Idx3 {
        // SAFETY: reading special registers has no preconditions in a kernel.
        unsafe {
            Idx3 {
                x: gpu::_block_idx_x(),
                y: gpu::_block_idx_y(),
                z: gpu::_block_idx_z(),
            }
        }
    }

    pub fn thread_id() -> Idx3 {
        // SAFETY: as above.
        unsafe {
            Idx3 {
                x: gpu::_thread_idx_x(),
                y: gpu::_thread_idx_y(),
                z: gpu::_thread_idx_z(),
            }
        }
    }

    pub fn thread_count() -> Idx3 {
        // SAFETY: as above.
        unsafe {
            Idx3 {
                x: gpu::_block_dim_x(),
                y: gpu::_block_dim_y(),
                z: gpu::_block_dim_z(),
            }
        }
    }

    pub fn team_count() -> Idx3 {
        // SAFETY: as above.
        unsafe {
            Idx3 {
                x: gpu::_grid_dim_x(),
                y: gpu::_grid_dim_y(),
                z: gpu::_grid_dim_z(),
            }
        }
    }
}

/// The CPU: the ids of the grid runner's thread (the x86_64 image runs the
/// launch's whole grid, see `cpu_grid`); one team of one thread outside it
/// (host code).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    use super::Idx3;
    use crate::cpu_grid::current;

    const ZERO: Idx3 = Idx3 { x: 0, y: 0, z: 0 };
    const ONE: Idx3 = Idx3 { x: 1, y: 1, z: 1 };

    /// The grid runner's `[x, y, z]`.
    const fn idx3([x, y, z]: [u32; 3]) -> Idx3 {
        Idx3 { x, y, z }
    }

    #[inline]
    pub fn team_id() -> Idx3 {
        current().map_or(ZERO, |t| idx3(t.team_id()))
    }

    /// From the rank, the one thread-dependent query (see
    /// `cpu_grid::hooks`).
    #[inline]
    pub fn thread_id() -> Idx3 {
        let rank = crate::cpu_grid::hooks::__offload_cpu_thread_rank();
        current().map_or(ZERO, |t| idx3(t.thread_id(rank)))
    }

    #[inline]
    pub fn thread_count() -> Idx3 {
        current().map_or(ONE, |t| idx3(t.thread_count()))
    }

    #[inline]
    pub fn team_count() -> Idx3 {
        current().map_or(ONE, |t| idx3(t.team_count()))
    }

    /// The record's precomputed total: the grid-stride step is one value
    /// (see `cpu_grid::Shape`), which the vectorizer can version on.
    #[inline]
    pub fn grid_linear_id() -> (usize, usize) {
        let rank = crate::cpu_grid::hooks::__offload_cpu_thread_rank();
        current().map_or((0, 1), |t| t.grid_linear_id(rank))
    }
}

/// This thread's team (block, workgroup) in the grid.
#[inline]
pub fn team_id() -> Idx3 {
    target::team_id()
}

/// The number of teams in the grid.
#[inline]
pub fn team_count() -> Idx3 {
    target::team_count()
}

/// This thread's id within its team.
#[inline]
pub fn thread_id() -> Idx3 {
    target::thread_id()
}

/// The number of threads per team.
#[inline]
pub fn thread_count() -> Idx3 {
    target::thread_count()
}

/// This thread's linear id within its team (x fastest, then y, then z):
/// `thread_id().x + thread_count().x * (thread_id().y + thread_count().y *
/// thread_id().z)`, in `0..team_size()`.
#[inline]
pub fn thread_rank() -> usize {
    #[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
    {
        // The CPU grid's one thread-dependent query is the rank itself:
        // no round trip through `thread_id` (two divisions).
        crate::cpu_grid::hooks::__offload_cpu_thread_rank() as usize
    }
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    {
        let (t, n) = (thread_id(), thread_count());
        t.x as usize + n.x as usize * (t.y as usize + n.y as usize * t.z as usize)
    }
}

/// The number of threads per team (x × y × z).
#[inline]
pub fn team_size() -> usize {
    let n = thread_count();
    n.x as usize * n.y as usize * n.z as usize
}

/// This thread's index in the whole grid, x dimension:
/// `team_id().x * thread_count().x + thread_id().x`.
#[inline]
pub fn global_id() -> usize {
    team_id().x as usize * thread_count().x as usize + thread_id().x as usize
}

/// The number of threads in the whole grid, x dimension.
#[inline]
pub fn global_count() -> usize {
    team_count().x as usize * thread_count().x as usize
}

/// This thread's place in the whole grid per dimension, `[x, y, z]`:
/// `team_id() * thread_count() + thread_id()` in each (CUDA's
/// `blockIdx.x * blockDim.x + threadIdx.x`, and so for y and z).
#[inline]
pub fn global_id_3d() -> [usize; 3] {
    let (team, threads, thread) = (team_id(), thread_count(), thread_id());
    let at = |b: u32, n: u32, t: u32| b as usize * n as usize + t as usize;
    [
        at(team.x, threads.x, thread.x),
        at(team.y, threads.y, thread.y),
        at(team.z, threads.z, thread.z),
    ]
}

/// The number of threads in the whole grid per dimension, `[x, y, z]`:
/// `team_count() * thread_count()` in each.
#[inline]
pub fn global_count_3d() -> [usize; 3] {
    let (teams, threads) = (team_count(), thread_count());
    [
        teams.x as usize * threads.x as usize,
        teams.y as usize * threads.y as usize,
        teams.z as usize * threads.z as usize,
    ]
}

/// This thread's index among all threads of the grid, over all three
/// dimensions (x fastest, then y, then z; teams before threads), and the
/// number of threads in the grid: what [`grid_stride`] partitions by.
#[inline]
pub fn grid_linear_id() -> (usize, usize) {
    #[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
    {
        target::grid_linear_id()
    }
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    {
        linear_id(team_id(), team_count(), thread_id(), thread_count())
    }
}

/// The linear id of thread `thread` of team `team` and the total thread
/// count, for a grid of `teams` teams of `threads` threads each.
pub const fn linear_id(team: Idx3, teams: Idx3, thread: Idx3, threads: Idx3) -> (usize, usize) {
    const fn lin(i: Idx3, n: Idx3) -> usize {
        i.x as usize + n.x as usize * (i.y as usize + n.y as usize * i.z as usize)
    }
    let per_team = threads.x as usize * threads.y as usize * threads.z as usize;
    let team_total = teams.x as usize * teams.y as usize * teams.z as usize;
    (
        lin(team, teams) * per_team + lin(thread, threads),
        team_total * per_team,
    )
}

/// The indices `0..n` this thread handles in a grid-stride loop: from its
/// linear id in the grid in steps of the grid's thread count
/// ([`grid_linear_id`]). Every index of `0..n` is handled by exactly one
/// thread of the grid, on any grid of up to three dimensions (outside a
/// kernel, host code's one thread handles all of them).
#[inline]
pub fn grid_stride(n: usize) -> GridStride {
    let (id, count) = grid_linear_id();
    GridStride::new(id, count, n)
}

/// The iterator of [`grid_stride`].
#[derive(Clone, Debug)]
pub struct GridStride {
    next: usize,
    step: usize,
    /// The indices still to come: counted once, so a loop over them has
    /// a trip count and a plain induction the optimiser vectorises (with a
    /// run-time check of `step == 1`), not a saturating add per index.
    left: usize,
}

impl GridStride {
    /// The indices from `start` in steps of `step` below `end` (what
    /// [`grid_stride`] uses; for tests and custom partitions).
    pub const fn new(start: usize, step: usize, end: usize) -> Self {
        let step = if step == 0 { 1 } else { step };
        let left = if start >= end {
            0
        } else {
            (end - start).div_ceil(step)
        };
        GridStride {
            next: start,
            step,
            left,
        }
    }
}

impl Iterator for GridStride {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        let i = self.next;
        self.left -= 1;
        // Past the last index the sum is never used (it may wrap).
        self.next = self.next.wrapping_add(self.step);
        Some(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for GridStride {}
impl core::iter::FusedIterator for GridStride {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_grid_covers_everything() {
        assert_eq!(global_id(), 0);
        assert_eq!(global_count(), 1);
        assert!(grid_stride(5).eq(0..5));
        assert_eq!(grid_stride(0).count(), 0);
    }

    #[test]
    fn a_multi_dimensional_grid_partitions_exactly() {
        // The example's saxpy grid: 2 x 3 teams of 32 x 2 threads.
        let idx = |x, y| Idx3 { x, y, z: 0 };
        let (teams, threads) = (Idx3 { x: 2, y: 3, z: 1 }, Idx3 { x: 32, y: 2, z: 1 });
        let n = 1000;
        let mut seen = [0u8; 1000];
        for (tx, ty) in (0..2).flat_map(|x| (0..3).map(move |y| (x, y))) {
            for (hx, hy) in (0..32).flat_map(|x| (0..2).map(move |y| (x, y))) {
                let (id, count) = linear_id(idx(tx, ty), teams, idx(hx, hy), threads);
                assert_eq!(count, 384);
                for i in GridStride::new(id, count, n) {
                    seen[i] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }

    /// Every thread of a 3-D grid, teams and threads non-1 in x, y and z,
    /// in linear order: z slowest, x fastest, teams before threads.
    fn grid_3d(teams: Idx3, threads: Idx3) -> impl Iterator<Item = (Idx3, Idx3)> {
        let all = |n: Idx3| {
            (0..n.z).flat_map(move |z| {
                (0..n.y).flat_map(move |y| (0..n.x).map(move |x| Idx3 { x, y, z }))
            })
        };
        all(teams).flat_map(move |team| all(threads).map(move |thread| (team, thread)))
    }

    #[test]
    fn a_3d_grid_numbers_its_threads_in_order() {
        let (teams, threads) = (Idx3 { x: 2, y: 3, z: 4 }, Idx3 { x: 5, y: 2, z: 3 });
        let total = 2 * 3 * 4 * 5 * 2 * 3;
        let mut expected = 0;
        for (team, thread) in grid_3d(teams, threads) {
            assert_eq!(
                linear_id(team, teams, thread, threads),
                (expected, total),
                "team {team:?}, thread {thread:?}"
            );
            expected += 1;
        }
        assert_eq!(expected, total);
    }

    #[test]
    fn a_3d_grid_strides_over_every_index_once() {
        let (teams, threads) = (Idx3 { x: 3, y: 2, z: 2 }, Idx3 { x: 4, y: 3, z: 2 });
        let n = 1000;
        let mut seen = [0u8; 1000];
        for (team, thread) in grid_3d(teams, threads) {
            let (id, count) = linear_id(team, teams, thread, threads);
            for i in GridStride::new(id, count, n) {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }

    /// The counted iterator at its edges: nothing from past the end, a
    /// step of 0 taken as 1, and no overflow where the next index would
    /// pass `usize::MAX`.
    #[test]
    fn grid_stride_edges() {
        assert_eq!(GridStride::new(10, 4, 10).count(), 0);
        assert_eq!(GridStride::new(11, 4, 10).len(), 0);
        assert!(GridStride::new(3, 0, 6).eq([3, 4, 5]));
        assert!(GridStride::new(1, 3, 8).eq([1, 4, 7]));
        let top = usize::MAX - 2;
        assert!(GridStride::new(top, usize::MAX / 2, usize::MAX).eq([top]));
    }

    #[test]
    fn strided_partition_is_exact() {
        let n = 1000;
        let mut seen = [0u8; 1000];
        for thread in 0..96 {
            let it = GridStride::new(thread, 96, n);
            assert_eq!(it.len(), it.clone().count());
            for i in it {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }
}
