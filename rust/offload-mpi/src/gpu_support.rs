//! [`GpuSupport`]: whether the MPI library reads and writes device memory
//! itself, and [`ExchangePath`]: the path an [`Exchange`](crate::Exchange)
//! takes.

use core::ffi::{CStr, c_int};

/// What the MPI library reports about device memory, at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuSupport {
    /// `MPIX_Query_cuda_support()` returned non-zero (Open MPI built with
    /// CUDA, running where CUDA is).
    pub cuda: bool,
    /// `MPIX_Query_rocm_support()` returned non-zero (Open MPI 5 built with
    /// ROCm).
    pub rocm: bool,
}

/// Open MPI's queries, `int MPIX_Query_*_support(void)` (its `mpi-ext.h`).
type Query = unsafe extern "C" fn() -> c_int;

impl GpuSupport {
    /// Asks the MPI library the program runs with. The queries are looked
    /// up by name at run time (`dlsym`), not linked: an MPI library without
    /// them (MPICH, an Open MPI without the extension) reports no support,
    /// and the same binary finds them in a cluster's GPU-aware Open MPI.
    /// Before MPI is initialised or after it is finalised: no support.
    pub fn query() -> Self {
        if !mpi::environment::is_initialized() || mpi::environment::is_finalized() {
            return GpuSupport::default();
        }
        GpuSupport {
            cuda: ask(c"MPIX_Query_cuda_support"),
            rocm: ask(c"MPIX_Query_rocm_support"),
        }
    }
}

/// Calls the query `name` where the process has it; false where not.
fn ask(name: &CStr) -> bool {
    // SAFETY: a lookup of a NUL-terminated name among the symbols the
    // process has loaded; no library is opened.
    let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if symbol.is_null() {
        return false;
    }
    // SAFETY: Open MPI declares both queries `int f(void)` in mpi-ext.h.
    let query = unsafe { core::mem::transmute::<*mut libc::c_void, Query>(symbol) };
    // SAFETY: a query without arguments, called after MPI_Init as the
    // Open MPI documentation asks.
    unsafe { query() != 0 }
}

/// How an [`Exchange`](crate::Exchange) moves a range of a device buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangePath {
    /// Copied between the device and a host buffer of exactly the range;
    /// MPI sends and receives the host buffer.
    Staged,
    /// MPI gets the device address of the range (CUDA- or ROCm-aware MPI).
    DeviceAddress,
}

impl ExchangePath {
    /// The device address where the MPI library reports CUDA or ROCm
    /// support, else staged.
    pub fn select(support: GpuSupport) -> Self {
        if support.cuda || support.rocm {
            ExchangePath::DeviceAddress
        } else {
            ExchangePath::Staged
        }
    }
}

impl core::fmt::Display for ExchangePath {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ExchangePath::Staged => "staged through host memory",
            ExchangePath::DeviceAddress => "device addresses (GPU-aware MPI)",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_addresses_only_where_mpi_reports_gpu_support() {
        let none = GpuSupport::default();
        assert_eq!(ExchangePath::select(none), ExchangePath::Staged);
        for support in [
            GpuSupport {
                cuda: true,
                rocm: false,
            },
            GpuSupport {
                cuda: false,
                rocm: true,
            },
        ] {
            assert_eq!(ExchangePath::select(support), ExchangePath::DeviceAddress);
        }
    }

    #[test]
    fn a_missing_query_reports_no_support() {
        assert!(!ask(c"MPIX_Query_no_such_support"));
    }

    #[test]
    fn no_support_before_mpi_is_initialised() {
        assert_eq!(GpuSupport::query(), GpuSupport::default());
    }
}
