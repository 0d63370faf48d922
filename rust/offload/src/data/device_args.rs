//! [`device_ptrs`]: maps a tuple of arguments and hands their device
//! pointers to a host closure.

use super::{Device, DevicePtr, MapError, Mapped, MappedMut};
use crate::args::DeviceData;

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

impl Device {
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
