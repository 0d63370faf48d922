//! `launch-region MODE N LAUNCHES`: LAUNCHES launches of `bump` on N
//! floats, MODE `plain` (host data, mapped by each launch), `region` (in one
//! mapped region) or `buffer` (a device buffer); prints `x[0]` and fails if
//! it is not LAUNCHES. `launch-region region-all N LAUNCHES`: LAUNCHES
//! launches of `add_one` on `Launch::grid(1, 1)` over the whole region
//! (every element must be LAUNCHES). `launch-region overlap ROUNDS`: two `spin` kernels
//! back to back, then on two streams; prints both wall times.

use std::error::Error;
use std::time::Instant;

use bench_kernels::{add_one, bump, spin};
use offload::{Device, Launch};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize| {
        args.get(i)
            .and_then(|a| a.parse::<usize>().ok())
            .unwrap_or(1)
    };
    let grid = Launch::new();
    let x0 = match args.get(1).map(String::as_str) {
        Some("overlap") => return overlap(number(2) as u64),
        Some("plain") => {
            let mut x = vec![0.0f32; number(2)];
            for _ in 0..number(3) {
                bump(&grid, &mut x)?;
            }
            x[0]
        }
        Some("region") => {
            let mut x = vec![0.0f32; number(2)];
            {
                let mut region = offload::map_mut(&mut x[..])?;
                for _ in 0..number(3) {
                    bump(&grid, &mut region)?;
                }
            }
            x[0]
        }
        Some("region-all") => {
            let mut x = vec![0.0f32; number(2)];
            let grid = Launch::grid(1, 1);
            {
                let mut region = offload::map_mut(&mut x[..])?;
                for _ in 0..number(3) {
                    add_one(&grid, &mut region)?;
                }
            }
            if let Some(wrong) = x.iter().find(|&&v| v as usize != number(3)) {
                return Err(format!("an element is {wrong}, not {}", number(3)).into());
            }
            x[0]
        }
        Some("buffer") => {
            let mut x = Device::DEFAULT.alloc::<f32>(number(2))?;
            for _ in 0..number(3) {
                bump(&grid, &mut x)?;
            }
            x.to_vec()?[0]
        }
        _ => {
            return Err(
                "usage: launch-region plain|region|region-all|buffer N LAUNCHES | overlap ROUNDS"
                    .into(),
            );
        }
    };
    println!("x[0] = {x0}");
    if x0 as usize != number(3) {
        return Err(format!("x[0] = {x0}, not {}", number(3)).into());
    }
    Ok(())
}

fn overlap(rounds: u64) -> Result<(), Box<dyn Error>> {
    let grid = Launch::grid(1, 1);
    let mut a = Device::DEFAULT.alloc::<u64>(1)?;
    let mut b = Device::new(1).alloc::<u64>(1)?;
    let start = Instant::now();
    spin(&grid, rounds, &mut a)?;
    spin(&grid.device(1), rounds, &mut b)?;
    let serial = start.elapsed().as_secs_f64();
    let start = Instant::now();
    offload::scope(|s| {
        let (sa, sb) = (s.stream(), s.stream());
        sa.run(|| spin(&grid, rounds, &mut a));
        sb.run(|| spin(&grid.device(1), rounds, &mut b));
    })?;
    let streams = start.elapsed().as_secs_f64();
    println!("back to back {serial:.4} s, two streams {streams:.4} s");
    Ok(())
}
