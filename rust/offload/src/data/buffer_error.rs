//! [`BufferError`]: a device buffer operation that did not happen.

use core::fmt;

/// What went wrong with a [`DeviceBuffer`](crate::DeviceBuffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferProblem {
    /// The device is not one of the runtime's.
    NoSuchDevice,
    /// The device (or the host's address space) had no room.
    OutOfMemory,
    /// The element count does not fit in the address space.
    TooLarge,
    /// The host slice's length is not the buffer's.
    LengthMismatch {
        /// The buffer's length.
        buffer: usize,
        /// The host slice's (or the other buffer's) length.
        other: usize,
    },
    /// Elements `start..end` are not all in the buffer, or `end` is before
    /// `start` (a range copy or range address).
    OutOfRange {
        /// The first element asked for.
        start: usize,
        /// One past the last element asked for.
        end: usize,
        /// The buffer's length.
        buffer: usize,
    },
    /// The runtime refused (`omp_target_memcpy`, `omp_target_memset` or
    /// `omp_target_associate_ptr` returned this code).
    RuntimeFailed(i32),
}

/// A device buffer operation that did not happen: the operation, the
/// device, the bytes and what went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferError {
    pub(crate) op: &'static str,
    pub(crate) device: i64,
    pub(crate) bytes: usize,
    pub(crate) problem: BufferProblem,
}

impl BufferError {
    /// What went wrong.
    pub const fn problem(&self) -> BufferProblem {
        self.problem
    }

    /// The device number.
    pub const fn device(&self) -> i64 {
        self.device
    }
}

impl fmt::Display for BufferError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offload: device buffer: {} of {} bytes on device {}: ",
            self.op, self.bytes, self.device
        )?;
        match self.problem {
            BufferProblem::NoSuchDevice => super::device::fmt_no_such_device(f),
            BufferProblem::OutOfMemory => write!(f, "out of memory"),
            BufferProblem::TooLarge => write!(f, "the size does not fit in the address space"),
            BufferProblem::LengthMismatch { buffer, other } => write!(
                f,
                "the buffer holds {buffer} elements, the other side {other}"
            ),
            BufferProblem::OutOfRange { start, end, buffer } if end < start => write!(
                f,
                "the range {start}..{end} ends before it starts (the buffer holds {buffer} elements)"
            ),
            BufferProblem::OutOfRange { start, end, buffer } => write!(
                f,
                "elements {start}..{end} are not in the buffer of {buffer} elements"
            ),
            BufferProblem::RuntimeFailed(code) => write!(f, "the runtime returned {code}"),
        }
    }
}

impl core::error::Error for BufferError {}
