//! Runs the CPU grid's semantics kernels: `ok` checks early returns, a
//! one-warp reduction and a block scan against plain Rust; `phase`,
//! `disagree` and `panic` run a kernel that must abort naming where.

use std::error::Error;

use grid_kernels::{bad_phase, block_scan, early_exit, panics, split_barrier, warp_zero};
use offload::Launch;

fn zeros(n: usize) -> Vec<u32> {
    vec![0; n]
}

fn ok() -> Result<(), Box<dyn Error>> {
    let (teams, n) = (5usize, 64usize);
    let grid = Launch::grid(teams as u32, n as u32).dyn_shared_mem(n as u32 * 4);
    let mut out = zeros(teams * n);
    early_exit(&grid, 40, &mut out)?;
    let expected: Vec<u32> = (0..teams * n)
        .map(|g| g % n)
        .map(|t| if t < 40 { ((t + 1) % 40 + t) as u32 } else { 0 })
        .collect();
    assert_eq!(out, expected, "early_exit");
    println!("early_exit: {teams} teams x {n} threads, 40 active: matches");

    let n = 96usize;
    let grid = Launch::grid(teams as u32, n as u32).dyn_shared_mem(n as u32 * 4);
    let mut out = zeros(teams * n);
    warp_zero(&grid, &mut out)?;
    assert!(out.iter().all(|&v| v == (0..32).sum::<u32>()), "warp_zero");
    println!(
        "warp_zero: {teams} teams x {n} threads: every thread sees {}",
        (0..32).sum::<u32>()
    );

    let n = 128usize;
    let x: Vec<u32> = (0..teams * n).map(|i| (i % 7) as u32).collect();
    let grid = Launch::grid(teams as u32, n as u32).dyn_shared_mem(n as u32 * 4);
    let mut out = zeros(teams * n);
    block_scan(&grid, &x, &mut out)?;
    let mut expected = vec![0u32; teams * n];
    for (i, e) in expected.iter_mut().enumerate() {
        let start = i / n * n;
        *e = x[start..=i].iter().sum();
    }
    assert_eq!(out, expected, "block_scan");
    println!("block_scan: {teams} teams x {n} threads: matches the plain prefix sums");
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut out = zeros(1024);
    let grid = Launch::grid(4, 16).dyn_shared_mem(64);
    match std::env::args().nth(1).as_deref() {
        Some("phase") => bad_phase(&grid, &mut out)?,
        Some("disagree") => split_barrier(&grid, &mut out)?,
        Some("panic") => panics(&grid, &mut out)?,
        _ => ok()?,
    }
    Ok(())
}
