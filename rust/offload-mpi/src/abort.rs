//! [`unwrap_or_abort`]: one rank's error ends the whole job.

use core::fmt::Display;

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
            eprintln!("rank {}: {error}", comm.rank());
            comm.abort(1)
        }
    }
}
