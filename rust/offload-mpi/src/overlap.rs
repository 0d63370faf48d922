//! [`Exchange::overlap`]: nonblocking sends and receives of device buffer
//! ranges around work that runs while the messages travel.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use mpi::Tag;
use mpi::datatype::{Buffer, BufferMut, Equivalence};
use mpi::point_to_point::Status;
use mpi::topology::Process;
use mpi::traits::{Destination, Source};
use offload::{AnyBitPattern, DeviceCopy};

use crate::device_range::{DeviceRange, DeviceRangeMut};
use crate::exchange::received_length;
use crate::{Exchange, ExchangeError, ExchangePath, Incoming, Outgoing};

/// One send and one receive of an [`Exchange::overlap`] (either may be
/// `None`, at the edge of a decomposition).
pub struct Shift<'a, 'c, T: DeviceCopy> {
    /// What this rank sends.
    pub send: Option<Outgoing<'a, 'c, T>>,
    /// What this rank receives.
    pub receive: Option<Incoming<'a, 'c, T>>,
}

impl Exchange {
    /// Starts every shift's send and receive (`MPI_Isend`, `MPI_Irecv`;
    /// shift `i` with tag `i`), runs `work` while the messages travel, then
    /// waits for them and returns `work`'s result. The buffers are borrowed
    /// until then, so `work` can only use other data: the interior of a
    /// block while its halo arrives. MPI makes progress when it is called,
    /// so the host does not spin in MPI while `work` runs (on
    /// libomptarget's CPU plugin the kernels need the cores). Every range is
    /// checked before anything is sent; a panic of `work` is resumed after
    /// the messages have completed.
    pub fn overlap<T, R>(
        &self,
        shifts: Vec<Shift<'_, '_, T>>,
        work: impl FnOnce() -> R,
    ) -> Result<R, ExchangeError>
    where
        T: AnyBitPattern + Equivalence,
    {
        for shift in &shifts {
            if let Some(r) = &shift.receive {
                r.buffer.device_ptr_range(r.range.clone())?;
            }
            if let Some(s) = &shift.send {
                s.buffer.device_ptr_range(s.range.clone())?;
            }
        }
        match self.path() {
            ExchangePath::Staged => staged(shifts, work),
            ExchangePath::DeviceAddress => by_address(shifts, work),
        }
    }
}

/// `len` zeroed elements.
fn zeroed<T: AnyBitPattern>(len: usize) -> Vec<T> {
    let mut host: Vec<T> = Vec::with_capacity(len);
    // SAFETY: `len` elements of capacity; all-zero bytes are a valid `T`
    // (any bit pattern is).
    unsafe {
        host.as_mut_ptr().write_bytes(0, len);
        host.set_len(len);
    }
    host
}

/// Runs `work`, keeping a panic for after the messages complete.
fn run<R>(work: impl FnOnce() -> R) -> std::thread::Result<R> {
    catch_unwind(AssertUnwindSafe(work))
}

/// Posts `receives` and `sends` (tag, peer, buffer), runs `work` while the
/// messages travel and waits for all of them: `work`'s result (a panic of
/// it resumed only once every message completed, so no buffer is released
/// under MPI) and the receives' statuses, in order.
fn around<R, In, Out>(
    receives: Vec<(Tag, &Process<'_>, &mut In)>,
    sends: Vec<(Tag, &Process<'_>, &Out)>,
    work: impl FnOnce() -> R,
) -> (R, Vec<Status>)
where
    In: BufferMut + ?Sized,
    Out: Buffer + ?Sized,
{
    let (result, statuses) = mpi::request::scope(|scope| {
        let pending: Vec<_> = receives
            .into_iter()
            .map(|(tag, from, buffer)| from.immediate_receive_into_with_tag(scope, buffer, tag))
            .collect();
        let sent: Vec<_> = sends
            .into_iter()
            .map(|(tag, to, buffer)| to.immediate_send_with_tag(scope, buffer, tag))
            .collect();
        let result = run(work);
        let statuses: Vec<Status> = pending.into_iter().map(|r| r.wait()).collect();
        for s in sent {
            s.wait();
        }
        (result, statuses)
    });
    (
        result.unwrap_or_else(|panic| resume_unwind(panic)),
        statuses,
    )
}

/// Through host memory: the sends' ranges are copied off the device first,
/// the messages received are copied onto their ranges after `work`.
fn staged<T, R>(shifts: Vec<Shift<'_, '_, T>>, work: impl FnOnce() -> R) -> Result<R, ExchangeError>
where
    T: AnyBitPattern + Equivalence,
{
    let mut sends: Vec<(Tag, &Process<'_>, Vec<T>)> = Vec::new();
    let mut receives = Vec::new();
    for (tag, shift) in (0..).zip(shifts) {
        if let Some(s) = shift.send {
            sends.push((tag, s.to, s.buffer.range_to_vec(s.range)?));
        }
        if let Some(r) = shift.receive {
            let host = zeroed::<T>(r.range.len());
            receives.push((tag, r, host));
        }
    }
    let (result, statuses) = around(
        receives
            .iter_mut()
            .map(|(tag, r, host)| (*tag, r.from, &mut host[..]))
            .collect(),
        sends
            .iter()
            .map(|(tag, to, host)| (*tag, *to, &host[..]))
            .collect(),
        work,
    );
    for ((_, r, host), status) in receives.into_iter().zip(statuses) {
        received_length::<T>(&r.range, status)?;
        r.buffer.copy_range_from_host(r.range.start, &host)?;
    }
    Ok(result)
}

/// By device address: MPI reads and writes the ranges on the device.
fn by_address<T, R>(
    shifts: Vec<Shift<'_, '_, T>>,
    work: impl FnOnce() -> R,
) -> Result<R, ExchangeError>
where
    T: AnyBitPattern + Equivalence,
{
    let mut sends = Vec::new();
    let mut receives = Vec::new();
    for (tag, shift) in (0..).zip(shifts) {
        if let Some(s) = shift.send {
            sends.push((tag, s.to, DeviceRange::of(s.buffer, s.range)?));
        }
        if let Some(r) = shift.receive {
            receives.push((
                tag,
                r.from,
                r.range.clone(),
                DeviceRangeMut::of(r.buffer, r.range)?,
            ));
        }
    }
    let (result, statuses) = around(
        receives
            .iter_mut()
            .map(|(tag, from, _, range)| (*tag, *from, range))
            .collect(),
        sends
            .iter()
            .map(|(tag, to, range)| (*tag, *to, range))
            .collect(),
        work,
    );
    for ((_, _, range, _), status) in receives.iter().zip(statuses) {
        received_length::<T>(range, status)?;
    }
    Ok(result)
}
