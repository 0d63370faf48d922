//! Reading the device image: its digest and the kernel table.

use std::path::Path;

use object::{Object, ObjectSection, ObjectSymbol};
use sha2::{Digest, Sha256};

use crate::{Error, error};

/// First 8 bytes of the SHA-256 of the image, little-endian (launch
/// contract v2's image digest).
pub fn digest(bytes: &[u8]) -> u64 {
    let hash = Sha256::digest(bytes);
    u64::from_le_bytes(hash[..8].try_into().expect("8 bytes"))
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
    pub kind: ArgKind,
    /// libomptarget map type (TO 1, FROM 2, LITERAL|IMPLICIT 0x300).
    pub map: u32,
    /// Width of a scalar, size of a pointer's element, in bytes.
    pub size: u64,
    /// For a pointer to several elements: the argument holding their count.
    pub len_arg: Option<usize>,
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
}

impl Kernel {
    /// A kernel known by name only (a PTX image has no readable records).
    pub fn named(symbol: &str) -> Self {
        Kernel {
            symbol: symbol.to_owned(),
            hash: 0,
            args: Vec::new(),
        }
    }
}

const RECORD_PREFIX: &str = "__offload_rs_record.";
const MAGIC: &[u8; 8] = b"OFFRSK01";
const RECORD_SIZE: usize = 8 + 8 + 4 + 4 + 128 + 32 * 16;

fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().expect("4 bytes"))
}

fn parse_record(bytes: &[u8], symbol: &str, path: &Path) -> Result<Kernel, Error> {
    let bad = |what: &str| {
        error(format!(
            "{}: kernel record {symbol}: {what}",
            path.display()
        ))
    };
    if bytes.len() < RECORD_SIZE || &bytes[..8] != MAGIC {
        return Err(bad(
            "not an offload record of this version (offload and offload-build versions differ?)",
        ));
    }
    let hash = le_u64(&bytes[8..]);
    let name_len = le_u32(&bytes[16..]) as usize;
    let count = le_u32(&bytes[20..]) as usize;
    if name_len > 128 || count > 32 {
        return Err(bad("corrupt"));
    }
    let name = String::from_utf8_lossy(&bytes[24..24 + name_len]).into_owned();
    let mut args = Vec::new();
    for i in 0..count {
        let a = &bytes[152 + 16 * i..];
        let kind = match u16::from_le_bytes([a[0], a[1]]) {
            1 => ArgKind::Pointer,
            2 => ArgKind::Int,
            3 => ArgKind::Float,
            4 => ArgKind::Bool,
            k => return Err(bad(&format!("argument {i} has kind {k}"))),
        };
        let len = u16::from_le_bytes([a[2], a[3]]);
        args.push(Arg {
            kind,
            len_arg: (len != u16::MAX).then_some(usize::from(len)),
            map: le_u32(&a[4..]),
            size: le_u64(&a[8..]),
        });
    }
    Ok(Kernel {
        symbol: name,
        hash,
        args,
    })
}

/// The kernels whose records the image exports, sorted by symbol.
pub fn kernels(bytes: &[u8], path: &Path) -> Result<Vec<Kernel>, Error> {
    let file = object::File::parse(bytes).map_err(|e| error(format!("{}: {e}", path.display())))?;
    let mut kernels = Vec::new();
    let symbols = file.symbols().chain(file.dynamic_symbols());
    for symbol in symbols {
        let Ok(name) = symbol.name() else { continue };
        let Some(kernel) = name.strip_prefix(RECORD_PREFIX) else {
            continue;
        };
        if kernels.iter().any(|k: &Kernel| k.symbol == kernel) {
            continue;
        }
        let section = symbol
            .section_index()
            .and_then(|i| file.section_by_index(i).ok())
            .ok_or_else(|| error(format!("{}: {name} has no section", path.display())))?;
        let data = section
            .data_range(symbol.address(), RECORD_SIZE as u64)
            .ok()
            .flatten()
            .ok_or_else(|| error(format!("{}: {name} is outside its section", path.display())))?;
        kernels.push(parse_record(data, kernel, path)?);
    }
    kernels.sort_by(|a, b| a.symbol.cmp(&b.symbol));
    Ok(kernels)
}

/// The image's records and the expansion's kernels must be the same set.
pub fn check_names(kernels: &[Kernel], expected: &[String], path: &Path) -> Result<(), Error> {
    let found: Vec<&str> = kernels.iter().map(|k| k.symbol.as_str()).collect();
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    if found != expected {
        return Err(error(format!(
            "{}: the image's kernels [{}] are not the crate's #[kernel]s [{}]",
            path.display(),
            found.join(", "),
            expected.join(", ")
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_sha256_prefix_le() {
        // SHA-256("abc") = ba7816bf 8f01cfea ...
        assert_eq!(
            digest(b"abc"),
            u64::from_le_bytes([0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea])
        );
    }

    #[test]
    fn records_parse() {
        let mut rec = vec![0u8; RECORD_SIZE];
        rec[..8].copy_from_slice(MAGIC);
        rec[8..16].copy_from_slice(&7u64.to_le_bytes());
        rec[16..20].copy_from_slice(&3u32.to_le_bytes());
        rec[20..24].copy_from_slice(&2u32.to_le_bytes());
        rec[24..27].copy_from_slice(b"sum");
        rec[152..154].copy_from_slice(&1u16.to_le_bytes());
        rec[154..156].copy_from_slice(&1u16.to_le_bytes());
        rec[156..160].copy_from_slice(&1u32.to_le_bytes());
        rec[160..168].copy_from_slice(&8u64.to_le_bytes());
        rec[168..170].copy_from_slice(&2u16.to_le_bytes());
        rec[170..172].copy_from_slice(&u16::MAX.to_le_bytes());
        rec[172..176].copy_from_slice(&0x300u32.to_le_bytes());
        rec[176..184].copy_from_slice(&8u64.to_le_bytes());
        let k = parse_record(&rec, "sum", Path::new("x")).unwrap();
        assert_eq!(k.symbol, "sum");
        assert_eq!(k.hash, 7);
        assert_eq!(
            k.args[0],
            Arg {
                kind: ArgKind::Pointer,
                map: 1,
                size: 8,
                len_arg: Some(1)
            }
        );
        assert_eq!(k.args[1].kind, ArgKind::Int);
        assert!(parse_record(&rec[..100], "sum", Path::new("x")).is_err());
    }
}
