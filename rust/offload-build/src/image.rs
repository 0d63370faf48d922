//! Reading the device image's kernel table (the records `#[kernel]`
//! exports, layout in [`offload_contract::record`]).

use std::path::{Path, PathBuf};

use object::{Object, ObjectSection, ObjectSymbol};
use offload_contract::record::{
    ARG_BYTES, ARG_COUNT_OFFSET, ARG_LAYOUT_OFFSET, ARG_LEN_OFFSET, ARG_MAP_OFFSET,
    ARG_SIZE_OFFSET, ARGS_OFFSET, CRATE_LEN_OFFSET, CRATE_NAME_OFFSET, FEATURES_OFFSET,
    HASH_OFFSET, KIND_BOOL, KIND_FLOAT, KIND_INT, KIND_PTR, MAGIC, MAX_ARGS, MAX_NAME,
    NAME_LEN_OFFSET, NAME_OFFSET, NO_LEN, RECORD_BYTES, SYMBOL_PREFIX,
};

use crate::error::{Error, RecordProblem};
use crate::targets::Target;

/// One built device image.
#[derive(Debug, Clone)]
pub struct Image {
    /// The target it was built for.
    pub target: Target,
    /// The image (a copy in the host crate's `OUT_DIR`; for nvptx the
    /// cubin, next to the PTX it was assembled from).
    pub path: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// First 8 bytes of the image's SHA-256, little-endian.
    pub digest: u64,
    /// The kernels in the image, from their records.
    pub kernels: Vec<Kernel>,
}

/// What one launch argument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// A pointer (to `size`-byte elements).
    Pointer,
    /// An integer of `size` bytes.
    Int,
    /// A float of `size` bytes.
    Float,
    /// A `bool`.
    Bool,
}

/// One launch argument of a kernel, from its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arg {
    /// What the argument is.
    pub kind: ArgKind,
    /// libomptarget map type ([`offload_contract::map_type`]: TO, FROM,
    /// LITERAL|IMPLICIT).
    pub map: u64,
    /// Width of a scalar, size of a pointer's element, in bytes.
    pub size: u64,
    /// For a pointer to several elements: the argument holding their count.
    pub len_arg: Option<usize>,
    /// The layout word of the scalar or the element in the device build
    /// ([`offload_contract::layout`]), which the host's launcher checks.
    pub layout: u64,
}

/// A kernel of the image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// Its symbol in the image.
    pub symbol: String,
    /// The signature hash the host's launchers carry.
    pub hash: u64,
    /// Its launch arguments (a slice is two: pointer and length).
    pub args: Vec<Arg>,
    /// The kernel crate's feature word in the device build
    /// ([`offload_contract::features`]), which the host's launcher checks.
    pub features: u64,
    /// The crate that defines the kernel (the kernel crate, or a kernel
    /// library it depends on); empty where the image has no readable
    /// records.
    pub crate_name: String,
}

impl Kernel {
    /// A kernel known by name only (a PTX image has no readable records).
    pub fn named(symbol: &str) -> Self {
        Kernel {
            symbol: symbol.to_owned(),
            hash: 0,
            args: Vec::new(),
            features: 0,
            crate_name: String::new(),
        }
    }
}

fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().expect("4 bytes"))
}

fn le_u16(b: &[u8]) -> u16 {
    u16::from_le_bytes(b[..2].try_into().expect("2 bytes"))
}

fn parse_record(bytes: &[u8], symbol: &str, path: &Path) -> Result<Kernel, Error> {
    let bad = |problem| Error::BadRecord {
        image: path.to_path_buf(),
        kernel: symbol.to_owned(),
        problem,
    };
    if bytes.len() < RECORD_BYTES || bytes[..MAGIC.len()] != MAGIC {
        return Err(bad(RecordProblem::NotThisVersion));
    }
    let hash = le_u64(&bytes[HASH_OFFSET..]);
    let name_len = le_u32(&bytes[NAME_LEN_OFFSET..]) as usize;
    let count = le_u32(&bytes[ARG_COUNT_OFFSET..]) as usize;
    let crate_len = le_u64(&bytes[CRATE_LEN_OFFSET..]);
    if name_len > MAX_NAME || count > MAX_ARGS || crate_len > MAX_NAME as u64 {
        return Err(bad(RecordProblem::Corrupt));
    }
    let name = String::from_utf8_lossy(&bytes[NAME_OFFSET..NAME_OFFSET + name_len]).into_owned();
    let crate_name = &bytes[CRATE_NAME_OFFSET..CRATE_NAME_OFFSET + crate_len as usize];
    let crate_name = String::from_utf8_lossy(crate_name).into_owned();
    let mut args = Vec::new();
    for i in 0..count {
        let a = &bytes[ARGS_OFFSET + ARG_BYTES * i..];
        let kind = match le_u16(a) {
            KIND_PTR => ArgKind::Pointer,
            KIND_INT => ArgKind::Int,
            KIND_FLOAT => ArgKind::Float,
            KIND_BOOL => ArgKind::Bool,
            kind => return Err(bad(RecordProblem::ArgumentKind { arg: i, kind })),
        };
        let len = le_u16(&a[ARG_LEN_OFFSET..]);
        args.push(Arg {
            kind,
            len_arg: (len != NO_LEN).then_some(usize::from(len)),
            map: u64::from(le_u32(&a[ARG_MAP_OFFSET..])),
            size: le_u64(&a[ARG_SIZE_OFFSET..]),
            layout: le_u64(&a[ARG_LAYOUT_OFFSET..]),
        });
    }
    Ok(Kernel {
        symbol: name,
        hash,
        args,
        features: le_u64(&bytes[FEATURES_OFFSET..]),
        crate_name,
    })
}

/// The kernels whose records the image exports, sorted by symbol.
pub fn kernels(bytes: &[u8], path: &Path) -> Result<Vec<Kernel>, Error> {
    let file = object::File::parse(bytes).map_err(|source| Error::NotAnObject {
        image: path.to_path_buf(),
        source,
    })?;
    let mut kernels = Vec::new();
    let symbols = file.symbols().chain(file.dynamic_symbols());
    for symbol in symbols {
        let Ok(name) = symbol.name() else { continue };
        let Some(kernel) = name.strip_prefix(SYMBOL_PREFIX) else {
            continue;
        };
        if kernels.iter().any(|k: &Kernel| k.symbol == kernel) {
            continue;
        }
        let section = symbol
            .section_index()
            .and_then(|i| file.section_by_index(i).ok())
            .ok_or_else(|| Error::RecordWithoutSection {
                image: path.to_path_buf(),
                symbol: name.to_owned(),
            })?;
        let data = section
            .data_range(symbol.address(), RECORD_BYTES as u64)
            .ok()
            .flatten()
            .ok_or_else(|| Error::RecordOutsideSection {
                image: path.to_path_buf(),
                symbol: name.to_owned(),
            })?;
        kernels.push(parse_record(data, kernel, path)?);
    }
    kernels.sort_by(|a, b| a.symbol.cmp(&b.symbol));
    Ok(kernels)
}

/// An image must have a kernel: its records are the kernels of the kernel
/// crate and of its dependencies (the wrap pass wrapped exactly those).
pub fn require_kernels(kernels: &[Kernel], dir: &Path, path: &Path) -> Result<(), Error> {
    if kernels.is_empty() {
        return Err(Error::NoKernels {
            dir: dir.to_path_buf(),
            image: path.to_path_buf(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_parse() {
        let mut rec = vec![0u8; RECORD_BYTES];
        rec[..8].copy_from_slice(&MAGIC);
        rec[8..16].copy_from_slice(&7u64.to_le_bytes());
        rec[16..20].copy_from_slice(&3u32.to_le_bytes());
        rec[20..24].copy_from_slice(&2u32.to_le_bytes());
        rec[24..27].copy_from_slice(b"sum");
        rec[152..154].copy_from_slice(&1u16.to_le_bytes());
        rec[154..156].copy_from_slice(&1u16.to_le_bytes());
        rec[156..160].copy_from_slice(&1u32.to_le_bytes());
        rec[160..168].copy_from_slice(&8u64.to_le_bytes());
        rec[168..176].copy_from_slice(&0x0803u64.to_le_bytes());
        rec[176..178].copy_from_slice(&2u16.to_le_bytes());
        rec[178..180].copy_from_slice(&u16::MAX.to_le_bytes());
        rec[180..184].copy_from_slice(&0x300u32.to_le_bytes());
        rec[184..192].copy_from_slice(&8u64.to_le_bytes());
        rec[920..928].copy_from_slice(&5u64.to_le_bytes());
        rec[928..936].copy_from_slice(&7u64.to_le_bytes());
        rec[936..943].copy_from_slice(b"mathlib");
        let k = parse_record(&rec, "sum", Path::new("x")).unwrap();
        assert_eq!(k.symbol, "sum");
        assert_eq!(k.crate_name, "mathlib");
        assert_eq!((k.hash, k.features), (7, 5));
        assert_eq!(
            k.args[0],
            Arg {
                kind: ArgKind::Pointer,
                map: 1,
                size: 8,
                len_arg: Some(1),
                layout: 0x0803,
            }
        );
        assert_eq!(k.args[1].kind, ArgKind::Int);
        assert!(matches!(
            parse_record(&rec[..100], "sum", Path::new("x")),
            Err(Error::BadRecord {
                problem: RecordProblem::NotThisVersion,
                ..
            })
        ));
        rec[176] = 9;
        assert_eq!(
            parse_record(&rec, "sum", Path::new("x"))
                .unwrap_err()
                .to_string(),
            "x: kernel record sum: argument 1 has kind 9"
        );
    }
}
