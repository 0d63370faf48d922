//! [`Exchange`]: ranges of device buffers sent and received through MPI.

use core::ops::Range;

use mpi::Tag;
use mpi::datatype::Equivalence;
use mpi::point_to_point::{Status, send_receive_into_with_tags};
use mpi::topology::Process;
use mpi::traits::{Destination, Source};
use offload::{DeviceBuffer, DeviceCopy};

use crate::device_range::{DeviceRange, DeviceRangeMut};
use crate::{ExchangeError, ExchangePath, GpuSupport};

/// Elements `range` of `buffer`, to send to `to`.
pub struct Outgoing<'a, 'c, T: DeviceCopy> {
    /// The receiving rank.
    pub to: &'a Process<'c>,
    /// The buffer the elements are in.
    pub buffer: &'a DeviceBuffer<T>,
    /// The elements sent (exactly these).
    pub range: Range<usize>,
}

/// Elements `range` of `buffer`, to receive from `from`.
pub struct Incoming<'a, 'c, T: DeviceCopy> {
    /// The sending rank.
    pub from: &'a Process<'c>,
    /// The buffer the elements go to.
    pub buffer: &'a mut DeviceBuffer<T>,
    /// The elements written (exactly these; the others stay as they are).
    pub range: Range<usize>,
}

/// Sends and receives ranges of device buffers by the path the MPI library
/// allows ([`ExchangePath::select`] of [`GpuSupport::query`]). Blocking:
/// every call returns when its data has been sent and received.
#[derive(Clone, Copy, Debug)]
pub struct Exchange {
    path: ExchangePath,
}

impl Default for Exchange {
    fn default() -> Self {
        Self::new()
    }
}

impl Exchange {
    /// The exchange of this process's MPI library (MPI initialised).
    pub fn new() -> Self {
        Exchange {
            path: ExchangePath::select(GpuSupport::query()),
        }
    }

    /// The path it takes.
    pub fn path(&self) -> ExchangePath {
        self.path
    }

    /// Sends `send`'s range and receives into `receive`'s at the same time
    /// (`MPI_Sendrecv`, without deadlock whatever the neighbours' order),
    /// both with `tag`. Either may be `None` (a rank at the edge of a
    /// decomposition, like `MPI_PROC_NULL`). Both ranges are checked before
    /// anything is sent.
    pub fn shift<T: DeviceCopy + Equivalence>(
        &self,
        send: Option<Outgoing<'_, '_, T>>,
        receive: Option<Incoming<'_, '_, T>>,
        tag: Tag,
    ) -> Result<(), ExchangeError> {
        if let Some(r) = &receive {
            r.buffer.device_ptr_range(r.range.clone())?;
        }
        match self.path {
            ExchangePath::Staged => staged(send, receive, tag),
            ExchangePath::DeviceAddress => by_address(send, receive, tag),
        }
    }

    /// Sends elements `range` of `buffer` to `to` with `tag`.
    pub fn send<T: DeviceCopy + Equivalence>(
        &self,
        to: &Process<'_>,
        buffer: &DeviceBuffer<T>,
        range: Range<usize>,
        tag: Tag,
    ) -> Result<(), ExchangeError> {
        let send = Outgoing { to, buffer, range };
        self.shift(Some(send), None, tag)
    }

    /// Receives elements `range` of `buffer` from `from` with `tag`.
    pub fn receive<T: DeviceCopy + Equivalence>(
        &self,
        from: &Process<'_>,
        buffer: &mut DeviceBuffer<T>,
        range: Range<usize>,
        tag: Tag,
    ) -> Result<(), ExchangeError> {
        let receive = Incoming {
            from,
            buffer,
            range,
        };
        self.shift(None, Some(receive), tag)
    }
}

/// Through host memory: exactly the range is copied off the device and
/// sent; the message received is copied onto the range.
fn staged<T: DeviceCopy + Equivalence>(
    send: Option<Outgoing<'_, '_, T>>,
    receive: Option<Incoming<'_, '_, T>>,
    tag: Tag,
) -> Result<(), ExchangeError> {
    let host = match &send {
        Some(s) => s.buffer.range_to_vec(s.range.clone())?,
        None => Vec::new(),
    };
    let received = match (&send, &receive) {
        (Some(s), Some(r)) => Some(mpi::request::scope(|scope| {
            let sent = s.to.immediate_send_with_tag(scope, &host[..], tag);
            let received = r.from.receive_vec_with_tag::<T>(tag);
            sent.wait();
            received
        })),
        (Some(s), None) => {
            s.to.send_with_tag(&host[..], tag);
            None
        }
        (None, Some(r)) => Some(r.from.receive_vec_with_tag::<T>(tag)),
        (None, None) => None,
    };
    let (Some(r), Some((data, status))) = (receive, received) else {
        return Ok(());
    };
    same_length(&r.range, data.len(), status)?;
    r.buffer.copy_range_from_host(r.range.start, &data)?;
    Ok(())
}

/// By device address: MPI reads and writes the ranges on the device.
fn by_address<T: DeviceCopy + Equivalence>(
    send: Option<Outgoing<'_, '_, T>>,
    receive: Option<Incoming<'_, '_, T>>,
    tag: Tag,
) -> Result<(), ExchangeError> {
    match (send, receive) {
        (Some(s), Some(r)) => {
            let out = DeviceRange::of(s.buffer, s.range)?;
            let mut into = DeviceRangeMut::of(r.buffer, r.range.clone())?;
            let status = send_receive_into_with_tags(&out, s.to, tag, &mut into, r.from, tag);
            received_length::<T>(&r.range, status)
        }
        (Some(s), None) => {
            s.to.send_with_tag(&DeviceRange::of(s.buffer, s.range)?, tag);
            Ok(())
        }
        (None, Some(r)) => {
            let mut into = DeviceRangeMut::of(r.buffer, r.range.clone())?;
            let status = r.from.receive_into_with_tag(&mut into, tag);
            received_length::<T>(&r.range, status)
        }
        (None, None) => Ok(()),
    }
}

/// A message received into a range by address may be shorter than the
/// range (a longer one is an MPI truncation error).
pub(crate) fn received_length<T: Equivalence>(
    range: &Range<usize>,
    status: Status,
) -> Result<(), ExchangeError> {
    let count = status.count(T::equivalent_datatype());
    same_length(range, usize::try_from(count).unwrap_or(0), status)
}

pub(crate) fn same_length(
    range: &Range<usize>,
    received: usize,
    status: Status,
) -> Result<(), ExchangeError> {
    let expected = range.end - range.start;
    if received == expected {
        return Ok(());
    }
    Err(ExchangeError::Length {
        source: status.source_rank(),
        expected,
        received,
    })
}
