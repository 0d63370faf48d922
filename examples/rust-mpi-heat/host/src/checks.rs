//! `--check-exchange`: what an exchange refuses, on ranks 0 and 1.

use std::error::Error;

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use offload::Device;
use offload_mpi::{Exchange, Outgoing, Shift};

/// Rank 0 asks for a range past the end of its buffer, in a send and in an
/// overlapped exchange (refused before anything is sent or the work runs),
/// then sends 3 elements where rank 1 receives 4 (rank 1 gets a length
/// error, its buffer unchanged); then both exchange the right lengths.
pub fn exchange_errors(
    world: &SimpleCommunicator,
    device: Device,
    exchange: &Exchange,
) -> Result<(), Box<dyn Error>> {
    if world.size() < 2 {
        return Err("--check-exchange needs 2 ranks or more".into());
    }
    let mut buffer = device.alloc_from(&[1.0f32, 2.0, 3.0, 4.0])?;
    match world.rank() {
        0 => {
            let to = world.process_at_rank(1);
            match exchange.send(&to, &buffer, 2..6, 7) {
                Err(error) => println!("rank 0: range past the end: {error}"),
                Ok(()) => return Err("a send of elements 2..6 of 4 succeeded".into()),
            }
            let send = Outgoing {
                to: &to,
                buffer: &buffer,
                range: 3..5,
            };
            let shifts = vec![Shift {
                send: Some(send),
                receive: None,
            }];
            match exchange.overlap(shifts, || println!("rank 0: the work ran")) {
                Err(error) => println!("rank 0: overlap past the end: {error}"),
                Ok(()) => return Err("an overlap sending elements 3..5 of 4 succeeded".into()),
            }
            exchange.send(&to, &buffer, 0..3, 7)?;
            exchange.send(&to, &buffer, 1..3, 8)?;
        }
        1 => {
            let from = world.process_at_rank(0);
            match exchange.receive(&from, &mut buffer, 0..4, 7) {
                Err(error) => println!("rank 1: short message: {error}"),
                Ok(()) => return Err("3 elements received into a range of 4".into()),
            }
            exchange.receive(&from, &mut buffer, 2..4, 8)?;
            println!("rank 1: after the exchange: {:?}", buffer.to_vec()?);
        }
        _ => {}
    }
    world.barrier();
    Ok(())
}
