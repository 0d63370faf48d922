//! The threads' places in the grid (`index::global_id_3d`), which the
//! one-element-per-thread partitions map to elements: every thread of a 3-D
//! grid at its own place, CUDA's `blockIdx * blockDim + threadIdx` in each
//! dimension, inside `global_count_3d`.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use offload::__private::run_grid;
use offload::index::{self, Idx3};
use offload_contract::grid::{Grid, encode};

#[test]
fn every_thread_of_a_3d_grid_has_its_own_place() {
    let (teams, threads) = ([3, 2, 2], [4, 3, 2]);
    let count = [12, 6, 4];
    let seen: Vec<AtomicU32> = (0..12 * 6 * 4).map(|_| AtomicU32::new(0)).collect();
    let wrong = AtomicU32::new(0);
    let slots = encode(Grid {
        teams,
        threads,
        dyn_shared_mem: 0,
    });
    let kernel = || {
        let [x, y, z] = index::global_id_3d();
        let (team, thread, n) = (index::team_id(), index::thread_id(), index::thread_count());
        let place = |b: u32, t: u32, n: u32| (b * n + t) as usize;
        let expected = [
            place(team.x, thread.x, n.x),
            place(team.y, thread.y, n.y),
            place(team.z, thread.z, n.z),
        ];
        if [x, y, z] != expected || index::global_count_3d() != count {
            wrong.fetch_add(1, Relaxed);
        }
        seen[x + 12 * (y + 6 * z)].fetch_add(1, Relaxed);
    };
    // SAFETY: the closure shares only atomics.
    unsafe { run_grid("test", slots, &kernel) };
    assert_eq!(wrong.load(Relaxed), 0);
    assert!(seen.iter().all(|c| c.load(Relaxed) == 1));
}

#[test]
fn host_code_is_the_one_thread_of_a_one_thread_grid() {
    assert_eq!(index::global_id_3d(), [0, 0, 0]);
    assert_eq!(index::global_count_3d(), [1, 1, 1]);
    assert_eq!(index::thread_id(), Idx3 { x: 0, y: 0, z: 0 });
}
