//! The device half of a `#[kernel]` expansion: the entry point turns its
//! launch slots back into the kernel's parameter types with these.

use core::ptr::NonNull;

use crate::atomic::DeviceAtomic;
use crate::partition::Partition;
use crate::{DeviceCopy, InOut, Out, RawIn, RawInOut, RawOut};

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

/// The launch's pointer to `len` `T`s: any pointer if `len` is 0 or `T`
/// is zero-sized, and the runtime may pass null for those.
#[inline(always)]
fn elements<T>(ptr: *mut T, len: usize) -> NonNull<[T]> {
    let start = match NonNull::new(ptr) {
        Some(start) if len > 0 && size_of::<T>() > 0 => start,
        _ => NonNull::dangling(),
    };
    NonNull::slice_from_raw_parts(start, len)
}

/// # Safety
/// `ptr` points at `len` valid `T`s (any pointer if `len` is 0) for the
/// kernel, which every thread of the launch reaches only through its own
/// view made here (no `&mut` to them is made: the per-thread views keep the
/// threads' accesses apart).
#[inline(always)]
pub unsafe fn in_out_slice<'a, T: DeviceCopy, P: Partition>(
    ptr: *mut T,
    len: usize,
) -> InOut<'a, [T], P> {
    // SAFETY: the caller's contract.
    unsafe { InOut::from_raw(elements(ptr, len)) }
}

/// # Safety
/// As [`in_out_slice`]; the elements may be uninitialised (only written).
#[inline(always)]
pub unsafe fn out_slice<'a, T: DeviceCopy, P: Partition>(
    ptr: *mut T,
    len: usize,
) -> Out<'a, [T], P> {
    // SAFETY: the caller's contract; Out never reads.
    unsafe { Out::from_raw(elements(ptr, len)) }
}

/// # Safety
/// `ptr` points at `len` `A::Value`s (any pointer if `len` is 0), valid for
/// the kernel, which the launch's threads reach only atomically.
#[inline(always)]
pub unsafe fn atomic_slice<'a, A: DeviceAtomic>(ptr: *mut A::Value, len: usize) -> &'a [A] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract; an `A` has the size, alignment and bit
    // patterns of its `Value` (`DeviceAtomic`).
    unsafe { core::slice::from_raw_parts(ptr.cast::<A>(), len) }
}

/// The pointer a launch passed for a `T`: a zero-sized `T` maps 0 bytes,
/// and the runtime may pass null for those (a reference must not be).
#[inline(always)]
fn non_null<T>(ptr: *mut T) -> *mut T {
    if size_of::<T>() == 0 {
        NonNull::dangling().as_ptr()
    } else {
        ptr
    }
}

/// The launch's pointer to one `T` (see [`non_null`]).
#[inline(always)]
fn one<T>(ptr: *mut T) -> NonNull<T> {
    NonNull::new(non_null(ptr)).unwrap_or(NonNull::dangling())
}

/// # Safety
/// `ptr` points at one `T` (maybe uninitialised; any pointer for a
/// zero-sized `T`) that every thread of the launch reaches only through its
/// own view made here.
#[inline(always)]
pub unsafe fn out_one<'a, T: DeviceCopy>(ptr: *mut T) -> Out<'a, T> {
    // SAFETY: the caller's contract; Out never reads.
    unsafe { Out::from_raw(one(ptr)) }
}

/// # Safety
/// `ptr` points at a valid `T` (any pointer for a zero-sized `T`) that
/// every thread of the launch reaches only through its own view made here.
#[inline(always)]
pub unsafe fn in_out_one<'a, T: DeviceCopy>(ptr: *mut T) -> InOut<'a, T> {
    // SAFETY: the caller's contract.
    unsafe { InOut::from_raw(one(ptr)) }
}

/// # Safety
/// `ptr` points at an `A::Value`, valid for the kernel, which the launch's
/// threads reach only atomically.
#[inline(always)]
pub unsafe fn atomic_one<'a, A: DeviceAtomic>(ptr: *mut A::Value) -> &'a A {
    // SAFETY: the caller's contract; an `A` is its `Value`'s memory.
    unsafe { &*non_null(ptr).cast::<A>() }
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
/// `ptr` points at a valid `T` (any pointer for a zero-sized `T`).
#[inline(always)]
pub unsafe fn by_value<T: Copy>(ptr: *const T) -> T {
    // SAFETY: as in `reference`.
    unsafe { non_null(ptr.cast_mut()).read() }
}

// The pointer is not dereferenced here: a Raw* view only carries it, and
// its accessors are `unsafe` with their own contract.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
#[inline(always)]
pub fn raw_in<T: DeviceCopy>(ptr: *const T, len: usize) -> RawIn<T> {
    // SAFETY: a device address from the launch; the kernel states what it does with it.
    unsafe { RawIn::new(ptr, len) }
}

// The pointer is not dereferenced here: a Raw* view only carries it, and
// its accessors are `unsafe` with their own contract.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
#[inline(always)]
pub fn raw_out<T: DeviceCopy>(ptr: *mut T, len: usize) -> RawOut<T> {
    // SAFETY: as in raw_in.
    unsafe { RawOut::new(ptr, len) }
}

// The pointer is not dereferenced here: a Raw* view only carries it, and
// its accessors are `unsafe` with their own contract.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
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
