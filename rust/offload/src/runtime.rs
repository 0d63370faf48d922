//! libomptarget's host API (LLVM 22): the data mappers and the OpenMP
//! device-memory queries. `offload-build` links `libomptarget` and `libomp`.

use core::ffi::{c_int, c_void};

use offload_contract::map_type;

/// `__tgt_target_data_{begin,update,end}_mapper`'s parameters.
pub type Mapper = unsafe extern "C" fn(
    loc: *mut c_void,
    device: i64,
    count: i32,
    bases: *mut *mut c_void,
    ptrs: *mut *mut c_void,
    sizes: *mut i64,
    types: *mut i64,
    names: *mut *mut c_void,
    mappers: *mut *mut c_void,
);

/// libomptarget's TO map type, as the mappers take it.
pub const TO: i64 = map_type::to_int64_t(map_type::TO);
/// libomptarget's FROM map type, as the mappers take it.
pub const FROM: i64 = map_type::to_int64_t(map_type::FROM);

unsafe extern "C" {
    pub fn __tgt_target_data_begin_mapper(
        loc: *mut c_void,
        device: i64,
        count: i32,
        bases: *mut *mut c_void,
        ptrs: *mut *mut c_void,
        sizes: *mut i64,
        types: *mut i64,
        names: *mut *mut c_void,
        mappers: *mut *mut c_void,
    );
    pub fn __tgt_target_data_update_mapper(
        loc: *mut c_void,
        device: i64,
        count: i32,
        bases: *mut *mut c_void,
        ptrs: *mut *mut c_void,
        sizes: *mut i64,
        types: *mut i64,
        names: *mut *mut c_void,
        mappers: *mut *mut c_void,
    );
    pub fn __tgt_target_data_end_mapper(
        loc: *mut c_void,
        device: i64,
        count: i32,
        bases: *mut *mut c_void,
        ptrs: *mut *mut c_void,
        sizes: *mut i64,
        types: *mut i64,
        names: *mut *mut c_void,
        mappers: *mut *mut c_void,
    );
    pub fn omp_get_mapped_ptr(ptr: *const c_void, device: c_int) -> *mut c_void;
    pub fn omp_target_is_present(ptr: *const c_void, device: c_int) -> c_int;
    pub fn omp_get_default_device() -> c_int;
    pub fn omp_get_num_devices() -> c_int;
}

/// Runs one data mapper on one host range.
///
/// # Safety
/// `ptr` must point at `bytes` valid bytes, writable when `map` has FROM.
pub unsafe fn map_one(mapper: Mapper, device: i64, ptr: *const u8, bytes: usize, map: i64) {
    let mut base = ptr.cast_mut().cast::<c_void>();
    let mut begin = base;
    let mut size = bytes as i64;
    let mut map = map;
    // SAFETY: one-element arrays on this stack frame; the caller vouches for
    // the host range.
    unsafe {
        mapper(
            core::ptr::null_mut(),
            device,
            1,
            &mut base,
            &mut begin,
            &mut size,
            &mut map,
            core::ptr::null_mut(),
            core::ptr::null_mut(),
        )
    }
}
