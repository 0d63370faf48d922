//! [`unwrap_or_abort`]: one rank's error ends the whole job.

use core::fmt::Display;
use std::io::Write;

use mpi::traits::Communicator;

/// The value of `result`, or, on an error, prints `rank R: ERROR` to
/// stderr and aborts every rank of `comm`'s job (`MPI_Abort` with code 1):
/// a rank that returned or panicked alone would leave the others waiting
/// for its messages.
pub fn unwrap_or_abort<C, T, E>(comm: &C, result: Result<T, E>) -> T
where
    C: Communicator,
    E: Display,
{
    match result {
        Ok(value) => value,
        Err(error) => {
            // One write of the whole line: mpirun forwards a rank's output
            // as it reads it and writes its own abort notice between two
            // writes of a line (`eprintln!` writes each piece).
            let line = format!("rank {}: {error}\n", comm.rank());
            let _ = std::io::stderr().write_all(line.as_bytes());
            comm.abort(1)
        }
    }
}
