//! [`StreamError`]: queued work that failed.

use core::fmt;

use crate::{BufferError, LaunchError, MapError};

/// Work queued on a [`Stream`](super::Stream) that failed: a launch, a
/// device-buffer copy or a mapping that returned an error, or work that
/// panicked. The stream skips its remaining work until the error is
/// returned (by [`Stream::synchronize`](super::Stream::synchronize) or at
/// the end of the [`scope`](super::scope)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// A launch was refused.
    Launch(LaunchError),
    /// A device buffer operation failed.
    Buffer(BufferError),
    /// A mapping failed.
    Map(MapError),
    /// The work panicked; the scope resumes the panic when it ends.
    Panicked,
}

impl From<LaunchError> for StreamError {
    fn from(error: LaunchError) -> Self {
        StreamError::Launch(error)
    }
}

impl From<BufferError> for StreamError {
    fn from(error: BufferError) -> Self {
        StreamError::Buffer(error)
    }
}

impl From<MapError> for StreamError {
    fn from(error: MapError) -> Self {
        StreamError::Map(error)
    }
}

impl From<core::convert::Infallible> for StreamError {
    fn from(never: core::convert::Infallible) -> Self {
        match never {}
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Launch(e) => write!(f, "{e} (queued on a stream)"),
            StreamError::Buffer(e) => write!(f, "{e} (queued on a stream)"),
            StreamError::Map(e) => write!(f, "{e} (queued on a stream)"),
            StreamError::Panicked => write!(
                f,
                "offload: work queued on a stream panicked; the stream skipped its later work"
            ),
        }
    }
}

impl core::error::Error for StreamError {}
