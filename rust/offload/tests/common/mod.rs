//! What the host-side test binaries share: stand-ins for the runtime calls
//! a launch and a region make (these tests link no libomptarget), and a
//! launch stub that refuses.

// Each test binary uses its part of these.
#![allow(dead_code)]

/// libomp's query, which a launch with pointer arguments makes to resolve
/// the default device (programs link libomp through offload-build).
#[unsafe(no_mangle)]
extern "C" fn omp_get_default_device() -> i32 {
    0
}

/// A launch stub the runtime refuses with code 42.
pub unsafe extern "C" fn refusing_stub(
    _: *const offload::__private::LaunchConfig,
    _: *const u64,
) -> i32 {
    42
}

/// Stand-ins for libomptarget's mapping calls (this test links no
/// runtime): four devices, mappings that copy nothing, and each host
/// address "mapped" at itself plus `DEVICE_OFFSET`.
pub mod runtime {
    use core::ffi::c_void;
    use std::sync::atomic::{AtomicU64, Ordering};

    pub const DEVICE_OFFSET: u64 = 0x10_0000;

    #[unsafe(no_mangle)]
    extern "C" fn omp_get_num_devices() -> i32 {
        4
    }

    /// How often the data API started the runtime (once per process).
    pub static STARTS: AtomicU64 = AtomicU64::new(0);

    /// libomptarget's start, which the data API makes before its first
    /// query.
    #[unsafe(no_mangle)]
    extern "C" fn __tgt_rtl_init() {
        STARTS.fetch_add(1, Ordering::SeqCst);
    }

    /// libomptarget's matching stop, at exit.
    #[unsafe(no_mangle)]
    extern "C" fn __tgt_rtl_deinit() {}

    /// A region's trial allocation (64 MiB or more; none here).
    #[unsafe(no_mangle)]
    extern "C" fn omp_target_alloc(_bytes: usize, _device: i32) -> *mut c_void {
        core::ptr::null_mut()
    }

    #[unsafe(no_mangle)]
    extern "C" fn omp_target_free(_ptr: *mut c_void, _device: i32) {}

    /// A host address the stand-in runtime holds nothing for (and cannot
    /// allocate: `omp_target_alloc` always fails here).
    pub static ABSENT: AtomicU64 = AtomicU64::new(0);

    #[unsafe(no_mangle)]
    extern "C" fn omp_get_mapped_ptr(ptr: *const c_void, _device: i32) -> *mut c_void {
        if ptr as u64 == ABSENT.load(Ordering::SeqCst) {
            return core::ptr::null_mut();
        }
        (ptr as u64 + DEVICE_OFFSET) as *mut c_void
    }

    macro_rules! mapper {
        ($($name:ident),*) => { $(
            #[unsafe(no_mangle)]
            extern "C" fn $name(
                _: *mut c_void,
                _: i64,
                _: i32,
                _: *mut *mut c_void,
                _: *mut *mut c_void,
                _: *mut i64,
                _: *mut i64,
                _: *mut *mut c_void,
                _: *mut *mut c_void,
            ) {
            }
        )* };
    }
    mapper!(
        __tgt_target_data_begin_mapper,
        __tgt_target_data_update_mapper,
        __tgt_target_data_end_mapper
    );
}
