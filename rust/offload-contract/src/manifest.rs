//! The kernel manifest: one ELF note per kernel that `offload-wrap-kernels`
//! writes into the device image and `offload-host` reads back (format in
//! `docs/kernel-manifest.md`).
//!
//! ```text
//! note header   u32 namesz, u32 descsz, u32 type NOTE_TYPE, NOTE_OWNER + padding to 4
//! desc  0  u32  VERSION      4  u32  P parameters    8  u32  N name bytes
//!      12  u8   SLOT_BYTES  13  u8   LEADING_SLOTS  14  u16  flags (0)
//!      16  P x PARAM_BYTES-byte parameter records, then N bytes of name
//! parameter  0 u8 param_kind   1 u8 slot_kind   2 u16 detail   4 u32 align   8 u64 size
//! ```

/// The note's owner name (the note's namesz counts its NUL).
pub const NOTE_OWNER: &[u8] = b"offload-passes\0";
/// The note type of a kernel manifest.
pub const NOTE_TYPE: u32 = 0x4d4b;
/// The layout version.
pub const VERSION: u32 = 1;
/// Name prefix of the manifest globals and symbols: `__offload_manifest_<kernel>`.
pub const SYMBOL_PREFIX: &str = "__offload_manifest_";
/// The section of the manifest notes (ELF targets other than NVPTX).
pub const SECTION: &str = ".note.offload_passes.manifest";
/// The size of each slot of the wrapped kernel's signature.
pub const SLOT_BYTES: u8 = 8;
/// Slots before the parameters' (the dyn pointer).
pub const LEADING_SLOTS: u8 = 1;
/// Bytes of the description before the parameter records.
pub const HEADER_BYTES: usize = 16;
/// Bytes of one parameter record.
pub const PARAM_BYTES: usize = 16;

/// What a parameter was before wrapping (byte 0 of its record).
pub mod param_kind {
    /// A pointer (detail: its address space).
    pub const POINTER: u8 = 1;
    /// An integer (detail: its width in bits).
    pub const INTEGER: u8 = 2;
    /// A float (detail: a [`float_kind`](super::float_kind)).
    pub const FLOAT: u8 = 3;
    /// A first-class struct, array or vector by value.
    pub const AGGREGATE: u8 = 4;
    /// A pointer with `byval(T)`: a C struct by value.
    pub const BYVAL: u8 = 5;
}

/// How the wrapped kernel receives a parameter in its slot (byte 1).
pub mod slot_kind {
    /// The pointer itself (a translated device pointer).
    pub const POINTER: u8 = 1;
    /// The value's bits, zero-extended to 64.
    pub const VALUE: u8 = 2;
    /// A pointer to the host's TO-mapped copy.
    pub const COPY_POINTER: u8 = 3;
}

/// A float parameter's format (the detail of a [`param_kind::FLOAT`]).
pub mod float_kind {
    /// IEEE half.
    pub const HALF: u16 = 1;
    /// bfloat16.
    pub const BFLOAT: u16 = 2;
    /// IEEE single.
    pub const FLOAT: u16 = 3;
    /// IEEE double.
    pub const DOUBLE: u16 = 4;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_is_nul_terminated_and_slots_fit_a_u64() {
        assert_eq!(NOTE_OWNER.len(), 15);
        assert_eq!(NOTE_OWNER.last(), Some(&0));
        assert_eq!(usize::from(SLOT_BYTES), size_of::<u64>());
        assert!(SECTION.starts_with(".note"));
    }
}
