//! Mapped regions: [`Mapped`] (TO) and [`MappedMut`] (TO|FROM or FROM),
//! which map their data when created and unmap it when dropped, and the
//! [`HostIn`]/[`HostMut`] impls that let a launch take a region.

use super::live::Ranges;
use super::{Device, DevicePtr, MapError};
use crate::args::{AnyBitPattern, DeviceData, HostIn, HostMut};
use crate::runtime::{self as rt, FROM, TO};

impl Device {
    /// Maps `data` to this device (TO) for the region's lifetime.
    pub fn map<T: ?Sized + DeviceData>(self, data: &T) -> Result<Mapped<'_, T>, MapError> {
        let ptr = (data as *const T).cast::<u8>();
        let (device, live) = begin(self, ptr, size_of_val(data), TO)?;
        Ok(Mapped {
            host: data,
            device,
            live,
        })
    }

    /// Maps `data` to this device and back (TO|FROM): copied in now, back
    /// at [`MappedMut::update_host`] and when the region is dropped.
    pub fn map_mut<T: ?Sized + DeviceData>(
        self,
        data: &mut T,
    ) -> Result<MappedMut<'_, T>, MapError> {
        self.map_with(data, TO | FROM)
    }

    /// Maps `data` from this device only (FROM): device memory is allocated,
    /// nothing is copied in; copied back at [`MappedMut::update_host`] and
    /// when the region is dropped. Elements a kernel did not write come back
    /// as whatever the device memory held, so the elements must be
    /// [`AnyBitPattern`] (use [`map_mut`](Self::map_mut) for others).
    pub fn map_out<T: ?Sized + DeviceData>(self, data: &mut T) -> Result<MappedMut<'_, T>, MapError>
    where
        T::Elem: AnyBitPattern,
    {
        self.map_with(data, FROM)
    }

    fn map_with<T: ?Sized + DeviceData>(
        self,
        data: &mut T,
        map: i64,
    ) -> Result<MappedMut<'_, T>, MapError> {
        let ptr = (data as *mut T).cast::<u8>();
        let (device, live) = begin(self, ptr, size_of_val(data), map)?;
        Ok(MappedMut {
            host: data,
            device,
            map,
            live,
        })
    }
}

/// Maps the `bytes` bytes at `ptr` on `device`: the device with the default
/// resolved to its number and the range entered among the live ones, or an
/// error if the device does not exist, the range overlaps a live mapping
/// without lying inside it, the device cannot allocate it, or the runtime
/// did not make the data present.
fn begin(
    device: Device,
    ptr: *const u8,
    bytes: usize,
    map: i64,
) -> Result<(Device, Ranges), MapError> {
    let error = |device, overlap, out_of_memory| MapError {
        bytes,
        device,
        overlap,
        out_of_memory,
        no_such_device: false,
    };
    if !device.exists() {
        return Err(MapError {
            no_such_device: true,
            ..error(device.number(), None, false)
        });
    }
    let device = Device(device.number());
    let (live, mapped) = Ranges::region(device.0, [(ptr as usize, bytes)], || {
        if bytes == 0 {
            return Some(core::ptr::null_mut());
        }
        if !fits(device, ptr, bytes) {
            return None;
        }
        // SAFETY: `ptr` points at `bytes` bytes borrowed by the region
        // being made.
        unsafe {
            rt::map_one(
                rt::__tgt_target_data_begin_mapper,
                device.0,
                ptr,
                bytes,
                map,
            )
        };
        // SAFETY: an OpenMP query on a host address.
        Some(unsafe { rt::omp_get_mapped_ptr(ptr.cast(), device.0 as i32) })
    })
    .map_err(|overlap| error(device.0, Some(overlap), false))?;
    let Some(mapped) = mapped else {
        return Err(error(device.0, None, true));
    };
    if bytes == 0 {
        return Ok((device, live));
    }
    if mapped.is_null() {
        return Err(error(device.0, None, false));
    }
    // Launches on the region pass this address as it is.
    live.set_device_address(mapped as usize);
    Ok((device, live))
}

/// Whether `device` holds `bytes` at `ptr` or can allocate them: for
/// [`PROBE_BYTES`](offload_contract::launch_code::PROBE_BYTES) or more not
/// present, a trial allocation (libomptarget aborts the process when its
/// own allocation of a region fails), as a launch does.
fn fits(device: Device, ptr: *const u8, bytes: usize) -> bool {
    if (bytes as u64) < offload_contract::launch_code::PROBE_BYTES {
        return true;
    }
    let number = device.0 as core::ffi::c_int;
    // SAFETY: an OpenMP query on a host address.
    if !unsafe { rt::omp_get_mapped_ptr(ptr.cast(), number) }.is_null() {
        return true;
    }
    // SAFETY: an allocation on a device of the runtime, freed at once.
    let trial = unsafe { rt::omp_target_alloc(bytes, number) };
    if trial.is_null() {
        return false;
    }
    // SAFETY: allocated just above on the same device.
    unsafe { rt::omp_target_free(trial, number) };
    true
}

/// Maps `data` to the default device (TO) while the region lives.
pub fn map<T: ?Sized + DeviceData>(data: &T) -> Result<Mapped<'_, T>, MapError> {
    Device::DEFAULT.map(data)
}

/// Maps `data` to the default device and back (TO|FROM), see
/// [`Device::map_mut`].
pub fn map_mut<T: ?Sized + DeviceData>(data: &mut T) -> Result<MappedMut<'_, T>, MapError> {
    Device::DEFAULT.map_mut(data)
}

/// Maps `data` from the default device only (FROM), see [`Device::map_out`].
pub fn map_out<T: ?Sized + DeviceData>(data: &mut T) -> Result<MappedMut<'_, T>, MapError>
where
    T::Elem: AnyBitPattern,
{
    Device::DEFAULT.map_out(data)
}

/// Data mapped to a device (TO) for the region's lifetime; the host may
/// not change it meanwhile (the region holds the shared borrow).
pub struct Mapped<'a, T: ?Sized + DeviceData> {
    host: &'a T,
    device: Device,
    /// Leaves the live ranges as `drop` unmaps the data.
    live: Ranges,
}

impl<T: ?Sized + DeviceData> Mapped<'_, T> {
    /// The device copy's address (for vendor libraries).
    pub fn device_ptr(&self) -> DevicePtr<T> {
        let bytes = size_of_val(self.host);
        let ptr = (self.host as *const T).cast::<u8>();
        DevicePtr::of_mapped(self.device, ptr, bytes, self.host.count())
    }

    /// The device it is mapped to.
    pub fn device(&self) -> Device {
        self.device
    }
}

impl<T: ?Sized + DeviceData> Drop for Mapped<'_, T> {
    fn drop(&mut self) {
        let bytes = size_of_val(self.host);
        let ptr = (self.host as *const T).cast::<u8>();
        let device = self.device.0;
        core::mem::replace(&mut self.live, Ranges::none()).leave(|| {
            if bytes > 0 {
                // SAFETY: the range this region mapped, still borrowed.
                unsafe { rt::map_one(rt::__tgt_target_data_end_mapper, device, ptr, bytes, TO) };
            }
        });
    }
}

/// Data mapped to a device and back: copied back when dropped. The host
/// reaches it only through [`update_host`](Self::update_host) and
/// [`update_device`](Self::update_device).
pub struct MappedMut<'a, T: ?Sized + DeviceData> {
    host: &'a mut T,
    device: Device,
    map: i64,
    /// Leaves the live ranges as `drop` unmaps the data.
    live: Ranges,
}

impl<T: ?Sized + DeviceData> MappedMut<'_, T> {
    fn range(&self) -> (*const u8, usize) {
        (
            (&*self.host as *const T).cast::<u8>(),
            size_of_val(&*self.host),
        )
    }

    /// The range, from the exclusive borrow: the runtime writes through it
    /// (FROM), so the pointer must not come from a shared reborrow.
    fn range_mut(&mut self) -> (*const u8, usize) {
        let bytes = size_of_val(&*self.host);
        ((&mut *self.host as *mut T).cast::<u8>().cast_const(), bytes)
    }

    /// Runs `mapper` (update or end) on the region's range, if it has bytes.
    fn map_range(&mut self, mapper: rt::Mapper, map: i64) {
        let (ptr, bytes) = self.range_mut();
        if bytes > 0 {
            // SAFETY: the range this region mapped, still borrowed exclusively.
            unsafe { rt::map_one(mapper, self.device.0, ptr, bytes, map) };
        }
    }

    fn update(&mut self, map: i64) {
        self.map_range(rt::__tgt_target_data_update_mapper, map);
    }

    /// Copies the device's data to the host and gives the host access to it
    /// until the next use of the region.
    pub fn update_host(&mut self) -> &mut T {
        self.update(FROM);
        self.host
    }

    /// Copies the host's data (changed through [`update_host`](Self::update_host))
    /// to the device.
    pub fn update_device(&mut self) {
        self.update(TO);
    }

    /// The device copy's address (for vendor libraries).
    pub fn device_ptr(&self) -> DevicePtr<T> {
        let (ptr, bytes) = self.range();
        DevicePtr::of_mapped(self.device, ptr, bytes, self.host.count())
    }

    /// The device it is mapped to.
    pub fn device(&self) -> Device {
        self.device
    }
}

impl<T: ?Sized + DeviceData> Drop for MappedMut<'_, T> {
    fn drop(&mut self) {
        let live = core::mem::replace(&mut self.live, Ranges::none());
        live.leave(|| self.map_range(rt::__tgt_target_data_end_mapper, self.map | FROM));
    }
}

// SAFETY: the region keeps the host data borrowed (valid, unchanged) and
// mapped on its device while the reference lives.
unsafe impl<T: ?Sized + DeviceData> HostIn<T> for &Mapped<'_, T> {
    fn host_ptr(&self) -> *const u8 {
        (self.host as *const T).cast()
    }
    fn count(&self) -> usize {
        self.host.count()
    }
    fn bytes(&self) -> usize {
        size_of_val(self.host)
    }
    fn keeps_mapped(&self) -> Option<i64> {
        Some(self.device.0)
    }
}

// SAFETY: the region keeps the host data borrowed exclusively and mapped
// on its device while the reference lives.
unsafe impl<T: ?Sized + DeviceData> HostIn<T> for &MappedMut<'_, T> {
    fn host_ptr(&self) -> *const u8 {
        (&*self.host as *const T).cast()
    }
    fn count(&self) -> usize {
        self.host.count()
    }
    fn bytes(&self) -> usize {
        size_of_val(&*self.host)
    }
    fn keeps_mapped(&self) -> Option<i64> {
        Some(self.device.0)
    }
}

// SAFETY: the region keeps the host data borrowed exclusively and mapped
// on its device while the reference lives.
unsafe impl<T: ?Sized + DeviceData> HostMut<T> for &mut MappedMut<'_, T> {
    fn host_ptr(&mut self) -> *mut u8 {
        (&mut *self.host as *mut T).cast()
    }
    fn count(&self) -> usize {
        self.host.count()
    }
    fn bytes(&self) -> usize {
        size_of_val(&*self.host)
    }
    fn keeps_mapped(&self) -> Option<i64> {
        Some(self.device.0)
    }
}
