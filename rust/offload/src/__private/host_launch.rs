//! The host half of a `#[kernel]` expansion: the launcher packs its
//! arguments into launch slots and sizes and calls the kernel's launch stub.

use super::abi::{Scalar, Stub};
#[cfg(not(feature = "device"))]
use crate::launch::OtherDevice;
use crate::launch::{Detail, FeatureMismatch, Launch, LaunchError, LayoutMismatch};
use crate::{HostIn, HostMut};
use offload_contract::{grid, launch_code};

/// `(address, element count, bytes)` of a host argument a launch reads.
#[inline]
pub fn host_in<T: ?Sized, A: HostIn<T>>(arg: &A) -> (u64, u64, u64) {
    (
        arg.host_ptr() as u64,
        arg.count() as u64,
        arg.bytes() as u64,
    )
}

/// `(address, element count, bytes)` of a host argument a launch writes.
#[inline]
pub fn host_mut<T: ?Sized, A: HostMut<T>>(arg: &mut A) -> (u64, u64, u64) {
    (
        arg.host_ptr() as u64,
        arg.count() as u64,
        arg.bytes() as u64,
    )
}

/// The device on which a host argument a launch reads keeps its data
/// mapped itself ([`HostIn::keeps_mapped`]).
#[inline]
pub fn kept_in<T: ?Sized, A: HostIn<T>>(arg: &A) -> Option<i64> {
    arg.keeps_mapped()
}

/// The device on which a host argument a launch writes keeps its data
/// mapped itself ([`HostMut::keeps_mapped`]).
#[inline]
pub fn kept_mut<T: ?Sized, A: HostMut<T>>(arg: &A) -> Option<i64> {
    arg.keeps_mapped()
}

/// The launch grid's hidden slots (offload-contract's `grid`), or the
/// launch's error if a team would have more threads than any target runs.
pub fn grid_slots(
    launch: &Launch,
    kernel: &'static str,
    symbol: &'static str,
) -> Result<[u64; grid::SLOTS], LaunchError> {
    match launch.grid.team_size() {
        Some(_) => Ok(grid::encode(launch.grid)),
        None => Err(LaunchError {
            kernel,
            symbol,
            code: launch_code::TOO_MANY_THREADS,
            detail: Detail::None,
        }),
    }
}

#[inline]
pub fn scalar<T: Scalar>(value: T) -> u64 {
    value.to_slot()
}

/// Runs a launch through its stubs: `direct` with device addresses when
/// every pointer argument is a region or device buffer of the launch's
/// device that the argument itself keeps alive (`kept[i]`, nothing mapped,
/// no lookups in libomptarget's present table), else `stub`, which maps
/// the host addresses (a reference libomptarget counts, so a region of
/// another owner that ends meanwhile cannot free the launch's data).
///
/// # Safety
/// `args` are the kernel's launch slots as its record describes them, and
/// every pointer among them is valid (for reading, and for writing where
/// mapped FROM) for `sizes[i]` bytes until this returns; `kept[i]` names a
/// device only where slot `i`'s argument holds its mapping there until this
/// returns ([`HostIn::keeps_mapped`]); `params` names each slot's
/// parameter; `stub` and `direct` are the kernel's stubs.
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn launch<const N: usize>(
    launch: &Launch,
    kernel: &'static str,
    symbol: &'static str,
    params: &[&'static str],
    args: &[u64; N],
    sizes: &[u64; N],
    kept: &[Option<i64>; N],
    stub: Stub,
    direct: Stub,
) -> Result<(), LaunchError> {
    let config = launch.config(sizes);
    let result = |code| {
        if code == launch_code::SUCCESS {
            Ok(())
        } else {
            Err(LaunchError {
                kernel,
                symbol,
                code,
                detail: Detail::None,
            })
        }
    };
    #[cfg(not(feature = "device"))]
    let _live = {
        // The default device is resolved only when something is mapped.
        let device = if sizes.iter().any(|&bytes| bytes > 0) {
            crate::Device::new(launch.device_number()).number()
        } else {
            launch.device_number()
        };
        if let Some(addresses) = crate::data::direct(device, args, sizes, kept) {
            // SAFETY: the caller's contract, every pointer slot now the
            // device address of device data of `device` that the slot's
            // argument keeps mapped until this returns; the stub reads
            // `config` and the slots only during the call.
            let code = unsafe { direct(&config, addresses.as_ptr()) };
            if code != launch_code::NO_DIRECT {
                return result(code);
            }
        }
        enter_arguments(device, (kernel, symbol, params), args, sizes)?
    };
    #[cfg(feature = "device")]
    let _ = (direct, params, kept);
    // SAFETY: the caller's contract; the stub reads `config` and `args` only
    // during the call.
    result(unsafe { stub(&config, args.as_ptr()) })
}

/// The function of a kernel's stub module that returns the targets of the
/// images it registers (`offload_contract::record::IMAGES_PREFIX`): a
/// pointer to their UTF-8 text, its length written through the argument.
pub type ImageTargets = unsafe extern "C" fn(len: *mut usize) -> *const u8;

/// A launch's result, where no device here takes any image
/// ([`NO_DEVICE_FOR_IMAGES`](launch_code::NO_DEVICE_FOR_IMAGES)) with the
/// targets of the images that hold the kernel: the stubs know them, the
/// code alone does not say which device is missing.
///
/// # Safety
/// `images` is the [`ImageTargets`] function of the kernel's stub module.
pub unsafe fn name_images(
    result: Result<(), LaunchError>,
    images: ImageTargets,
) -> Result<(), LaunchError> {
    match result {
        Err(mut error)
            if error.code == launch_code::NO_DEVICE_FOR_IMAGES && error.detail == Detail::None =>
        {
            let mut len = 0;
            // SAFETY: the caller's contract: the stub module's function
            // returns its own static text and writes its length.
            let text = unsafe { core::slice::from_raw_parts(images(&mut len), len) };
            error.detail = Detail::Images(core::str::from_utf8(text).unwrap_or("(unreadable)"));
            Err(error)
        }
        other => other,
    }
}

/// `Ok` if every slot's layout word in the host build (`host`) is the
/// device image's (`device`), else the launch's error naming the first
/// slot's parameter (`params`) that differs.
pub fn check_layouts(
    kernel: &'static str,
    symbol: &'static str,
    params: &[&'static str],
    host: &[u64],
    device: &[u64],
) -> Result<(), LaunchError> {
    let differs = host
        .iter()
        .zip(device)
        .zip(params)
        .find(|((h, d), _)| h != d);
    match differs {
        None => Ok(()),
        Some(((&host, &device), &param)) => Err(LaunchError {
            kernel,
            symbol,
            code: launch_code::LAYOUT_MISMATCH,
            detail: Detail::Layout(LayoutMismatch {
                param,
                host,
                device,
            }),
        }),
    }
}

/// `Ok` if the kernel crate's feature word in the host build (`host`) is
/// the device image's (`device`), else the launch's error naming the
/// features (`names`, [`offload_contract::features`]) that differ.
pub fn check_features(
    kernel: &'static str,
    symbol: &'static str,
    names: &'static [&'static str],
    host: u64,
    device: u64,
) -> Result<(), LaunchError> {
    if host == device {
        return Ok(());
    }
    Err(LaunchError {
        kernel,
        symbol,
        code: launch_code::FEATURE_MISMATCH,
        detail: Detail::Features(FeatureMismatch {
            names,
            host,
            device,
        }),
    })
}

/// Enters the host ranges of the launch's pointer arguments (a size other
/// than 0) among the live mappings for the launch's duration, or the
/// launch's error if one overlaps a live mapping without lying inside it,
/// or lies in a region (or device buffer) of another device only.
#[cfg(not(feature = "device"))]
fn enter_arguments(
    device: i64,
    (kernel, symbol, params): (&'static str, &'static str, &[&'static str]),
    args: &[u64],
    sizes: &[u64],
) -> Result<crate::data::Ranges, LaunchError> {
    use crate::data::Refusal;
    let ranges = args
        .iter()
        .zip(sizes)
        .map(|(&address, &bytes)| (address as usize, bytes as usize));
    let error = |code, detail| LaunchError {
        kernel,
        symbol,
        code,
        detail,
    };
    crate::data::Ranges::launch(device, ranges).map_err(|refusal| match refusal {
        Refusal::Overlap(overlap) => {
            error(launch_code::OVERLAPPING_RANGE, Detail::Overlap(overlap))
        }
        Refusal::OtherDevice(other) => {
            let other = OtherDevice {
                param: params.get(other.slot).copied().unwrap_or("?"),
                launch: other.launch,
                data: other.region,
            };
            error(launch_code::OTHER_DEVICE, Detail::OtherDevice(other))
        }
    })
}
