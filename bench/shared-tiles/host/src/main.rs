//! Times the stencil with and without the shared tiles' checks (best of
//! 5 launches each) and checks that both give what a plain loop gives.

use std::error::Error;
use std::time::Instant;

use offload::Launch;
use tiles_bench_kernels::{BLOCK, stencil_checked, stencil_unchecked};

fn plain(x: &[f32], steps: u32) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for block in x.chunks(BLOCK) {
        let mut v = block.to_vec();
        for _ in 0..steps {
            v = (0..BLOCK)
                .map(|c| {
                    let left = if c > 0 { v[c - 1] } else { 0.0 };
                    let right = if c + 1 < BLOCK { v[c + 1] } else { 0.0 };
                    0.25 * left + 0.5 * v[c] + 0.25 * right
                })
                .collect();
        }
        out.extend(v);
    }
    out
}

/// The best of 5 runs of `kernel`, each checked against `expected`.
fn time(
    name: &str,
    expected: &[f32],
    kernel: impl Fn(&mut [f32]) -> Result<(), offload::LaunchError>,
) -> Result<f64, Box<dyn Error>> {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let mut out = vec![f32::NAN; expected.len()];
        let start = Instant::now();
        kernel(&mut out)?;
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
        assert_eq!(out, expected, "{name}");
    }
    Ok(best)
}

fn main() -> Result<(), Box<dyn Error>> {
    let (teams, steps) = (32u32, 64u32);
    let x: Vec<f32> = (0..teams as usize * BLOCK)
        .map(|i| (i % 13) as f32)
        .collect();
    let expected = plain(&x, steps);
    for threads in [1u32, 4, 64] {
        let grid = Launch::grid(teams, threads);
        let checked = time("stencil_checked", &expected, |out| {
            stencil_checked(&grid, &x, steps, out)
        })?;
        let unchecked = time("stencil_unchecked", &expected, |out| {
            stencil_unchecked(&grid, &x, steps, out)
        })?;
        println!(
            "{teams} teams x {threads} threads, {steps} steps of {BLOCK} cells: checked {checked:.3} ms, unchecked {unchecked:.3} ms, ratio {:.2}",
            checked / unchecked
        );
    }
    Ok(())
}
