//! The host side of the rust-gpu-toolkit example: launches the kernels with
//! many threads per team and checks each result against plain Rust.
//! `rust-gpu-toolkit --bench [RUNS]` times the kernels (and block scans and a
//! tiled transpose) on teams of 256 threads against plain Rust loops instead,
//! best of RUNS (5).

use std::error::Error;
use std::time::Instant;

use offload::{Device, DeviceBuffer, Launch, LaunchError};
use toolkit_kernels::{
    SCAN_ITEMS, TILE, block_scan, block_scan_raked, block_sum, matmul_tiled, transpose_tiled,
    warp_sum,
};

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

/// Both block scans on a length that leaves the last team's slice partial,
/// against a plain scan of each slice.
fn check_scans() -> Result<(), Box<dyn Error>> {
    let threads = 64usize;
    let x: Vec<f32> = (0..10_000).map(|i| (i % 5) as f32).collect();
    let plain = |chunk: usize| -> Vec<f32> {
        x.chunks(chunk)
            .flat_map(|c| {
                c.iter().scan(0.0f32, |acc, v| {
                    *acc += v;
                    Some(*acc)
                })
            })
            .collect()
    };
    let mut out = vec![f32::NAN; x.len()];
    let teams = x.len().div_ceil(threads) as u32;
    block_scan(
        &Launch::grid(teams, threads as u32).dyn_shared_mem(threads as u32 * 4),
        &x,
        &mut out,
    )?;
    assert_eq!(out, plain(threads), "block_scan");
    println!("block_scan: {teams} teams x {threads} threads, matches the plain scan");
    let mut out = vec![f32::NAN; x.len()];
    let teams = x.len().div_ceil(threads * SCAN_ITEMS) as u32;
    let tile = offload::shared::dyn_tile_bytes::<f32>(threads).ok_or("tile size")?;
    block_scan_raked(
        &Launch::grid(teams, threads as u32).dyn_shared_mem(tile),
        &x,
        &mut out,
    )?;
    assert_eq!(out, plain(threads * SCAN_ITEMS), "block_scan_raked");
    println!("block_scan_raked: {teams} teams x {threads} threads, matches the plain scan");
    Ok(())
}

/// The best of `runs` times of `f`, in milliseconds.
fn best_ms(
    runs: usize,
    mut f: impl FnMut() -> Result<(), Box<dyn Error>>,
) -> Result<f64, Box<dyn Error>> {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(best)
}

fn report(what: &str, grid: f64, plain: f64) {
    println!(
        "{what}: grid {grid:.3} ms, plain loop {plain:.3} ms, ratio {:.1}",
        grid / plain
    );
}

/// The CPU grid's cost: each kernel on a realistic grid against the plain
/// loop computing the same, best of `runs` each (the executor and the
/// number of workers come from OFFLOAD_CPU_GRID and OFFLOAD_CPU_THREADS).
fn bench(runs: usize) -> Result<(), Box<dyn Error>> {
    let n = 8 * TILE;
    let (a, b) = (matrix(n, 5), matrix(n, 11));
    let (mut c, mut plain) = (vec![0.0; n * n], vec![0.0; n * n]);
    let grid = best_ms(runs, || {
        Ok(matmul_tiled(&matmul_launch(n), n, &a, &b, &mut c)?)
    })?;
    let loop_ms = best_ms(runs, || {
        matmul_plain(n, &a, &b, &mut plain);
        std::hint::black_box(&plain);
        Ok(())
    })?;
    assert_eq!(c, plain);
    report(
        &format!("matmul {n}x{n}, 64 teams x 256 threads"),
        grid,
        loop_ms,
    );

    let x: Vec<f32> = (0..1 << 20).map(|i| (i % 7) as f32).collect();
    let on_device = Device::DEFAULT.alloc_from(&x)?;
    let expected: f32 = x.iter().sum();
    let loop_ms = best_ms(runs, || {
        let s: f32 = std::hint::black_box(&x).iter().sum();
        std::hint::black_box(s);
        Ok(())
    })?;
    let sums = |partial: &[f32], what: &str| {
        assert_eq!(partial.iter().sum::<f32>(), expected, "{what}");
    };
    let (teams, threads) = (64u32, 256u32);
    let launch = Launch::grid(teams, threads).dyn_shared_mem(threads * 4);
    Row {
        what: "tree reduction, 2^20 floats, 64 teams x 256 threads",
        runs,
        loop_ms,
    }
    .mapped_and_on_device(
        teams as usize,
        |partial| block_sum(&launch, &x, partial),
        |partial| block_sum(&launch, &on_device, partial),
        sums,
    )?;
    let launch = Launch::grid(teams, threads);
    Row {
        what: "warp-shuffle reduction, 2^20 floats, 64 teams x 256 threads",
        runs,
        loop_ms,
    }
    .mapped_and_on_device(
        (teams * threads) as usize,
        |partial| warp_sum(&launch, &x, partial),
        |partial| warp_sum(&launch, &on_device, partial),
        sums,
    )?;

    scans(runs)?;
    transpose(runs)
}

/// One kernel's rows of the bench: its name, the runs to take the best
/// of, and the time of the plain loop computing the same.
struct Row<'a> {
    what: &'a str,
    runs: usize,
    loop_ms: f64,
}

impl Row<'_> {
    /// Times a kernel writing `len` floats twice: on host data, mapped by
    /// each launch, and on device buffers (the data kept on the device, as
    /// a GPU program keeps it between kernels: the launch maps nothing).
    /// `check(output, what)` checks each run's output against the CPU.
    fn mapped_and_on_device(
        &self,
        len: usize,
        mut mapped: impl FnMut(&mut [f32]) -> Result<(), LaunchError>,
        mut on_device: impl FnMut(&mut DeviceBuffer<f32>) -> Result<(), LaunchError>,
        check: impl Fn(&[f32], &str),
    ) -> Result<(), Box<dyn Error>> {
        let mut out = vec![0.0f32; len];
        let grid = best_ms(self.runs, || Ok(mapped(&mut out)?))?;
        check(&out, self.what);
        report(self.what, grid, self.loop_ms);
        let mut out = Device::DEFAULT.alloc::<f32>(len)?;
        let grid = best_ms(self.runs, || Ok(on_device(&mut out)?))?;
        let what = format!("{}, data on the device", self.what);
        check(&out.to_vec()?, &what);
        report(&what, grid, self.loop_ms);
        Ok(())
    }
}

/// The block scans of 2^20 floats, Hillis-Steele and raking, with the
/// data mapped by each launch and with it on the device (launched on
/// device buffers, as a GPU program keeps its data between kernels).
fn scans(runs: usize) -> Result<(), Box<dyn Error>> {
    let threads = 256usize;
    let x: Vec<f32> = (0..1 << 20).map(|i| (i % 5) as f32).collect();
    // Small integers: every prefix sum of a team's slice is exact in `f32`.
    let plain_scan = |chunk: usize, plain: &mut [f32]| {
        for (src, dst) in x.chunks(chunk).zip(plain.chunks_mut(chunk)) {
            let mut acc = 0.0;
            for (s, d) in src.iter().zip(dst) {
                acc += s;
                *d = acc;
            }
        }
        std::hint::black_box(&plain);
    };
    let mut plain = vec![0.0f32; x.len()];
    let on_device = Device::DEFAULT.alloc_from(&x)?;

    let teams = x.len() / threads;
    let launch = Launch::grid(teams as u32, threads as u32).dyn_shared_mem(threads as u32 * 4);
    let loop_ms = best_ms(runs, || {
        plain_scan(threads, &mut plain);
        Ok(())
    })?;
    Row {
        what: &format!(
            "block prefix scan (Hillis-Steele), 2^20 floats, {teams} teams x {threads} threads"
        ),
        runs,
        loop_ms,
    }
    .mapped_and_on_device(
        x.len(),
        |out| block_scan(&launch, &x, out),
        |out| block_scan(&launch, &on_device, out),
        |out, what| assert_eq!(out, plain, "{what}"),
    )?;

    let chunk = threads * SCAN_ITEMS;
    let teams = x.len() / chunk;
    let tile = offload::shared::dyn_tile_bytes::<f32>(threads).ok_or("tile size")?;
    let launch = Launch::grid(teams as u32, threads as u32).dyn_shared_mem(tile);
    let loop_ms = best_ms(runs, || {
        plain_scan(chunk, &mut plain);
        Ok(())
    })?;
    Row {
        what: &format!(
            "block prefix scan (raking, {SCAN_ITEMS} per thread), 2^20 floats, {teams} teams x {threads} threads"
        ),
        runs,
        loop_ms,
    }
    .mapped_and_on_device(
        x.len(),
        |out| block_scan_raked(&launch, &x, out),
        |out| block_scan_raked(&launch, &on_device, out),
        |out, what| assert_eq!(out, plain, "{what}"),
    )
}

/// The tiled transpose of a 1024 x 1024 matrix, mapped and on the device.
fn transpose(runs: usize) -> Result<(), Box<dyn Error>> {
    let n = 64 * TILE;
    let a = matrix(n, 5);
    let mut plain = vec![0.0f32; n * n];
    let loop_ms = best_ms(runs, || {
        for row in 0..n {
            for col in 0..n {
                plain[col * n + row] = a[row * n + col];
            }
        }
        std::hint::black_box(&plain);
        Ok(())
    })?;
    let on_device = Device::DEFAULT.alloc_from(&a)?;
    Row {
        what: &format!(
            "tiled transpose {n}x{n}, {} teams x 256 threads",
            (n / TILE).pow(2)
        ),
        runs,
        loop_ms,
    }
    .mapped_and_on_device(
        n * n,
        |t| transpose_tiled(&matmul_launch(n), n, &a, t),
        |t| transpose_tiled(&matmul_launch(n), n, &on_device, t),
        |t, what| assert_eq!(t, plain, "{what}"),
    )
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--bench") {
        // `--bench [RUNS]`: the best of RUNS (5) times of each.
        let runs = match args.get(2) {
            Some(n) => n.parse().map_err(|_| format!("--bench {n}: not a count"))?,
            None => 5,
        };
        return bench(runs);
    }
    check_matmul(64)?;
    check_matmul(40)?;
    check_sums()?;
    check_scans()?;
    Ok(())
}
