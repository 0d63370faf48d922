//! The host half of a `#[kernel]` expansion: the launcher packs its
//! arguments into launch slots and sizes and calls the kernel's launch stub.

use super::abi::{Scalar, Stub};
use crate::launch::{Launch, LaunchError};
use crate::{HostIn, HostMut};
use offload_contract::launch_code;

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
        })
    }
}
