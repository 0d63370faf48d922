//! [`ExchangeError`]: a send or receive of a device buffer range that did
//! not happen.

use core::fmt;

use offload::BufferError;

/// A send or receive of an [`Exchange`](crate::Exchange) that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeError {
    /// The copy between the device and host memory failed, or the range is
    /// not in the buffer.
    Buffer(BufferError),
    /// The message received is not as long as the range it was for (staged,
    /// the range is left as it was; by device address, MPI has written the
    /// elements it received).
    Length {
        /// The rank it came from.
        source: i32,
        /// The range's length (elements).
        expected: usize,
        /// The message's length (elements).
        received: usize,
    },
    /// The range holds more elements than an MPI count (`i32`) can say.
    TooLong(usize),
}

impl From<BufferError> for ExchangeError {
    fn from(error: BufferError) -> Self {
        ExchangeError::Buffer(error)
    }
}

impl fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExchangeError::Buffer(error) => write!(f, "offload-mpi: exchange: {error}"),
            ExchangeError::Length {
                source,
                expected,
                received,
            } => write!(
                f,
                "offload-mpi: exchange: the message from rank {source} holds {received} \
                 elements, the range it is for {expected}"
            ),
            ExchangeError::TooLong(len) => write!(
                f,
                "offload-mpi: exchange: a range of {len} elements is longer than an MPI count"
            ),
        }
    }
}

impl core::error::Error for ExchangeError {}
