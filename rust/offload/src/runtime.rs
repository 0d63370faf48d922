//! libomptarget's host API (LLVM 22): the data mappers and the OpenMP
//! device-memory queries. This crate's build script links `libomptarget`
//! and `libomp`; [`init`] starts libomptarget where no image registration
//! has.

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
    pub fn omp_get_default_device() -> c_int;
    pub fn omp_get_num_devices() -> c_int;
    pub fn omp_get_initial_device() -> c_int;
    pub fn omp_get_uid_from_device(device: c_int) -> *const core::ffi::c_char;
    pub fn omp_target_alloc(bytes: usize, device: c_int) -> *mut c_void;
    pub fn omp_target_free(ptr: *mut c_void, device: c_int);
    pub fn omp_target_memcpy(
        dst: *mut c_void,
        src: *const c_void,
        bytes: usize,
        dst_offset: usize,
        src_offset: usize,
        dst_device: c_int,
        src_device: c_int,
    ) -> c_int;
    pub fn omp_target_memset(
        ptr: *mut c_void,
        value: c_int,
        bytes: usize,
        device: c_int,
    ) -> *mut c_void;
    pub fn omp_target_associate_ptr(
        host: *const c_void,
        device_ptr: *const c_void,
        bytes: usize,
        offset: usize,
        device: c_int,
    ) -> c_int;
    pub fn omp_target_disassociate_ptr(host: *const c_void, device: c_int) -> c_int;
    fn __tgt_rtl_init();
    fn __tgt_rtl_deinit();
    fn atexit(function: extern "C" fn()) -> c_int;
}

/// Starts libomptarget (once per process) before the data API's first
/// query. An image's registration (`__tgt_register_lib`, from the launch
/// stubs' constructor) starts it too, but a program that registers no
/// image (it names no kernel crate, so none is linked) would otherwise
/// query a runtime that does not exist yet: `omp_get_num_devices`
/// dereferences libomptarget's null plugin manager. Without an image the
/// runtime has no device (its plugins take devices for images only).
/// libomptarget counts its starts: the matching stop runs at exit, before
/// the registrations' (registered earlier, so run later).
pub fn init() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        // SAFETY: libomptarget's reference-counted start, thread-safe (it
        // takes its own lock), with no other precondition.
        unsafe { __tgt_rtl_init() };
        // SAFETY: `stop` is a plain function that lives as long as the
        // program. If the C library cannot take it, the runtime is only
        // never stopped, as where nothing stops it.
        unsafe { atexit(stop) };
    });
}

/// [`init`]'s matching stop, at exit.
extern "C" fn stop() {
    // SAFETY: matches the one `__tgt_rtl_init` of `init`.
    unsafe { __tgt_rtl_deinit() };
}

/// Host address space reserved without memory behind it (the C library's
/// `mmap`/`munmap`, which `std` links).
pub mod reserve {
    use core::ffi::{c_int, c_long, c_void};

    const PROT_NONE: c_int = 0;
    const MAP_PRIVATE: c_int = 0x02;
    const MAP_ANONYMOUS: c_int = 0x20;
    const MAP_NORESERVE: c_int = 0x4000;
    const MAP_FAILED: *mut c_void = !0usize as *mut c_void;

    unsafe extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            offset: c_long,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> c_int;
    }

    /// `bytes` (> 0) bytes of inaccessible host address space, or null.
    pub fn reserve(bytes: usize) -> *mut c_void {
        // SAFETY: a fresh anonymous mapping chosen by the kernel, touching
        // no existing memory.
        let ptr = unsafe {
            mmap(
                core::ptr::null_mut(),
                bytes,
                PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1,
                0,
            )
        };
        if ptr == MAP_FAILED {
            core::ptr::null_mut()
        } else {
            ptr
        }
    }

    /// Releases what [`reserve`] returned.
    ///
    /// # Safety
    /// `ptr` and `bytes` are one [`reserve`] call's, released once.
    pub unsafe fn release(ptr: *mut c_void, bytes: usize) {
        // SAFETY: the caller's contract; the range holds no Rust data.
        unsafe { munmap(ptr, bytes) };
    }
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
