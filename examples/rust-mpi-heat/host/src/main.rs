//! The host side of the rust-mpi-heat example: a 2-D heat equation split
//! by rows over MPI ranks, one device per rank (offload-mpi's
//! `rank_device`), each rank's block in device buffers, the halo rows
//! exchanged every step (offload-mpi's `Exchange`) while the interior is
//! updated on a stream, and the result gathered on rank 0 and checked bit
//! for bit against a plain CPU computation. No unsafe code.
//!
//! `mpirun -n 4 rust-mpi-heat [--nx N] [--ny N] [--steps N]
//! [--grid TEAMS,THREADS] [--out FILE] [--bench] [--fail RANK:device|launch]
//! [--check-exchange] [--no-overlap]`

mod block;
mod checks;
mod config;
mod reference;

use std::error::Error;
use std::time::Duration;

use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use offload::{Device, Launch};
use offload_mpi::{Exchange, Placement, rank_device, unwrap_or_abort};

use block::{Block, Neighbours, StepTime};
use config::{Config, Failure};

/// The diffusion number (stable up to 0.25).
const ALPHA: f32 = 0.2;
/// The temperature of the row above the grid.
const TOP: f32 = 1.0;

/// The start value of cell (`row`, `col`) of the whole grid.
fn start(row: usize, col: usize) -> f32 {
    ((row * 7 + col * 13) % 17) as f32 / 17.0
}

/// The rows of rank `rank` of `size`: `(first, count)`, the first
/// `ny % size` ranks one row more.
fn rows_of(rank: usize, size: usize, ny: usize) -> (usize, usize) {
    let (base, extra) = (ny / size, ny % size);
    (
        rank * base + rank.min(extra),
        base + usize::from(rank < extra),
    )
}

fn main() {
    let Some(universe) = mpi::initialize() else {
        eprintln!("rust-mpi-heat: MPI was initialised already");
        std::process::exit(1);
    };
    let world = universe.world();
    let config = unwrap_or_abort(&world, Config::parse(std::env::args().skip(1)));
    let placement = unwrap_or_abort(&world, rank_device(&world));
    let result = run(&world, &config, placement);
    unwrap_or_abort(&world, result);
}

fn run(
    world: &SimpleCommunicator,
    config: &Config,
    placement: Placement,
) -> Result<(), Box<dyn Error>> {
    let (rank, size) = (world.rank(), world.size());
    if config.ny < size as usize {
        return Err(format!("{} rows cannot be split over {size} ranks", config.ny).into());
    }
    let exchange = Exchange::new();
    if config.check_exchange {
        return checks::exchange_errors(world, placement.device, &exchange);
    }
    let rows = rows_of(rank as usize, size as usize, config.ny);
    report_placement(world, config, placement, rows, &exchange);
    let mut device = placement.device;
    let grid = Launch::grid(config.grid.0, config.grid.1).device(device.number());
    let mut edges = grid;
    match config.fail {
        Some((r, Failure::Device)) if r == rank => device = Device::new(placement.devices as i64),
        Some((r, Failure::Launch)) if r == rank => edges = grid.device(placement.devices as i64),
        _ => {}
    }
    let top = if rank == 0 { TOP } else { 0.0 };
    let mut block = Block::new(device, config.nx, rows, top)?;
    let neighbours = Neighbours {
        up: (rank > 0).then(|| world.process_at_rank(rank - 1)),
        down: (rank + 1 < size).then(|| world.process_at_rank(rank + 1)),
    };
    let mut total = StepTime::default();
    let cpu_before = cpu_time();
    for _ in 0..config.steps {
        let time = block.step((&grid, &edges), &exchange, &neighbours, !config.no_overlap)?;
        total.step += time.step;
        total.halo += time.halo;
    }
    let values = block.values()?;
    if config.bench {
        let cpu = cpu_time().saturating_sub(cpu_before);
        return report_times(world, config, total, cpu);
    }
    gather_and_check(world, config, &values, block.rows())
}

/// Rank 0 prints every rank's node-local rank, device and rows.
fn report_placement(
    world: &SimpleCommunicator,
    config: &Config,
    placement: Placement,
    (first, rows): (usize, usize),
    exchange: &Exchange,
) {
    let mine = [
        placement.local_rank as u64,
        placement.local_ranks as u64,
        placement.device.number() as u64,
        placement.devices as u64,
        first as u64,
        rows as u64,
    ];
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_into(&mine[..]);
        return;
    }
    let mut all = vec![0u64; 6 * world.size() as usize];
    root.gather_into_root(&mine[..], &mut all[..]);
    println!(
        "ranks: {}, grid {} x {}, {} steps, exchange {}",
        world.size(),
        config.ny,
        config.nx,
        config.steps,
        exchange.path()
    );
    for (rank, p) in all.chunks(6).enumerate() {
        println!(
            "rank {rank}: local rank {} of {}, device {} of {}, rows {}..{}",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            p[4] + p[5]
        );
    }
}

/// Gathers the blocks on rank 0, which writes the grid (`--out`) and
/// compares it with the CPU computation.
fn gather_and_check(
    world: &SimpleCommunicator,
    config: &Config,
    values: &[f32],
    rows: usize,
) -> Result<(), Box<dyn Error>> {
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_varcount_into(values);
        return Ok(());
    }
    let size = world.size() as usize;
    let counts: Vec<i32> = (0..size)
        .map(|r| (rows_of(r, size, config.ny).1 * config.nx) as i32)
        .collect();
    let displs: Vec<i32> = (0..size)
        .map(|r| (rows_of(r, size, config.ny).0 * config.nx) as i32)
        .collect();
    debug_assert_eq!(counts[0] as usize, rows * config.nx);
    let mut grid = vec![0.0f32; config.nx * config.ny];
    let mut partition = PartitionMut::new(&mut grid[..], counts, &displs[..]);
    root.gather_varcount_into_root(values, &mut partition);
    if let Some(out) = &config.out {
        let bytes: Vec<u8> = grid.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let cpu = reference::heat(config.nx, config.ny, config.steps, ALPHA, TOP);
    let sum: f64 = grid.iter().map(|&v| f64::from(v)).sum();
    println!("sum of the grid: {sum:.6}");
    match grid
        .iter()
        .zip(&cpu)
        .position(|(a, b)| a.to_bits() != b.to_bits())
    {
        None => println!("matches the CPU computation bit for bit: true"),
        Some(i) => {
            let (row, col) = (i / config.nx, i % config.nx);
            return Err(format!(
                "cell ({row}, {col}) is {} on the devices, {} on the CPU",
                grid[i], cpu[i]
            )
            .into());
        }
    }
    Ok(())
}

/// The CPU time this process has used, all its threads (Linux: utime and
/// stime of /proc/self/stat, in USER_HZ ticks, 100 per second in Linux's
/// ABI); zero where it cannot be read.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which ends with the last ')'):
    // utime and stime are the 12th and 13th of them.
    let fields = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = fields
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// Rank 0 prints the slowest rank's mean time per step, halo exchange
/// (what the interior update did not hide) and CPU time per step.
fn report_times(
    world: &SimpleCommunicator,
    config: &Config,
    total: StepTime,
    cpu: Duration,
) -> Result<(), Box<dyn Error>> {
    let steps = config.steps.max(1) as f64;
    let mine = [total.step, total.halo, cpu].map(|t| t.as_secs_f64() * 1e3 / steps);
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_into(&mine[..]);
        return Ok(());
    }
    let mut all = vec![0.0f64; 3 * world.size() as usize];
    root.gather_into_root(&mine[..], &mut all[..]);
    let slowest = |i: usize| all.chunks(3).map(|t| t[i]).fold(0.0, f64::max);
    let (step, halo, cpu) = (slowest(0), slowest(1), slowest(2));
    println!(
        "time per step: {step:.3} ms, halo exchange: {halo:.3} ms ({:.1}% of a step), \
         CPU time per step and rank: {cpu:.1} ms",
        100.0 * halo / step
    );
    Ok(())
}
