//! The host half of a `#[kernel]` expansion: the launcher packs its
//! arguments into launch slots and sizes and calls the kernel's launch stub.

use super::abi::{Scalar, Stub};
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

/// The launch grid's hidden slots (offload-contract's `grid`), or the
/// launch's error if a team would have more threads than any target runs.
pub fn grid_slots(
    launch: &Launch,
    kernel: &'static str,
    symbol: &'static str,
) -> Result<[u64; grid::SLOTS], LaunchError> {
    let dims = |d: crate::Dim3| [d.x, d.y, d.z];
    let grid = grid::Grid {
        teams: dims(launch.teams()),
        threads: dims(launch.threads()),
        dyn_shared_mem: launch.dyn_shared_mem,
    };
    match grid.team_size() {
        Some(_) => Ok(grid::encode(grid)),
        None => Err(LaunchError {
            kernel,
            symbol,
            code: launch_code::TOO_MANY_THREADS,
            detail: None,
        }),
    }
}

#[inline]
pub fn scalar<T: Scalar>(value: T) -> u64 {
    value.to_slot()
}

/// Runs a launch through its stub.
///
/// # Safety
/// `args` are the kernel's launch slots as its record describes them, and
/// every pointer among them is valid (for reading, and for writing where
/// mapped FROM) for `sizes[i]` bytes until this returns.
#[inline]
pub unsafe fn launch(
    launch: &Launch,
    kernel: &'static str,
    symbol: &'static str,
    args: &[u64],
    sizes: &[u64],
    stub: Stub,
) -> Result<(), LaunchError> {
    let config = launch.config(sizes);
    #[cfg(not(feature = "device"))]
    let _live = enter_arguments(launch, kernel, symbol, args, sizes)?;
    // SAFETY: the caller's contract; the stub reads `config` and `args` only
    // during the call.
    let code = unsafe { stub(&config, args.as_ptr()) };
    if code == launch_code::SUCCESS {
        Ok(())
    } else {
        Err(LaunchError {
            kernel,
            symbol,
            code,
            detail: None,
        })
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
            detail: Some(Detail::Layout(LayoutMismatch {
                param,
                host,
                device,
            })),
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
        detail: Some(Detail::Features(FeatureMismatch {
            names,
            host,
            device,
        })),
    })
}

/// Enters the host ranges of the launch's pointer arguments (a size other
/// than 0) among the live mappings for the launch's duration, or the
/// launch's error if one overlaps a live mapping without lying inside it.
#[cfg(not(feature = "device"))]
fn enter_arguments(
    launch: &Launch,
    kernel: &'static str,
    symbol: &'static str,
    args: &[u64],
    sizes: &[u64],
) -> Result<crate::data::Ranges, LaunchError> {
    // The default device is resolved only when something is mapped.
    let device = if sizes.iter().any(|&bytes| bytes > 0) {
        crate::Device::new(launch.device_number()).number()
    } else {
        launch.device_number()
    };
    let ranges = args
        .iter()
        .zip(sizes)
        .map(|(&address, &bytes)| (address as usize, bytes as usize));
    crate::data::Ranges::enter(device, ranges).map_err(|overlap| LaunchError {
        kernel,
        symbol,
        code: launch_code::OVERLAPPING_RANGE,
        detail: Some(Detail::Overlap(overlap)),
    })
}
