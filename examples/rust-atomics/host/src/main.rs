//! The host side of the rust-atomics example: each kernel's result checked
//! against the same computation on the CPU, on several grids, with lengths
//! that are not a multiple of the grid's thread count, and 0.

use std::error::Error;

use atomic_kernels::{
    CHUNK, chunk_offsets, chunk_owners, chunk_sums, dot, first_owner, histogram, owners,
    scan_chunks,
};
use offload::Launch;

/// Grids of 1, 21 (3 teams of 7) and 512 (2 × 4 teams of 64) threads.
fn grids() -> [(Launch, &'static str); 3] {
    [
        (Launch::grid(1, 1), "1x1"),
        (Launch::grid(3, 7), "3x7"),
        (Launch::grid((2, 4), 64), "2x4 x 64"),
    ]
}

/// Pseudo-random values (a linear congruential generator).
fn values(n: usize, seed: u32) -> Vec<u32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            state >> 8
        })
        .collect()
}

fn check_histogram() -> Result<(), Box<dyn Error>> {
    for (grid, name) in grids() {
        for n in [10_007, 0] {
            let data = values(n, 7);
            let mut bins = vec![0u32; 37];
            let mut threads = 0u64;
            histogram(&grid, &data, &mut bins, &mut threads)?;
            let mut want = vec![0u32; 37];
            for v in &data {
                want[*v as usize % 37] += 1;
            }
            assert_eq!(bins, want, "histogram of {n} on {name}");
            assert!(threads >= 1, "no thread ran on {name}");
        }
    }
    println!("histogram: ok (10007 values into 37 bins, and 0, on 3 grids)");
    Ok(())
}

fn check_dot() -> Result<(), Box<dyn Error>> {
    let n = 4099;
    let x: Vec<f32> = (0..n).map(|i| (i % 17) as f32 * 0.25).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - (i % 5) as f32 * 0.125).collect();
    // Exact in f32 whatever the order: multiples of 1/32 far below 2^24.
    let want: f32 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
    for (grid, name) in grids() {
        let mut total = 0.0f32;
        dot(&grid, &x, &y, &mut total)?;
        assert_eq!(total, want, "dot on {name}");
        let mut empty = 1.5f32;
        dot(&grid, &[], &[], &mut empty)?;
        assert_eq!(empty, 1.5, "an empty dot on {name}");
    }
    println!("dot with a float atomic add: ok ({want})");
    Ok(())
}

fn prefix_sum(grid: &Launch, x: &[u32]) -> Result<Vec<u32>, Box<dyn Error>> {
    let mut sums = vec![0u32; x.len().div_ceil(CHUNK)];
    chunk_sums(grid, x, &mut sums)?;
    chunk_offsets(grid, &mut sums)?;
    let mut out = vec![0u32; x.len()];
    scan_chunks(grid, x, &sums, &mut out)?;
    Ok(out)
}

fn check_prefix_sum() -> Result<(), Box<dyn Error>> {
    for (grid, name) in grids() {
        for n in [10_000, 999, 64, 5, 0] {
            let x: Vec<u32> = values(n, 3).iter().map(|v| v % 1000).collect();
            let got = prefix_sum(&grid, &x)?;
            let want: Vec<u32> = x
                .iter()
                .scan(0u32, |acc, &v| {
                    *acc += v;
                    Some(*acc)
                })
                .collect();
            assert_eq!(got, want, "prefix sum of {n} on {name}");
        }
    }
    println!("prefix sum: ok (10000, 999, 64, 5 and 0 values, on 3 grids)");
    Ok(())
}

fn check_views() -> Result<(), Box<dyn Error>> {
    for (grid, name) in grids() {
        for n in [1000, 997, 20, 1, 0] {
            let mut owner = vec![u32::MAX; n];
            let mut hits = vec![0u32; n];
            owners(&grid, &mut owner, &mut hits)?;
            assert!(
                hits.iter().all(|&h| h == 1),
                "grid_stride over {n} on {name}: {hits:?}"
            );
            let mut by_chunk = vec![u32::MAX; n];
            let mut chunk_hits = vec![0u32; n];
            chunk_owners(&grid, &mut by_chunk, &mut chunk_hits)?;
            assert!(
                chunk_hits.iter().all(|&h| h == 1),
                "chunks over {n} on {name}"
            );
            let mut first = vec![u32::MAX; n];
            let mut first_hits = vec![0u32; n];
            first_owner(&grid, &mut first, &mut first_hits)?;
            assert!(
                first_hits.iter().all(|&h| h == 1) && first.iter().all(|&o| o == 0),
                "the first thread over {n} on {name}"
            );
            assert!(owner.iter().chain(&by_chunk).all(|&o| o != u32::MAX));
        }
    }
    println!(
        "per-thread views: ok (each element once, 1000, 997, 20, 1 and 0 elements, on 3 grids)"
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    check_histogram()?;
    check_dot()?;
    check_prefix_sum()?;
    check_views()?;
    Ok(())
}
