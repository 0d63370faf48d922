//! The command line: `rust-mpi-heat [--nx N] [--ny N] [--steps N]
//! [--grid TEAMS,THREADS] [--out FILE] [--bench] [--fail RANK:device|launch]
//! [--check-exchange] [--no-overlap]`.

use std::path::PathBuf;

/// A deliberate failure of one rank (the tests' check that one failing
/// rank ends the whole job).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The rank allocates its block on a device the runtime does not have.
    Device,
    /// The rank's first edge launch goes to a device the runtime does not
    /// have.
    Launch,
}

/// The run's parameters.
#[derive(Clone, Debug)]
pub struct Config {
    /// Columns.
    pub nx: usize,
    /// Rows (split over the ranks).
    pub ny: usize,
    /// Time steps.
    pub steps: usize,
    /// The launch grid (teams, threads per team).
    pub grid: (u32, u32),
    /// Where rank 0 writes the gathered grid (little-endian f32s).
    pub out: Option<PathBuf>,
    /// Print the time per step instead of checking against the CPU.
    pub bench: bool,
    /// A rank that fails on purpose.
    pub fail: Option<(i32, Failure)>,
    /// Show the exchange's errors instead of running the steps.
    pub check_exchange: bool,
    /// Update the interior after the halo exchange, not during it.
    pub no_overlap: bool,
}

impl Config {
    /// Parses `args` (without the program name).
    pub fn parse(mut args: impl Iterator<Item = String>) -> Result<Config, String> {
        let mut config = Config {
            nx: 96,
            ny: 64,
            steps: 50,
            grid: (1, 1),
            out: None,
            bench: false,
            fail: None,
            check_exchange: false,
            no_overlap: false,
        };
        while let Some(flag) = args.next() {
            if let Some(switch) = config.switch(&flag) {
                *switch = true;
                continue;
            }
            let value = args
                .next()
                .ok_or_else(|| format!("rust-mpi-heat: {flag} needs a value"))?;
            match flag.as_str() {
                "--nx" => config.nx = number(&flag, &value)?,
                "--ny" => config.ny = number(&flag, &value)?,
                "--steps" => config.steps = number(&flag, &value)?,
                "--grid" => config.grid = grid(&value)?,
                "--out" => config.out = Some(value.into()),
                "--fail" => config.fail = Some(failure(&value)?),
                _ => return Err(format!("rust-mpi-heat: unknown option {flag}")),
            }
        }
        if config.nx == 0 || config.ny == 0 {
            return Err("rust-mpi-heat: --nx and --ny must be at least 1".into());
        }
        Ok(config)
    }
}

impl Config {
    /// The setting a flag without a value turns on.
    fn switch(&mut self, flag: &str) -> Option<&mut bool> {
        match flag {
            "--bench" => Some(&mut self.bench),
            "--check-exchange" => Some(&mut self.check_exchange),
            "--no-overlap" => Some(&mut self.no_overlap),
            _ => None,
        }
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("rust-mpi-heat: {flag} {value}: not a number"))
}

fn grid(value: &str) -> Result<(u32, u32), String> {
    let (teams, threads) = value
        .split_once(',')
        .ok_or_else(|| format!("rust-mpi-heat: --grid {value}: expected TEAMS,THREADS"))?;
    Ok((number("--grid", teams)?, number("--grid", threads)?))
}

fn failure(value: &str) -> Result<(i32, Failure), String> {
    let (rank, what) = value.split_once(':').ok_or_else(|| {
        format!("rust-mpi-heat: --fail {value}: expected RANK:device or RANK:launch")
    })?;
    let what = match what {
        "device" => Failure::Device,
        "launch" => Failure::Launch,
        _ => {
            return Err(format!(
                "rust-mpi-heat: --fail {value}: expected device or launch"
            ));
        }
    };
    Ok((number("--fail", rank)?, what))
}
