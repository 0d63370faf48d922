#![forbid(unsafe_code)]
//! The kernel manifest: what `offload-wrap-kernels` records in the device
//! module for each kernel it wraps, and `offload-host` reads back from the
//! linked image. The byte format is stable (documented in
//! `docs/kernel-manifest.md`, with an example reader in
//! `scripts/read-manifest.py`); this module writes and parses it.
//!
//! # Carrier
//! One ELF note per kernel, owner `offload-passes`, type
//! [`NOTE_TYPE`], in a constant global `@__offload_manifest_<K>` (kept by
//! `@llvm.used`):
//! - x86_64 and AMDGPU: the global is in section [`SECTION`]; its name
//!   starting with `.note` makes it `SHT_NOTE`, which linkers keep (also
//!   under `--gc-sections`) and `strip` leaves alone; `llvm-readelf --notes`
//!   lists it.
//! - NVPTX: PTX has no sections, so the global is a `.visible .global` byte
//!   array that `ptxas` keeps as the symbol `__offload_manifest_<K>` in
//!   `.nv.global.init`; a reader takes the symbol's bytes. An nvptx64
//!   bitcode image (not assembled) is read by LLVM, and the manifest is
//!   the global's initializer.
//!
//! # Note layout (little-endian)
//! ```text
//! note header   u32 namesz = 15, u32 descsz, u32 type = 0x4d4b,
//!               "offload-passes\0" + 1 byte of padding
//! desc  0  u32  version (1)
//!       4  u32  P, the number of kernel parameters
//!       8  u32  N, the size of the kernel's name in bytes
//!      12  u8   slot size in bytes (8)
//!      13  u8   leading slots before the parameters' (1: the dyn pointer)
//!      14  u16  flags (0)
//!      16  P x 16-byte parameter records
//!  16+16P  N bytes of name (no NUL), then NUL padding to 4 bytes
//! parameter record
//!       0  u8   kind: 1 pointer, 2 integer, 3 float, 4 aggregate by value
//!               (first-class struct, array or vector), 5 byval (a pointer
//!               with `byval(T)`: a C struct by value)
//!       1  u8   slot: 1 the pointer itself, 2 the value's bits
//!               zero-extended to 64, 3 a pointer to the host's TO-mapped copy
//!       2  u16  detail: pointer: address space; integer: bit width;
//!               float: 1 half, 2 bfloat, 3 float, 4 double; else 0
//!       4  u32  ABI alignment in bytes
//!       8  u64  size in bytes (store size; aggregate/byval: allocation size)
//! ```
//! Slot `s` of the wrapped kernel (8 bytes each) carries parameter `s - 1`;
//! slot 0 is the dyn pointer.

use offload_contract::manifest::{HEADER_BYTES, PARAM_BYTES, float_kind, param_kind, slot_kind};
pub use offload_contract::manifest::{
    LEADING_SLOTS, NOTE_OWNER, NOTE_TYPE, SECTION, SLOT_BYTES, SYMBOL_PREFIX, VERSION,
};

/// IEEE and brain floating-point formats a slot can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum FloatKind {
    Half = float_kind::HALF,
    BFloat = float_kind::BFLOAT,
    Float = float_kind::FLOAT,
    Double = float_kind::DOUBLE,
}

impl FloatKind {
    /// The kind of an LLVM floating-point type that fits a slot; `None` for
    /// other types (`x86_fp80`, `fp128`, non-floats).
    pub fn of(ty: crate::ir::Type<'_>) -> Option<FloatKind> {
        use crate::ir::TypeKind::*;
        match ty.kind() {
            LLVMHalfTypeKind => Some(FloatKind::Half),
            LLVMBFloatTypeKind => Some(FloatKind::BFloat),
            LLVMFloatTypeKind => Some(FloatKind::Float),
            LLVMDoubleTypeKind => Some(FloatKind::Double),
            _ => None,
        }
    }

    /// Its width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
        }
    }

    pub fn ir_name(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
        }
    }

    fn from_code(code: u16) -> Option<FloatKind> {
        [
            FloatKind::Half,
            FloatKind::BFloat,
            FloatKind::Float,
            FloatKind::Double,
        ]
        .into_iter()
        .find(|k| *k as u16 == code)
    }
}

/// What a kernel parameter was before wrapping: what the host must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Pointer {
        address_space: u16,
    },
    Integer {
        bits: u16,
    },
    Float(FloatKind),
    /// A first-class aggregate or vector by value.
    Aggregate,
    /// A pointer with `byval(T)`.
    Byval,
}

/// How the wrapped kernel receives the parameter in its 8-byte slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum SlotKind {
    /// The pointer itself (a translated device pointer).
    Pointer = slot_kind::POINTER,
    /// The value's bits, zero-extended to 64.
    Value = slot_kind::VALUE,
    /// A pointer to the host's TO-mapped copy.
    CopyPointer = slot_kind::COPY_POINTER,
}

/// One parameter of a kernel's manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub kind: ParamKind,
    pub slot: SlotKind,
    pub size: u64,
    pub align: u32,
}

impl Param {
    /// The parameter as IR-like text for messages: `ptr addrspace(1)`,
    /// `i32`, `float`, `{24 bytes, align 8} by value`, `ptr byval({...})`.
    pub fn text(&self) -> String {
        match self.kind {
            ParamKind::Pointer { address_space: 0 } => "ptr".into(),
            ParamKind::Pointer { address_space } => format!("ptr addrspace({address_space})"),
            ParamKind::Integer { bits } => format!("i{bits}"),
            ParamKind::Float(kind) => kind.ir_name().into(),
            ParamKind::Aggregate => {
                format!("{{{} bytes, align {}}} by value", self.size, self.align)
            }
            ParamKind::Byval => format!("ptr byval({{{} bytes, align {}}})", self.size, self.align),
        }
    }

    /// True for the kinds the host passes as a struct by value.
    pub fn is_by_value(&self) -> bool {
        matches!(self.kind, ParamKind::Aggregate | ParamKind::Byval)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        let (kind, detail) = match self.kind {
            ParamKind::Pointer { address_space } => (param_kind::POINTER, address_space),
            ParamKind::Integer { bits } => (param_kind::INTEGER, bits),
            ParamKind::Float(kind) => (param_kind::FLOAT, kind as u16),
            ParamKind::Aggregate => (param_kind::AGGREGATE, 0),
            ParamKind::Byval => (param_kind::BYVAL, 0),
        };
        out.push(kind);
        out.push(self.slot as u8);
        out.extend_from_slice(&detail.to_le_bytes());
        out.extend_from_slice(&self.align.to_le_bytes());
        out.extend_from_slice(&self.size.to_le_bytes());
    }

    fn decode(index: usize, record: &[u8]) -> Result<Param, ManifestProblem> {
        let detail = u16::from_le_bytes([record[2], record[3]]);
        let bad = |what: &'static str| ManifestProblem::Param { index, what };
        let kind = match record[0] {
            param_kind::POINTER => ParamKind::Pointer {
                address_space: detail,
            },
            param_kind::INTEGER if (1..=64).contains(&detail) => {
                ParamKind::Integer { bits: detail }
            }
            param_kind::INTEGER => return Err(bad("an integer width outside 1..=64")),
            param_kind::FLOAT => {
                ParamKind::Float(FloatKind::from_code(detail).ok_or(bad("an unknown float kind"))?)
            }
            param_kind::AGGREGATE => ParamKind::Aggregate,
            param_kind::BYVAL => ParamKind::Byval,
            _ => return Err(bad("an unknown kind")),
        };
        let slot = match record[1] {
            slot_kind::POINTER => SlotKind::Pointer,
            slot_kind::VALUE => SlotKind::Value,
            slot_kind::COPY_POINTER => SlotKind::CopyPointer,
            _ => return Err(bad("an unknown slot kind")),
        };
        Ok(Param {
            kind,
            slot,
            align: u32::from_le_bytes(record[4..8].try_into().expect("4 bytes")),
            size: u64::from_le_bytes(record[8..16].try_into().expect("8 bytes")),
        })
    }
}

/// One kernel's manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelManifest {
    pub name: String,
    pub params: Vec<Param>,
}

/// Why a manifest note cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestProblem {
    Truncated,
    Version {
        version: u32,
    },
    Slots {
        bytes: u8,
        leading: u8,
    },
    NameNotUtf8,
    /// A name length of 0.
    EmptyName,
    /// A description whose size is not what its counts say.
    Size {
        desc: usize,
        params: usize,
        name: usize,
    },
    Param {
        index: usize,
        what: &'static str,
    },
}

impl std::fmt::Display for ManifestProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ManifestProblem::Truncated => write!(f, "is truncated"),
            ManifestProblem::Version { version } => {
                write!(f, "has version {version}; version {VERSION} is supported")
            }
            ManifestProblem::Slots { bytes, leading } => write!(
                f,
                "describes {bytes}-byte slots after {leading} leading slots; {SLOT_BYTES}-byte slots after {LEADING_SLOTS} are supported"
            ),
            ManifestProblem::NameNotUtf8 => write!(f, "names a kernel that is not UTF-8"),
            ManifestProblem::EmptyName => write!(f, "names no kernel (name length 0)"),
            ManifestProblem::Size { desc, params, name } => write!(
                f,
                "is {desc} bytes long, but {params} parameters and a {name}-byte name take {} (a wrong parameter count or name length)",
                HEADER_BYTES as u64 + PARAM_BYTES as u64 * *params as u64 + *name as u64
            ),
            ManifestProblem::Param { index, what } => write!(f, "gives parameter {index} {what}"),
        }
    }
}

impl KernelManifest {
    /// The manifest as one ELF note (header, owner, description), a
    /// multiple of 4 bytes.
    pub fn to_note(&self) -> Vec<u8> {
        let mut desc = Vec::with_capacity(
            HEADER_BYTES + PARAM_BYTES * self.params.len() + self.name.len() + 3,
        );
        desc.extend_from_slice(&VERSION.to_le_bytes());
        desc.extend_from_slice(&(self.params.len() as u32).to_le_bytes());
        desc.extend_from_slice(&(self.name.len() as u32).to_le_bytes());
        desc.extend_from_slice(&[SLOT_BYTES, LEADING_SLOTS, 0, 0]);
        for param in &self.params {
            param.encode(&mut desc);
        }
        desc.extend_from_slice(self.name.as_bytes());
        let mut note = Vec::with_capacity(12 + 16 + desc.len() + 3);
        note.extend_from_slice(&(NOTE_OWNER.len() as u32).to_le_bytes());
        note.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        note.extend_from_slice(&NOTE_TYPE.to_le_bytes());
        note.extend_from_slice(NOTE_OWNER);
        pad4(&mut note);
        note.extend_from_slice(&desc);
        pad4(&mut note);
        note
    }

    /// Parses a note's description (the bytes after the owner name).
    pub fn from_desc(desc: &[u8]) -> Result<KernelManifest, ManifestProblem> {
        let word = |at: usize| -> Result<u32, ManifestProblem> {
            desc.get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
                .ok_or(ManifestProblem::Truncated)
        };
        if desc.len() < HEADER_BYTES {
            return Err(ManifestProblem::Truncated);
        }
        let version = word(0)?;
        if version != VERSION {
            return Err(ManifestProblem::Version { version });
        }
        let (count, name_len) = (word(4)? as usize, word(8)? as usize);
        let (bytes, leading) = (desc[12], desc[13]);
        if (bytes, leading) != (SLOT_BYTES, LEADING_SLOTS) {
            return Err(ManifestProblem::Slots { bytes, leading });
        }
        let names_at = count
            .checked_mul(PARAM_BYTES)
            .and_then(|n| n.checked_add(HEADER_BYTES))
            .ok_or(ManifestProblem::Truncated)?;
        if name_len == 0 {
            return Err(ManifestProblem::EmptyName);
        }
        // The description is exactly header, records and name (the note's
        // padding is outside it): a count or length off by any amount shows.
        if names_at.checked_add(name_len) != Some(desc.len()) {
            return Err(ManifestProblem::Size {
                desc: desc.len(),
                params: count,
                name: name_len,
            });
        }
        let name = &desc[names_at..];
        let name = std::str::from_utf8(name).map_err(|_| ManifestProblem::NameNotUtf8)?;
        let params = desc[HEADER_BYTES..names_at]
            .chunks_exact(PARAM_BYTES)
            .enumerate()
            .map(|(i, record)| Param::decode(i, record))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(KernelManifest {
            name: name.to_owned(),
            params,
        })
    }
}

/// Every note (owner, type, description) of `data`, a sequence of ELF
/// notes with 4-byte alignment (a `SHT_NOTE` section, or one manifest
/// symbol's bytes). A note that runs past the end is one
/// `Err(Truncated)`, which ends the sequence; so do fewer than 12 bytes left.
pub fn notes(data: &[u8]) -> impl Iterator<Item = Result<(&[u8], u32, &[u8]), ManifestProblem>> {
    let mut next = Some(0usize);
    std::iter::from_fn(move || {
        let at = next.take()?;
        let word = |o: usize| {
            data.get(o..o + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        };
        let (namesz, descsz, kind) = (word(at)?, word(at + 4)?, word(at + 8)?);
        let name_at = at + 12;
        let Some((desc_at, end)) = name_at
            .checked_add(namesz.next_multiple_of(4))
            .and_then(|desc_at| Some((desc_at, desc_at.checked_add(descsz)?)))
            .filter(|&(_, end)| end <= data.len())
        else {
            return Some(Err(ManifestProblem::Truncated));
        };
        next = Some(end.next_multiple_of(4));
        Some(Ok((
            &data[name_at..name_at + namesz],
            kind as u32,
            &data[desc_at..end],
        )))
    })
}

/// The manifest notes in `data` (see [`notes`]): each `offload-passes` note
/// of [`NOTE_TYPE`] parsed; other notes skipped. `Err` when the sequence
/// itself is broken.
pub fn parse_notes(
    data: &[u8],
) -> Result<Vec<Result<KernelManifest, ManifestProblem>>, ManifestProblem> {
    let mut out = Vec::new();
    for note in notes(data) {
        let (owner, kind, desc) = note?;
        if owner == NOTE_OWNER && kind == NOTE_TYPE {
            out.push(KernelManifest::from_desc(desc));
        }
    }
    Ok(out)
}

fn pad4(bytes: &mut Vec<u8>) {
    bytes.resize(bytes.len().next_multiple_of(4), 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> KernelManifest {
        KernelManifest {
            name: "scale".into(),
            params: vec![
                Param {
                    kind: ParamKind::Pointer { address_space: 1 },
                    slot: SlotKind::Pointer,
                    size: 8,
                    align: 8,
                },
                Param {
                    kind: ParamKind::Integer { bits: 32 },
                    slot: SlotKind::Value,
                    size: 4,
                    align: 4,
                },
                Param {
                    kind: ParamKind::Float(FloatKind::Double),
                    slot: SlotKind::Value,
                    size: 8,
                    align: 8,
                },
                Param {
                    kind: ParamKind::Byval,
                    slot: SlotKind::CopyPointer,
                    size: 24,
                    align: 8,
                },
            ],
        }
    }

    #[test]
    fn a_note_round_trips_and_is_padded() {
        let note = sample().to_note();
        assert_eq!(note.len() % 4, 0);
        assert_eq!(&note[12..27], NOTE_OWNER);
        // Two notes back to back (what a linker makes of two objects), with
        // a foreign note between them.
        let mut section = note.clone();
        section.extend_from_slice(&[4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, b'G', b'N', b'U', 0]);
        section.extend_from_slice(&note);
        let parsed = parse_notes(&section).unwrap();
        assert_eq!(parsed, vec![Ok(sample()), Ok(sample())]);
        assert_eq!(
            sample().params.iter().map(Param::text).collect::<Vec<_>>(),
            [
                "ptr addrspace(1)",
                "i32",
                "double",
                "ptr byval({24 bytes, align 8})"
            ]
        );
    }

    #[test]
    fn broken_notes_are_errors() {
        let note = sample().to_note();
        assert_eq!(
            parse_notes(&note[..note.len() - 4]),
            Err(ManifestProblem::Truncated)
        );
        let mut wrong_version = note.clone();
        wrong_version[28] = 9;
        assert_eq!(
            parse_notes(&wrong_version).unwrap(),
            vec![Err(ManifestProblem::Version { version: 9 })]
        );
        let params = sample().params.len();
        let name = sample().name.len();
        let desc = &note[28..28 + HEADER_BYTES + PARAM_BYTES * params + name];
        let mut one_too_few = desc.to_vec();
        one_too_few[4] -= 1;
        assert_eq!(
            KernelManifest::from_desc(&one_too_few),
            Err(ManifestProblem::Size {
                desc: desc.len(),
                params: params - 1,
                name
            })
        );
        for (short, problem) in [
            (0, ManifestProblem::EmptyName),
            (
                3,
                ManifestProblem::Size {
                    desc: desc.len(),
                    params,
                    name: 3,
                },
            ),
        ] {
            let mut named = desc.to_vec();
            named[8] = short;
            assert_eq!(KernelManifest::from_desc(&named), Err(problem));
        }
        let mut bad_kind = note.clone();
        bad_kind[28 + 16] = 77;
        assert_eq!(
            parse_notes(&bad_kind).unwrap(),
            vec![Err(ManifestProblem::Param {
                index: 0,
                what: "an unknown kind"
            })]
        );
    }
}
