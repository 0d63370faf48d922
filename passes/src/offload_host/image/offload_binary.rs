//! LLVM's `OffloadBinary` (version 1): reading the one image an input file
//! holds, and writing one around a bare ELF, laid out as
//! `llvm-offload-binary` writes it (header, entry, string entries, string
//! table, the image at an 8-aligned offset, the whole padded to 8).
//!
//! Layout, little-endian: header `{magic 10 FF 10 AD, u32 version, u64
//! size, u64 entry offset, u64 entry size}` (32 bytes); entry `{u16 image
//! kind, u16 offload kind, u32 flags, u64 string offset, u64 string count,
//! u64 image offset, u64 image size}` (40 bytes); string entries `{u64 key
//! offset, u64 value offset}` into a table of NUL-terminated strings. All
//! offsets are from the start of the binary.

use std::ops::Range;

/// `OffloadBinary` magic bytes (`0x10FF10AD`).
pub const MAGIC: [u8; 4] = [0x10, 0xFF, 0x10, 0xAD];
/// `ImageKind::IMG_Object`: an ELF (shown as `kind elf`).
pub const IMAGE_KIND_OBJECT: u16 = 1;
/// `ImageKind::IMG_Bitcode`: LLVM bitcode (`kind llvm ir`).
pub const IMAGE_KIND_BITCODE: u16 = 2;
/// `ImageKind::IMG_Cubin`.
pub const IMAGE_KIND_CUBIN: u16 = 3;
/// `OffloadKind::OFK_OpenMP`.
pub const OFFLOAD_KIND_OPENMP: u16 = 1;

const HEADER_BYTES: usize = 32;
const ENTRY_BYTES: usize = 40;

/// The little-endian `u64` at byte `at` of `bytes` (which holds it).
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// `llvm::object::OffloadBinary::Header`, the fields read.
struct Header {
    magic: [u8; 4],
    version: u32,
    size: u64,
    entry_offset: u64,
}

impl Header {
    /// The header at the start of `bytes`; `None` when they are too few.
    fn read(bytes: &[u8]) -> Option<Header> {
        let bytes = bytes.get(..HEADER_BYTES)?;
        Some(Header {
            magic: bytes[..4].try_into().expect("4 bytes"),
            version: u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")),
            size: u64_at(bytes, 8),
            entry_offset: u64_at(bytes, 16),
        })
    }
}

/// `llvm::object::OffloadBinary::Entry`, the fields read.
struct Entry {
    string_offset: u64,
    num_strings: u64,
    image_offset: u64,
    image_size: u64,
}

impl Entry {
    /// The entry at the start of `bytes`; `None` when they are too few.
    fn read(bytes: &[u8]) -> Option<Entry> {
        let bytes = bytes.get(..ENTRY_BYTES)?;
        Some(Entry {
            string_offset: u64_at(bytes, 8),
            num_strings: u64_at(bytes, 16),
            image_offset: u64_at(bytes, 24),
            image_size: u64_at(bytes, 32),
        })
    }
}

/// The one image of a file that starts with an OffloadBinary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The OffloadBinary holding it, in the file.
    pub binary: Range<usize>,
    /// The image, in the file.
    pub image: Range<usize>,
    /// Its `triple` and `arch` strings (empty when absent).
    pub triple: String,
    pub arch: String,
}

/// The one image inside `bytes`, a file that starts with an OffloadBinary.
/// `llvm-offload-binary` concatenates one OffloadBinary per image, so several
/// headers mean several images: refused, because the registration describes
/// exactly one image. The error says what is wrong (for "image 'PATH' ...").
pub fn find_image(bytes: &[u8]) -> Result<Found, String> {
    let mut binaries = Vec::new();
    let mut offset = 0usize;
    while offset < bytes.len() {
        let rest = &bytes[offset..];
        if rest.iter().all(|&b| b == 0) {
            break; // alignment padding after the last binary
        }
        let header = Header::read(rest)
            .ok_or_else(|| format!("has a truncated OffloadBinary header at offset {offset}"))?;
        if header.magic != MAGIC {
            return Err(format!(
                "has data that is not an OffloadBinary at offset {offset}"
            ));
        }
        let version = header.version;
        if version != 1 {
            return Err(format!(
                "is an OffloadBinary of version {version}; version 1 is supported"
            ));
        }
        let size = usize::try_from(header.size).unwrap_or(usize::MAX);
        if size < HEADER_BYTES || size > rest.len() {
            return Err(format!(
                "is a truncated OffloadBinary (header says {} bytes, {} present)",
                header.size,
                rest.len()
            ));
        }
        binaries.push(offset..offset + size);
        // Binaries are concatenated at 8-byte alignment.
        offset += size.next_multiple_of(8);
    }
    match binaries.as_slice() {
        [] => Err("is an OffloadBinary holding no image".into()),
        [one] => {
            let (image, triple, arch) = read_binary(&bytes[one.clone()])?;
            Ok(Found {
                binary: one.clone(),
                image: one.start + image.start..one.start + image.end,
                triple,
                arch,
            })
        }
        many => Err(format!(
            "is an OffloadBinary holding {} images; exactly one is supported (pass one image, e.g. the ELF itself)",
            many.len()
        )),
    }
}

/// The image range (relative to the binary) and the triple/arch strings of
/// one OffloadBinary.
fn read_binary(binary: &[u8]) -> Result<(Range<usize>, String, String), String> {
    let header = Header::read(binary).ok_or("has a truncated OffloadBinary header")?;
    let at = |offset: u64| usize::try_from(offset).ok().filter(|&o| o <= binary.len());
    let entry_at = at(header.entry_offset).ok_or("has an OffloadBinary entry outside the file")?;
    let entry = Entry::read(&binary[entry_at..]).ok_or("has a truncated OffloadBinary entry")?;
    let start = at(entry.image_offset);
    let end = entry
        .image_offset
        .checked_add(entry.image_size)
        .and_then(at);
    let image = match (start, end) {
        (Some(start), Some(end)) if end > start => start..end,
        (Some(_), Some(_)) => {
            return Err("is an OffloadBinary holding no image (its image is empty)".into());
        }
        _ => return Err("has an OffloadBinary image outside the file".into()),
    };
    let string = |offset: u64| -> String {
        at(offset)
            .map(|o| &binary[o..])
            .and_then(|s| s.split(|&b| b == 0).next())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_default()
    };
    let (mut triple, mut arch) = (String::new(), String::new());
    let strings = at(entry.string_offset).unwrap_or(binary.len());
    for i in 0..entry.num_strings.min(1024) as usize {
        let pair = binary.get(strings + 16 * i..strings + 16 * i + 16);
        let Some(pair) = pair else { break };
        let key = string(u64::from_le_bytes(pair[..8].try_into().expect("8 bytes")));
        let value = string(u64::from_le_bytes(pair[8..].try_into().expect("8 bytes")));
        match key.as_str() {
            "triple" => triple = value,
            "arch" => arch = value,
            _ => {}
        }
    }
    Ok((image, triple, arch))
}

/// What a written OffloadBinary says about its image.
pub struct Strings<'a> {
    pub image_kind: u16,
    pub triple: &'a str,
    pub arch: &'a str,
}

/// The bytes of an OffloadBinary (version 1, offload kind OpenMP) before
/// an image of `image_len` bytes: header, entry, string entries and table,
/// padding to the 8-aligned image offset (the entry's `ImageOffset` is the
/// prefix's length). After the image come `padding(image_len, prefix)`
/// zero bytes. Split so that a large image is never copied.
pub fn prefix(image_len: usize, strings: &Strings<'_>) -> Vec<u8> {
    let table: Vec<(&str, &str)> = vec![("arch", strings.arch), ("triple", strings.triple)];
    let strings_at = HEADER_BYTES + ENTRY_BYTES;
    let table_at = strings_at + 16 * table.len();
    let mut text = Vec::new();
    let mut pairs = Vec::new();
    for (key, value) in &table {
        let key_at = table_at + text.len();
        text.extend_from_slice(key.as_bytes());
        text.push(0);
        let value_at = table_at + text.len();
        text.extend_from_slice(value.as_bytes());
        text.push(0);
        pairs.push((key_at as u64, value_at as u64));
    }
    let image_at = (table_at + text.len()).next_multiple_of(8);
    let size = (image_at + image_len).next_multiple_of(8);
    let mut out = Vec::with_capacity(image_at);
    let u64s = |out: &mut Vec<u8>, values: &[u64]| {
        values
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes()))
    };
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&1u32.to_le_bytes());
    u64s(
        &mut out,
        &[size as u64, HEADER_BYTES as u64, ENTRY_BYTES as u64],
    );
    out.extend_from_slice(&strings.image_kind.to_le_bytes());
    out.extend_from_slice(&OFFLOAD_KIND_OPENMP.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    u64s(
        &mut out,
        &[
            strings_at as u64,
            table.len() as u64,
            image_at as u64,
            image_len as u64,
        ],
    );
    for (key, value) in pairs {
        u64s(&mut out, &[key, value]);
    }
    out.extend_from_slice(&text);
    out.resize(image_at, 0);
    out
}

/// The zero bytes after an image of `image_len` bytes that follows `prefix`
/// (the whole binary is a multiple of 8 bytes).
pub fn padding(image_len: usize, prefix: &[u8]) -> usize {
    (prefix.len() + image_len).next_multiple_of(8) - prefix.len() - image_len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_binary_reads_back() {
        let image = b"\x7fELF and some bytes";
        let strings = Strings {
            image_kind: IMAGE_KIND_OBJECT,
            triple: "x86_64-unknown-linux-gnu",
            arch: "generic",
        };
        let mut binary = prefix(image.len(), &strings);
        let at = binary.len();
        binary.extend_from_slice(image);
        binary.resize(binary.len() + padding(image.len(), &binary[..at]), 0);
        assert_eq!(binary.len() % 8, 0);
        assert_eq!(at % 8, 0);
        assert_eq!(&binary[at..at + image.len()], image);
        let found = find_image(&binary).unwrap();
        assert_eq!(found.binary, 0..binary.len());
        assert_eq!(found.image, at..at + image.len());
        assert_eq!(
            (found.triple.as_str(), found.arch.as_str()),
            ("x86_64-unknown-linux-gnu", "generic")
        );
    }
}
