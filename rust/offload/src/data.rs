//! Mapped regions (RAII) and device pointers for vendor libraries.
//!
//! A region maps its data when it is created and unmaps it when dropped
//! (copying back first if it is mutable). It holds the borrow, so the host
//! cannot read or write the data while it is mapped except through the
//! region's explicit updates. Launches that get the region as an argument
//! find the data present (libomptarget counts references) and copy nothing.
//!
//! ```no_run
//! # use offload::{kernel, Launch};
//! # #[kernel] pub fn step(x: &mut [f32]) {}
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut x = vec![0.0f32; 1024];
//! let mut region = offload::map_mut(&mut x[..])?; // copied to the device once
//! for _ in 0..10 {
//!     step(&Launch::grid(8, 128), &mut region)?; // nothing copied
//! }
//! let host = region.update_host(); // copied back now, read through the region
//! println!("{}", host[0]);
//! drop(region); // copied back again, unmapped
//! println!("{}", x[0]);
//! # Ok(()) }
//! ```

use core::ffi::c_void;
use core::fmt;
use core::marker::PhantomData;

use crate::args::{DeviceData, HostIn, HostMut};
use crate::runtime::{self as rt, FROM, TO};

/// A libomptarget device: [`Device::DEFAULT`] or a device number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Device(i64);

impl Device {
    /// The default device (`OMP_DEFAULT_DEVICE`, else device 0).
    pub const DEFAULT: Device = Device(-1);

    /// Device number `n` (-1: the default device).
    pub const fn new(n: i64) -> Self {
        Device(n)
    }

    /// The device number libomptarget's queries take (-1 resolved; any
    /// other number as it is).
    pub fn number(self) -> i64 {
        if self.0 == -1 {
            // SAFETY: an OpenMP query without preconditions.
            i64::from(unsafe { rt::omp_get_default_device() })
        } else {
            self.0
        }
    }

    /// True for a device of the runtime: libomptarget aborts the process
    /// (OMP_TARGET_OFFLOAD=MANDATORY) on any other number.
    fn exists(self) -> bool {
        // SAFETY: an OpenMP query without preconditions.
        let count = i64::from(unsafe { rt::omp_get_num_devices() });
        (0..count).contains(&self.number())
    }

    /// Maps `data` to this device (TO) for the region's lifetime.
    pub fn map<T: ?Sized + DeviceData>(self, data: &T) -> Result<Mapped<'_, T>, MapError> {
        let ptr = (data as *const T).cast::<u8>();
        let device = begin(self, ptr, size_of_val(data), TO)?;
        Ok(Mapped { host: data, device })
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
    /// when the region is dropped.
    pub fn map_out<T: ?Sized + DeviceData>(
        self,
        data: &mut T,
    ) -> Result<MappedMut<'_, T>, MapError> {
        self.map_with(data, FROM)
    }

    fn map_with<T: ?Sized + DeviceData>(
        self,
        data: &mut T,
        map: i64,
    ) -> Result<MappedMut<'_, T>, MapError> {
        let ptr = (data as *mut T).cast::<u8>();
        let device = begin(self, ptr, size_of_val(data), map)?;
        Ok(MappedMut {
            host: data,
            device,
            map,
        })
    }

    /// [`device_ptrs`] on this device.
    pub fn device_ptrs<'a, A: DeviceArgs<'a>, R>(
        self,
        args: A,
        f: impl FnOnce(A::Ptrs) -> R,
    ) -> Result<R, MapError> {
        let regions = args.map_all(self)?;
        let result = f(A::ptrs(&regions));
        drop(regions);
        Ok(result)
    }
}

fn begin(device: Device, ptr: *const u8, bytes: usize, map: i64) -> Result<Device, MapError> {
    if !device.exists() {
        return Err(MapError {
            bytes,
            device: device.number(),
        });
    }
    let device = Device(device.number());
    if bytes == 0 {
        return Ok(device);
    }
    // SAFETY: `ptr` points at `bytes` bytes borrowed by the region being made.
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
    let present = unsafe { rt::omp_target_is_present(ptr.cast(), device.0 as i32) };
    if present == 0 {
        return Err(MapError {
            bytes,
            device: device.0,
        });
    }
    Ok(device)
}

fn device_address(device: Device, ptr: *const u8, bytes: usize) -> *mut c_void {
    if bytes == 0 {
        return core::ptr::null_mut();
    }
    // SAFETY: an OpenMP query on a host address the caller's region maps.
    unsafe { rt::omp_get_mapped_ptr(ptr.cast(), device.0 as i32) }
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
pub fn map_out<T: ?Sized + DeviceData>(data: &mut T) -> Result<MappedMut<'_, T>, MapError> {
    Device::DEFAULT.map_out(data)
}

/// Data mapped to a device (TO) for the region's lifetime; the host may
/// not change it meanwhile (the region holds the shared borrow).
pub struct Mapped<'a, T: ?Sized + DeviceData> {
    host: &'a T,
    device: Device,
}

impl<T: ?Sized + DeviceData> Mapped<'_, T> {
    /// The device copy's address (for vendor libraries).
    pub fn device_ptr(&self) -> DevicePtr<T> {
        let bytes = size_of_val(self.host);
        let ptr = (self.host as *const T).cast::<u8>();
        DevicePtr::new(device_address(self.device, ptr, bytes), self.host.count())
    }

    /// The device it is mapped to.
    pub fn device(&self) -> Device {
        self.device
    }
}

impl<T: ?Sized + DeviceData> Drop for Mapped<'_, T> {
    fn drop(&mut self) {
        let bytes = size_of_val(self.host);
        if bytes > 0 {
            let ptr = (self.host as *const T).cast::<u8>();
            // SAFETY: the range this region mapped, still borrowed.
            unsafe {
                rt::map_one(
                    rt::__tgt_target_data_end_mapper,
                    self.device.0,
                    ptr,
                    bytes,
                    TO,
                )
            };
        }
    }
}

/// Data mapped to a device and back: copied back when dropped. The host
/// reaches it only through [`update_host`](Self::update_host) and
/// [`update_device`](Self::update_device).
pub struct MappedMut<'a, T: ?Sized + DeviceData> {
    host: &'a mut T,
    device: Device,
    map: i64,
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

    fn update(&mut self, map: i64) {
        let (ptr, bytes) = self.range_mut();
        if bytes > 0 {
            // SAFETY: the range this region maps and borrows exclusively.
            unsafe {
                rt::map_one(
                    rt::__tgt_target_data_update_mapper,
                    self.device.0,
                    ptr,
                    bytes,
                    map,
                )
            };
        }
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
        DevicePtr::new(device_address(self.device, ptr, bytes), self.host.count())
    }

    /// The device it is mapped to.
    pub fn device(&self) -> Device {
        self.device
    }
}

impl<T: ?Sized + DeviceData> Drop for MappedMut<'_, T> {
    fn drop(&mut self) {
        let (ptr, bytes) = self.range_mut();
        if bytes > 0 {
            // SAFETY: the range this region mapped, still borrowed exclusively.
            unsafe {
                rt::map_one(
                    rt::__tgt_target_data_end_mapper,
                    self.device.0,
                    ptr,
                    bytes,
                    self.map | FROM,
                )
            };
        }
    }
}

// SAFETY: the region keeps the host data borrowed (valid, unchanged).
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
}

// SAFETY: the region keeps the host data borrowed exclusively.
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
}

// SAFETY: the region keeps the host data borrowed exclusively.
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
}

/// A device address of mapped data, for libraries that take device
/// pointers. Valid while the region it came from lives; never dereference it
/// on the host (on libomptarget's CPU plugin it happens to be host memory).
pub struct DevicePtr<T: ?Sized + DeviceData> {
    ptr: *mut c_void,
    len: usize,
    _elem: PhantomData<*const T>,
}

impl<T: ?Sized + DeviceData> Clone for DevicePtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized + DeviceData> Copy for DevicePtr<T> {}

impl<T: ?Sized + DeviceData> fmt::Debug for DevicePtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DevicePtr({:p}, {} elements)", self.ptr, self.len)
    }
}

impl<T: ?Sized + DeviceData> DevicePtr<T> {
    fn new(ptr: *mut c_void, len: usize) -> Self {
        DevicePtr {
            ptr,
            len,
            _elem: PhantomData,
        }
    }

    /// The device address of the first element.
    pub fn as_ptr(&self) -> *const T::Elem {
        self.ptr.cast()
    }

    /// The device address of the first element, for writing.
    pub fn as_mut_ptr(&self) -> *mut T::Elem {
        self.ptr.cast()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Mapping failed: the runtime did not make the data present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapError {
    bytes: usize,
    device: i64,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offload: mapping {} bytes to device {} failed (is the device available? OMP_TARGET_OFFLOAD=MANDATORY, LIBOMPTARGET_INFO=-1 tell more)",
            self.bytes, self.device
        )
    }
}

impl core::error::Error for MapError {}

/// One argument of [`device_ptrs`]: `&T` (mapped TO) or `&mut T` (TO|FROM).
pub trait DeviceArg<'a> {
    /// The mapped region.
    type Region;
    /// What the closure gets.
    type Ptr;
    /// Maps the argument.
    fn map(self, device: Device) -> Result<Self::Region, MapError>;
    /// The region's device pointer.
    fn ptr(region: &Self::Region) -> Self::Ptr;
}

impl<'a, T: ?Sized + DeviceData> DeviceArg<'a> for &'a T {
    type Region = Mapped<'a, T>;
    type Ptr = DevicePtr<T>;
    fn map(self, device: Device) -> Result<Self::Region, MapError> {
        device.map(self)
    }
    fn ptr(region: &Self::Region) -> Self::Ptr {
        region.device_ptr()
    }
}

impl<'a, T: ?Sized + DeviceData> DeviceArg<'a> for &'a mut T {
    type Region = MappedMut<'a, T>;
    type Ptr = DevicePtr<T>;
    fn map(self, device: Device) -> Result<Self::Region, MapError> {
        device.map_mut(self)
    }
    fn ptr(region: &Self::Region) -> Self::Ptr {
        region.device_ptr()
    }
}

/// A tuple of [`DeviceArg`]s (up to 8).
pub trait DeviceArgs<'a> {
    /// The regions, mapped in order.
    type Regions;
    /// The device pointers, in order.
    type Ptrs;
    /// Maps every argument (on error, those already mapped are unmapped).
    fn map_all(self, device: Device) -> Result<Self::Regions, MapError>;
    /// The device pointers of the regions.
    fn ptrs(regions: &Self::Regions) -> Self::Ptrs;
}

macro_rules! device_args {
    ($($a:ident $i:tt),+) => {
        impl<'a, $($a: DeviceArg<'a>),+> DeviceArgs<'a> for ($($a,)+) {
            type Regions = ($($a::Region,)+);
            type Ptrs = ($($a::Ptr,)+);
            fn map_all(self, device: Device) -> Result<Self::Regions, MapError> {
                Ok(($(self.$i.map(device)?,)+))
            }
            fn ptrs(regions: &Self::Regions) -> Self::Ptrs {
                ($($a::ptr(&regions.$i),)+)
            }
        }
    };
}
device_args!(A 0);
device_args!(A 0, B 1);
device_args!(A 0, B 1, C 2);
device_args!(A 0, B 1, C 2, D 3);
device_args!(A 0, B 1, C 2, D 3, E 4);
device_args!(A 0, B 1, C 2, D 3, E 4, F 5);
device_args!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
device_args!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// Maps `args` on the default device (`&x`: TO, `&mut y`: TO|FROM), calls
/// `f` with their device pointers, then unmaps them (copying `&mut` ones
/// back): rustc `-Zoffload`'s `offload_args`, for vendor libraries such as
/// cuBLAS and rocBLAS that take device pointers.
///
/// ```no_run
/// unsafe extern "C" {
///     fn vendor_axpy(n: i32, a: f32, x: *const f32, y: *mut f32);
/// }
/// let x = vec![1.0f32; 100];
/// let mut y = vec![2.0f32; 100];
/// offload::device_ptrs((&x[..], &mut y[..]), |(dx, dy)| {
///     // SAFETY: the vendor routine reads 100 floats at dx, writes at dy.
///     unsafe { vendor_axpy(100, 3.0, dx.as_ptr(), dy.as_mut_ptr()) }
/// })?;
/// # Ok::<(), offload::MapError>(())
/// ```
pub fn device_ptrs<'a, A: DeviceArgs<'a>, R>(
    args: A,
    f: impl FnOnce(A::Ptrs) -> R,
) -> Result<R, MapError> {
    Device::DEFAULT.device_ptrs(args, f)
}
