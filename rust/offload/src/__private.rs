//! What `#[kernel]`'s expansion uses; not a public API.
//!
//! The kernel table: every kernel of a device image exports a
//! [`KernelRecord`] as `__offload_rs_record.<symbol>` (a fixed 664-byte
//! little-endian record), which `offload-build` reads from the image to
//! generate the host's launch stubs: the symbol, a hash of the signature
//! (the stub's name carries it, so a host compiled from other sources than
//! the image fails to link instead of launching with the wrong arguments),
//! and per launch argument its kind, map type and element size.

pub use crate::launch::LaunchConfig;
use crate::launch::{Launch, LaunchError};
#[cfg(feature = "device")]
use crate::{DeviceCopy, Out, RawIn, RawInOut, RawOut};
use crate::{HostIn, HostMut};

/// libomptarget map-type bits.
pub const TO: u32 = 0x1;
pub const FROM: u32 = 0x2;
pub const LITERAL_IMPLICIT: u32 = 0x300;

pub const KIND_PTR: u16 = 1;
pub const KIND_INT: u16 = 2;
pub const KIND_FLOAT: u16 = 3;
pub const KIND_BOOL: u16 = 4;
pub const NO_LEN: u16 = u16::MAX;
pub const MAX_NAME: usize = 128;
pub const MAX_ARGS: usize = 32;
pub const MAGIC: [u8; 8] = *b"OFFRSK01";

/// One launch argument of a kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ArgRecord {
    pub kind: u16,
    /// For a pointer to elements: the index of the argument holding their count.
    pub len_arg: u16,
    pub map: u32,
    /// Scalars: their width in bytes; pointers: the element's size.
    pub size: u64,
}

const EMPTY_ARG: ArgRecord = ArgRecord {
    kind: 0,
    len_arg: NO_LEN,
    map: 0,
    size: 0,
};

impl ArgRecord {
    pub const fn scalar<T: Scalar>() -> Self {
        ArgRecord {
            kind: T::KIND,
            len_arg: NO_LEN,
            map: LITERAL_IMPLICIT,
            size: size_of::<T>() as u64,
        }
    }

    /// A pointer to one `T`.
    pub const fn pointer<T>(map: u32) -> Self {
        ArgRecord {
            kind: KIND_PTR,
            len_arg: NO_LEN,
            map,
            size: size_of::<T>() as u64,
        }
    }

    /// A pointer to as many `T`s as argument `len_arg` says.
    pub const fn elements<T>(map: u32, len_arg: u16) -> Self {
        ArgRecord {
            kind: KIND_PTR,
            len_arg,
            map,
            size: size_of::<T>() as u64,
        }
    }
}

/// A kernel of the image (exported as `__offload_rs_record.<symbol>`).
#[repr(C)]
pub struct KernelRecord {
    pub magic: [u8; 8],
    pub hash: u64,
    pub name_len: u32,
    pub arg_count: u32,
    pub name: [u8; MAX_NAME],
    pub args: [ArgRecord; MAX_ARGS],
}

// offload-build reads records back by these offsets (`image.rs`: name at 24,
// args at 152, 664 bytes in all) and its generated stubs read the launch's
// device at offset 40 of `LaunchConfig`: a layout change must change both.
const _: () = {
    assert!(size_of::<ArgRecord>() == 16);
    assert!(core::mem::offset_of!(KernelRecord, name) == 24);
    assert!(core::mem::offset_of!(KernelRecord, args) == 152);
    assert!(size_of::<KernelRecord>() == 664);
    assert!(core::mem::offset_of!(LaunchConfig, device) == 40);
};

impl KernelRecord {
    pub const fn new(symbol: &str, hash: u64, args: &[ArgRecord]) -> Self {
        let bytes = symbol.as_bytes();
        assert!(
            bytes.len() <= MAX_NAME,
            "offload: kernel symbol longer than 128 bytes"
        );
        assert!(
            args.len() <= MAX_ARGS,
            "offload: a kernel takes at most 32 launch arguments (a slice counts twice)"
        );
        let mut name = [0u8; MAX_NAME];
        let mut i = 0;
        while i < bytes.len() {
            name[i] = bytes[i];
            i += 1;
        }
        let mut all = [EMPTY_ARG; MAX_ARGS];
        let mut a = 0;
        while a < args.len() {
            all[a] = args[a];
            a += 1;
        }
        KernelRecord {
            magic: MAGIC,
            hash,
            name_len: bytes.len() as u32,
            arg_count: args.len() as u32,
            name,
            args: all,
        }
    }
}

/// Types passed by value in one 8-byte launch slot.
pub trait Scalar: Copy {
    const KIND: u16;
    fn to_slot(self) -> u64;
}

macro_rules! scalar {
    ($kind:ident: $($t:ty => |$v:ident| $e:expr),* $(,)?) => { $(
        impl Scalar for $t {
            const KIND: u16 = $kind;
            #[inline]
            fn to_slot(self) -> u64 {
                let $v = self;
                $e
            }
        }
    )* };
}
scalar!(KIND_INT: u8 => |v| v.into(), u16 => |v| v.into(), u32 => |v| v.into(), u64 => |v| v,
    usize => |v| v as u64, i8 => |v| v as u8 as u64, i16 => |v| v as u16 as u64,
    i32 => |v| v as u32 as u64, i64 => |v| v as u64, isize => |v| v as u64);
scalar!(KIND_FLOAT: f32 => |v| v.to_bits().into(), f64 => |v| v.to_bits());
scalar!(KIND_BOOL: bool => |v| v.into());

/// Compile-time check that a parameter's type may cross to the device.
pub const fn assert_device_copy<T: crate::DeviceCopy>() {}

/// Compile-time check that a by-value parameter is a [`Scalar`].
pub const fn assert_scalar<T: Scalar>() {}

// ---- device entry helpers -------------------------------------------------

/// # Safety
/// `ptr` points at `len` valid `T`s (any pointer if `len` is 0).
#[cfg(feature = "device")]
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
#[cfg(feature = "device")]
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
#[cfg(feature = "device")]
#[inline(always)]
pub unsafe fn out_slice<'a, T: DeviceCopy>(ptr: *mut T, len: usize) -> Out<'a, [T]> {
    // SAFETY: the caller's contract; Out never reads.
    Out::new(unsafe { slice_mut(ptr, len) })
}

/// # Safety
/// `ptr` points at one `T` nothing else uses (maybe uninitialised).
#[cfg(feature = "device")]
#[inline(always)]
pub unsafe fn out_one<'a, T: DeviceCopy>(ptr: *mut T) -> Out<'a, T> {
    // SAFETY: the caller's contract; Out never reads.
    Out::new_one(unsafe { &mut *ptr })
}

/// # Safety
/// `ptr` points at a valid `T`.
#[cfg(feature = "device")]
#[inline(always)]
pub unsafe fn reference<'a, T>(ptr: *const T) -> &'a T {
    // SAFETY: the caller's contract.
    unsafe { &*ptr }
}

/// # Safety
/// `ptr` points at a valid `T` nothing else uses.
#[cfg(feature = "device")]
#[inline(always)]
pub unsafe fn reference_mut<'a, T>(ptr: *mut T) -> &'a mut T {
    // SAFETY: the caller's contract.
    unsafe { &mut *ptr }
}

/// # Safety
/// `ptr` points at a valid `T`.
#[cfg(feature = "device")]
#[inline(always)]
pub unsafe fn by_value<T: Copy>(ptr: *const T) -> T {
    // SAFETY: the caller's contract.
    unsafe { ptr.read() }
}

#[cfg(feature = "device")]
#[inline(always)]
pub fn raw_in<T: DeviceCopy>(ptr: *const T, len: usize) -> RawIn<T> {
    // SAFETY: a device address from the launch; the kernel states what it does with it.
    unsafe { RawIn::new(ptr, len) }
}

#[cfg(feature = "device")]
#[inline(always)]
pub fn raw_out<T: DeviceCopy>(ptr: *mut T, len: usize) -> RawOut<T> {
    // SAFETY: as in raw_in.
    unsafe { RawOut::new(ptr, len) }
}

#[cfg(feature = "device")]
#[inline(always)]
pub fn raw_in_out<T: DeviceCopy>(ptr: *mut T, len: usize) -> RawInOut<T> {
    // SAFETY: as in raw_in.
    unsafe { RawInOut::new(ptr, len) }
}

// ---- host launcher helpers ------------------------------------------------

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

/// A launch stub `offload-build` generates: `(config, argument slots) -> code`.
pub type Stub = unsafe extern "C" fn(*const LaunchConfig, *const u64) -> i32;

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
    let config = LaunchConfig::new(launch, sizes);
    // SAFETY: the caller's contract; the stub reads `config` and `args` only
    // during the call.
    let code = unsafe { stub(&config, args.as_ptr()) };
    if code == 0 {
        Ok(())
    } else {
        Err(LaunchError {
            kernel,
            symbol,
            code,
        })
    }
}

/// Picks the device or the host half of a `#[kernel]` expansion, by this
/// crate's `device` feature.
#[cfg(feature = "device")]
#[macro_export]
#[doc(hidden)]
macro_rules! __kernel_item {
    (device { $($device:tt)* } host { $($host:tt)* }) => { $($device)* };
}

/// Picks the device or the host half of a `#[kernel]` expansion, by this
/// crate's `device` feature.
#[cfg(not(feature = "device"))]
#[macro_export]
#[doc(hidden)]
macro_rules! __kernel_item {
    (device { $($device:tt)* } host { $($host:tt)* }) => { $($host)* };
}
