//! The host side of the rust-gpu-toolkit example: launches the kernels with
//! many threads per team and checks each result against plain Rust.
//! `rust-gpu-toolkit --bench` times the tiled matmul (64 teams × 256
//! threads) against a plain Rust loop instead.

use std::error::Error;
use std::time::Instant;

use offload::Launch;
use toolkit_kernels::{TILE, block_sum, matmul_tiled, warp_sum};

/// `c = a × b`, the plain loop.
fn matmul_plain(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for row in 0..n {
        for col in 0..n {
            let mut acc = 0.0f32;
            for k in 0..n {
                acc += a[row * n + k] * b[k * n + col];
            }
            c[row * n + col] = acc;
        }
    }
}

/// Small integers: every sum and product is exact in `f32`.
fn matrix(n: usize, seed: usize) -> Vec<f32> {
    (0..n * n)
        .map(|i| ((i * seed + 3) % 7) as f32 - 3.0)
        .collect()
}

fn matmul_launch(n: usize) -> Launch {
    let tiles = n.div_ceil(TILE) as u32;
    Launch::grid((tiles, tiles), (TILE as u32, TILE as u32))
}

fn check_matmul(n: usize) -> Result<(), Box<dyn Error>> {
    let (a, b) = (matrix(n, 5), matrix(n, 11));
    let mut c = vec![f32::NAN; n * n];
    matmul_tiled(&matmul_launch(n), n, &a, &b, &mut c)?;
    let mut expected = vec![0.0; n * n];
    matmul_plain(n, &a, &b, &mut expected);
    assert_eq!(c, expected, "matmul_tiled, n = {n}");
    let teams = n.div_ceil(TILE).pow(2);
    println!(
        "matmul_tiled {n}x{n}: {teams} teams x {} threads, matches the plain loop",
        TILE * TILE
    );
    Ok(())
}

fn check_sums() -> Result<(), Box<dyn Error>> {
    let x: Vec<f32> = (0..100_000).map(|i| (i % 7) as f32).collect();
    let expected: f32 = x.iter().sum();

    let (teams, threads) = (8u32, 256u32);
    let mut partial = vec![0.0f32; teams as usize];
    let grid = Launch::grid(teams, threads).dyn_shared_mem(threads * 4);
    block_sum(&grid, &x, &mut partial)?;
    let total: f32 = partial.iter().sum();
    assert_eq!(total, expected, "block_sum");
    println!("block_sum: {teams} teams x {threads} threads: {total} (plain Rust: {expected})");

    let (teams, threads) = (4u32, 96u32);
    let mut partial = vec![0.0f32; (teams * threads) as usize];
    warp_sum(&Launch::grid(teams, threads), &x, &mut partial)?;
    let total: f32 = partial.iter().sum();
    assert_eq!(total, expected, "warp_sum");
    println!("warp_sum: {teams} teams x {threads} threads: {total} (plain Rust: {expected})");
    Ok(())
}

/// The emulated grid's cost: the tiled matmul on 64 teams × 256 threads
/// (a 128 × 128 matrix) against the plain loop, best of `runs`.
fn bench(runs: usize) -> Result<(), Box<dyn Error>> {
    let n = 8 * TILE;
    let (a, b) = (matrix(n, 5), matrix(n, 11));
    let (mut c, mut plain) = (vec![0.0; n * n], vec![0.0; n * n]);
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..runs {
        let start = Instant::now();
        matmul_tiled(&matmul_launch(n), n, &a, &b, &mut c)?;
        let grid = start.elapsed().as_secs_f64();
        let start = Instant::now();
        matmul_plain(n, &a, &b, &mut plain);
        std::hint::black_box(&plain);
        let loop_time = start.elapsed().as_secs_f64();
        best = (best.0.min(grid), best.1.min(loop_time));
    }
    assert_eq!(c, plain);
    println!(
        "matmul {n}x{n}, 64 teams x 256 threads on the CPU: grid {:.3} ms, plain loop {:.3} ms, ratio {:.1}",
        best.0 * 1e3,
        best.1 * 1e3,
        best.0 / best.1
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    if std::env::args().nth(1).as_deref() == Some("--bench") {
        return bench(5);
    }
    check_matmul(64)?;
    check_matmul(40)?;
    check_sums()?;
    Ok(())
}
