//! The kernel table: every kernel of a device image exports a
//! [`KernelRecord`] as `__offload_rs_record_<symbol>` ([`SYMBOL_PREFIX`]), a
//! fixed 1064-byte little-endian record `#[kernel]` writes and
//! `offload-build` reads back to generate the host's launch stubs: the
//! symbol, a hash of the defining crate's name and version and of the
//! signature (the stub's name carries it, so a host compiled from other
//! sources than the image fails to link instead of launching with the wrong
//! arguments, and two kernel crates' kernels of one symbol and signature
//! have stubs of their own), and per launch argument its kind,
//! map type, element size and layout word ([`crate::layout`]: the host's
//! launcher checks its own against it, as the hash covers only the types'
//! names), and the kernel crate's [feature word](crate::features) in the
//! device build (which the launcher also compares: features that change
//! what a kernel does without changing a type), and the name of the crate
//! that defines the kernel (from `module_path!()`: offload-build tells a
//! kernel library's kernels by it).
//!
//! ```text
//! KernelRecord  0 [u8; 8] MAGIC     8 u64 hash   16 u32 name length   20 u32 argument count
//!              24 [u8; 128] name  152 [ArgRecord; 32]  920 u64 feature word
//!             928 u64 crate name length  936 [u8; 128] crate name  1064 bytes in all
//! ArgRecord     0 u16 kind   2 u16 length argument (NO_LEN: none)   4 u32 map type   8 u64 size
//!              16 u64 layout word of the scalar or the element
//! ```

use core::mem::offset_of;

/// Name prefix of the record symbols: `__offload_rs_record_<symbol>`. No
/// `.`: PTX identifiers have none, and LLVM's NVPTX backend renames only
/// local symbols, so ptxas would refuse an exported `a.b` record.
pub const SYMBOL_PREFIX: &str = "__offload_rs_record_";
/// Name prefix of the layout words of a kernel's launch arguments, which
/// the stub module exports for the host's launcher:
/// `__offload_rs_layouts.<symbol>.<hash as 16 hex digits>`.
pub const LAYOUTS_PREFIX: &str = "__offload_rs_layouts.";
/// Name prefix of the feature word of a kernel's crate in the device build,
/// which the stub module exports for the host's launcher:
/// `__offload_rs_features.<symbol>.<hash as 16 hex digits>`.
pub const FEATURES_PREFIX: &str = "__offload_rs_features.";
/// Name prefix of the function of a kernel's stub module that returns the
/// targets of the images it registers (`unsafe extern "C" fn(len: *mut
/// usize) -> *const u8`: UTF-8 text, its length written through `len`),
/// which the host's launcher names when no device takes any of them:
/// `__offload_rs_images.<symbol>.<hash as 16 hex digits>`.
pub const IMAGES_PREFIX: &str = "__offload_rs_images.";
/// Name prefix of a host launch stub:
/// `__offload_rs_launch.<symbol>.<hash as 16 hex digits>`.
pub const STUB_PREFIX: &str = "__offload_rs_launch.";
/// The start of the symbol a host launcher references and the stub module
/// of the image holding its kernel defines:
/// ``offload: no image in this program holds kernel `<symbol>` (<hash as
/// 16 hex digits>)`` and [`NO_IMAGE_RULE`]. A program linked without that
/// image (a kernel library's own tests; a test that never names the kernel
/// crate) fails to link, and the linker's "undefined symbol" line then says
/// the rule and the fix.
pub const NO_IMAGE_PREFIX: &str = "offload: no image in this program holds kernel ";
/// The end of the symbol of [`NO_IMAGE_PREFIX`].
pub const NO_IMAGE_RULE: &str = ": a kernel's launch stub comes with the image of the kernel crate whose build.rs builds it (`offload_build::DeviceCrate::new(\".\")`), so link that crate: name it in this program (`use <kernel crate> as _;`); a kernel library's kernels are in the image of a kernel crate that names the library, and its own tests have no image";
/// Name prefix of a host launch stub that passes every pointer slot as it
/// is (LITERAL: a device address the host found in a region or device
/// buffer), mapping nothing: `__offload_rs_direct.<symbol>.<hash as 16 hex
/// digits>`.
pub const DIRECT_STUB_PREFIX: &str = "__offload_rs_direct.";
/// The string a `#[kernel]` expansion carries for each kernel (of a generic
/// one: each instance), `"__offload_rs_kernel:<symbol> <item path>"`, the
/// path from `module_path!()`: where a device build fails on a symbol two
/// items export, `offload-build` finds them in the `-Zunpretty=expanded`
/// output of the crates involved and names both.
pub const KERNEL_MARKER: &str = "__offload_rs_kernel:";

/// The first 8 bytes of a record of this layout.
pub const MAGIC: [u8; 8] = *b"OFFRSK04";
/// The longest kernel symbol, and the longest crate name, in bytes.
pub const MAX_NAME: usize = 128;
/// The most launch slots of one kernel's record: the launch grid's
/// ([`crate::grid::SLOTS`]) and its parameters' (a slice counts twice), so
/// a kernel's parameters take at most 28.
pub const MAX_ARGS: usize = 32;

pub use crate::kind::{KIND_BOOL, KIND_FLOAT, KIND_INT, KIND_PTR, ScalarArg};

/// [`ArgRecord::len_arg`] of an argument without a length argument.
pub const NO_LEN: u16 = u16::MAX;

/// One launch argument of a kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgRecord {
    /// [`KIND_PTR`], [`KIND_INT`], [`KIND_FLOAT`] or [`KIND_BOOL`].
    pub kind: u16,
    /// For a pointer to elements: the index of the argument holding their
    /// count ([`NO_LEN`]: one element).
    pub len_arg: u16,
    /// The map type ([`crate::map_type`]) in 32 bits.
    pub map: u32,
    /// Scalars: their width in bytes; pointers: the element's size.
    pub size: u64,
    /// The [layout word](crate::layout) of the scalar or the element.
    pub layout: u64,
}

/// A map type's bits in the record's 32-bit field (the bits libomptarget
/// defines all fit).
const fn map_bits(map: u64) -> u32 {
    assert!(map >> 32 == 0, "offload: a map type wider than 32 bits");
    let bytes = map.to_le_bytes();
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

impl ArgRecord {
    /// An unused slot of [`KernelRecord::args`].
    pub const EMPTY: ArgRecord = ArgRecord {
        kind: 0,
        len_arg: NO_LEN,
        map: 0,
        size: 0,
        layout: 0,
    };

    /// A `T` passed by value (LITERAL | IMPLICIT).
    pub const fn scalar<T: ScalarArg>() -> Self {
        ArgRecord {
            kind: T::KIND,
            len_arg: NO_LEN,
            map: map_bits(crate::map_type::LITERAL | crate::map_type::IMPLICIT),
            size: size_of::<T>() as u64,
            layout: crate::layout::scalar::<T>(),
        }
    }

    /// A pointer to one `T` of layout word `layout`, mapped by `map`.
    pub const fn pointer<T>(map: u64, layout: u64) -> Self {
        Self::elements::<T>(map, NO_LEN, layout)
    }

    /// A pointer to as many `T`s (of layout word `layout`) as argument
    /// `len_arg` says, mapped by `map`.
    pub const fn elements<T>(map: u64, len_arg: u16, layout: u64) -> Self {
        ArgRecord {
            kind: KIND_PTR,
            len_arg,
            map: map_bits(map),
            size: size_of::<T>() as u64,
            layout,
        }
    }
}

/// A kernel of the image (exported as `__offload_rs_record.<symbol>`).
#[repr(C)]
pub struct KernelRecord {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// The signature hash the host's launcher carries.
    pub hash: u64,
    /// The bytes of [`name`](Self::name) in use.
    pub name_len: u32,
    /// The entries of [`args`](Self::args) in use.
    pub arg_count: u32,
    /// The kernel's symbol, NUL-padded.
    pub name: [u8; MAX_NAME],
    /// The launch arguments, then [`ArgRecord::EMPTY`]s.
    pub args: [ArgRecord; MAX_ARGS],
    /// The kernel crate's [feature word](crate::features) in this build.
    pub features: u64,
    /// The bytes of [`crate_name`](Self::crate_name) in use.
    pub crate_len: u64,
    /// The name of the crate that defines the kernel (the first segment of
    /// its `module_path!()`), NUL-padded.
    pub crate_name: [u8; MAX_NAME],
}

/// Byte offset of [`KernelRecord::hash`].
pub const HASH_OFFSET: usize = offset_of!(KernelRecord, hash);
/// Byte offset of [`KernelRecord::name_len`].
pub const NAME_LEN_OFFSET: usize = offset_of!(KernelRecord, name_len);
/// Byte offset of [`KernelRecord::arg_count`].
pub const ARG_COUNT_OFFSET: usize = offset_of!(KernelRecord, arg_count);
/// Byte offset of [`KernelRecord::name`].
pub const NAME_OFFSET: usize = offset_of!(KernelRecord, name);
/// Byte offset of [`KernelRecord::args`].
pub const ARGS_OFFSET: usize = offset_of!(KernelRecord, args);
/// Byte offset of [`KernelRecord::features`].
pub const FEATURES_OFFSET: usize = offset_of!(KernelRecord, features);
/// Byte offset of [`KernelRecord::crate_len`].
pub const CRATE_LEN_OFFSET: usize = offset_of!(KernelRecord, crate_len);
/// Byte offset of [`KernelRecord::crate_name`].
pub const CRATE_NAME_OFFSET: usize = offset_of!(KernelRecord, crate_name);
/// The size of a [`KernelRecord`] in bytes.
pub const RECORD_BYTES: usize = size_of::<KernelRecord>();
/// The size of an [`ArgRecord`] in bytes.
pub const ARG_BYTES: usize = size_of::<ArgRecord>();
/// Byte offset of [`ArgRecord::len_arg`] in its record.
pub const ARG_LEN_OFFSET: usize = offset_of!(ArgRecord, len_arg);
/// Byte offset of [`ArgRecord::map`] in its record.
pub const ARG_MAP_OFFSET: usize = offset_of!(ArgRecord, map);
/// Byte offset of [`ArgRecord::size`] in its record.
pub const ARG_SIZE_OFFSET: usize = offset_of!(ArgRecord, size);
/// Byte offset of [`ArgRecord::layout`] in its record.
pub const ARG_LAYOUT_OFFSET: usize = offset_of!(ArgRecord, layout);

// The layout in the module docs, on every target: a record written by a
// device build is read by a host build.
const _: () = {
    assert!(offset_of!(KernelRecord, magic) == 0);
    assert!(HASH_OFFSET == 8);
    assert!(NAME_LEN_OFFSET == 16);
    assert!(ARG_COUNT_OFFSET == 20);
    assert!(NAME_OFFSET == 24);
    assert!(ARGS_OFFSET == 152);
    assert!(FEATURES_OFFSET == 920);
    assert!(CRATE_LEN_OFFSET == 928);
    assert!(CRATE_NAME_OFFSET == 936);
    assert!(RECORD_BYTES == 1064);
    assert!(offset_of!(ArgRecord, kind) == 0);
    assert!(ARG_LEN_OFFSET == 2);
    assert!(ARG_MAP_OFFSET == 4);
    assert!(ARG_SIZE_OFFSET == 8);
    assert!(ARG_LAYOUT_OFFSET == 16);
    assert!(ARG_BYTES == 24);
};

impl KernelRecord {
    /// The record of kernel `symbol`: its signature `hash` and launch `args`.
    pub const fn new(symbol: &str, hash: u64, args: &[ArgRecord]) -> Self {
        let bytes = symbol.as_bytes();
        assert!(
            bytes.len() <= MAX_NAME,
            "offload: kernel symbol longer than 128 bytes"
        );
        assert!(
            args.len() <= MAX_ARGS,
            "offload: a kernel record holds at most 32 launch slots: the launch grid's 4 and 28 of the kernel's parameters (a slice counts twice)"
        );
        let mut name = [0u8; MAX_NAME];
        let mut i = 0;
        while i < bytes.len() {
            name[i] = bytes[i];
            i += 1;
        }
        let mut all = [ArgRecord::EMPTY; MAX_ARGS];
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
            features: 0,
            crate_len: 0,
            crate_name: [0; MAX_NAME],
        }
    }

    /// This record with the kernel crate's feature word `features`.
    pub const fn with_features(mut self, features: u64) -> Self {
        self.features = features;
        self
    }

    /// This record with the defining crate's name: the first segment of
    /// `module_path`, the `module_path!()` of the kernel's item.
    pub const fn with_crate(mut self, module_path: &str) -> Self {
        let bytes = module_path.as_bytes();
        let mut len = 0;
        while len < bytes.len() && bytes[len] != b':' {
            len += 1;
        }
        assert!(len <= MAX_NAME, "offload: crate name longer than 128 bytes");
        let mut i = 0;
        while i < len {
            self.crate_name[i] = bytes[i];
            i += 1;
        }
        self.crate_len = len as u64;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map_type::{FROM, TO};

    #[test]
    fn argument_records() {
        assert_eq!(
            ArgRecord::scalar::<f32>(),
            ArgRecord {
                kind: KIND_FLOAT,
                len_arg: NO_LEN,
                map: 0x300,
                size: 4,
                layout: crate::layout::scalar::<f32>(),
            }
        );
        assert_eq!(ArgRecord::scalar::<bool>().kind, KIND_BOOL);
        assert_eq!(
            ArgRecord::scalar::<i16>(),
            ArgRecord {
                kind: KIND_INT,
                len_arg: NO_LEN,
                map: 0x300,
                size: 2,
                layout: crate::layout::scalar::<i16>(),
            }
        );
        assert_eq!(
            ArgRecord::pointer::<[u8; 24]>(FROM, 7),
            ArgRecord {
                kind: KIND_PTR,
                len_arg: NO_LEN,
                map: 2,
                size: 24,
                layout: 7,
            }
        );
        assert_eq!(
            ArgRecord::elements::<f64>(TO | FROM, 3, 9),
            ArgRecord {
                kind: KIND_PTR,
                len_arg: 3,
                map: 3,
                size: 8,
                layout: 9,
            }
        );
    }

    #[test]
    fn a_record_holds_its_symbol_and_arguments() {
        let args = [
            ArgRecord::elements::<u32>(TO, 1, 5),
            ArgRecord::scalar::<usize>(),
        ];
        let record = KernelRecord::new("sum", 7, &args);
        assert_eq!((record.magic, record.hash), (MAGIC, 7));
        assert_eq!((record.name_len, record.arg_count), (3, 2));
        assert_eq!(&record.name[..4], b"sum\0");
        assert_eq!(record.args[..2], args);
        assert_eq!(record.args[2], ArgRecord::EMPTY);
        assert_eq!(record.features, 0);
        assert_eq!(record.with_features(5).features, 5);
    }

    #[test]
    fn the_crate_is_the_module_paths_first_segment() {
        let record = KernelRecord::new("k", 1, &[]).with_crate("mathlib::trig::inner");
        assert_eq!(record.crate_len, 7);
        assert_eq!(&record.crate_name[..8], b"mathlib\0");
        let top = KernelRecord::new("k", 1, &[]).with_crate("kernels");
        assert_eq!(&top.crate_name[..top.crate_len as usize], b"kernels");
    }
}
