//! The device half of a `#[kernel]` expansion: the entry point turns its
//! launch slots back into the kernel's parameter types with these.

use crate::{DeviceCopy, Out, RawIn, RawInOut, RawOut};

/// # Safety
/// `ptr` points at `len` valid `T`s (any pointer if `len` is 0).
#[inline(always)]
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// # Safety
/// `ptr` points at `len` valid `T`s nothing else uses (any pointer if `len` is 0).
#[inline(always)]
pub unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize) -> &'a mut [T] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts_mut(ptr, len) }
}

/// # Safety
/// As [`slice_mut`]; the elements may be uninitialised (only written).
#[inline(always)]
pub unsafe fn out_slice<'a, T: DeviceCopy>(ptr: *mut T, len: usize) -> Out<'a, [T]> {
    // SAFETY: the caller's contract; Out never reads.
    Out::new(unsafe { slice_mut(ptr, len) })
}

/// The pointer a launch passed for a `T`: a zero-sized `T` maps 0 bytes,
/// and the runtime may pass null for those (a reference must not be).
#[inline(always)]
fn non_null<T>(ptr: *mut T) -> *mut T {
    if size_of::<T>() == 0 {
        core::ptr::NonNull::dangling().as_ptr()
    } else {
        ptr
    }
}

/// # Safety
/// `ptr` points at one `T` nothing else uses (maybe uninitialised; any
/// pointer for a zero-sized `T`).
#[inline(always)]
pub unsafe fn out_one<'a, T: DeviceCopy>(ptr: *mut T) -> Out<'a, T> {
    // SAFETY: the caller's contract; Out never reads.
    Out::new_one(unsafe { &mut *non_null(ptr) })
}

/// # Safety
/// `ptr` points at a valid `T` (any pointer for a zero-sized `T`).
#[inline(always)]
pub unsafe fn reference<'a, T>(ptr: *const T) -> &'a T {
    // SAFETY: the caller's contract; a zero-sized T is read at a dangling,
    // aligned, non-null address, which is valid for it.
    unsafe { &*non_null(ptr.cast_mut()) }
}

/// # Safety
/// `ptr` points at a valid `T` nothing else uses (any pointer for a
/// zero-sized `T`).
#[inline(always)]
pub unsafe fn reference_mut<'a, T>(ptr: *mut T) -> &'a mut T {
    // SAFETY: as in `reference`.
    unsafe { &mut *non_null(ptr) }
}

/// # Safety
/// `ptr` points at a valid `T` (any pointer for a zero-sized `T`).
#[inline(always)]
pub unsafe fn by_value<T: Copy>(ptr: *const T) -> T {
    // SAFETY: as in `reference`.
    unsafe { non_null(ptr.cast_mut()).read() }
}

#[inline(always)]
pub fn raw_in<T: DeviceCopy>(ptr: *const T, len: usize) -> RawIn<T> {
    // SAFETY: a device address from the launch; the kernel states what it does with it.
    unsafe { RawIn::new(ptr, len) }
}

#[inline(always)]
pub fn raw_out<T: DeviceCopy>(ptr: *mut T, len: usize) -> RawOut<T> {
    // SAFETY: as in raw_in.
    unsafe { RawOut::new(ptr, len) }
}

#[inline(always)]
pub fn raw_in_out<T: DeviceCopy>(ptr: *mut T, len: usize) -> RawInOut<T> {
    // SAFETY: as in raw_in.
    unsafe { RawInOut::new(ptr, len) }
}

/// A GPU kernel's first act: this thread's record in the team's shared
/// memory, from the launch grid's hidden slot of dynamic shared bytes.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[inline(always)]
pub fn gpu_enter(dyn_shared_mem: u64) {
    crate::shared::target::enter(dyn_shared_mem as u32);
}
