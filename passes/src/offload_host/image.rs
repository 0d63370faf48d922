//! Reading the linked device image: which machine it is for and which
//! kernels it holds.
//!
//! Accepted inputs: an ELF64 little-endian image for one of the machines
//! libomptarget 22 has a plugin for — an x86_64 shared object (the host
//! plugin `dlopen`s it), an AMDGPU HSA code object, an NVPTX cubin — either
//! bare or wrapped in one LLVM `OffloadBinary` (magic `0x10FF10AD`, as
//! `llvm-offload-binary` writes it). The runtime needs the raw ELF, so
//! [`DeviceImage::elf`] is always the inner ELF, never an OffloadBinary header.
//!
//! ELF parsing and symbol tables come from the `object` crate; only the small
//! OffloadBinary header is read here (with `object`'s unaligned pod types).

use std::ops::Range;

use object::elf;
use object::endian::{LittleEndian as LE, U16, U32, U64};
use object::pod::{Pod, from_bytes};
use object::read::elf::{ElfFile64, FileHeader};
use object::{Endianness, FileKind, Object, ObjectSymbol, SymbolKind};

/// The device the image is for, by ELF `e_machine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Machine {
    /// `EM_X86_64`: libomptarget's host plugin (runs kernels on the CPU).
    X86_64,
    /// `EM_AMDGPU`: an HSA code object; each kernel `K` has a descriptor `K.kd`.
    Amdgpu,
    /// `EM_CUDA`: an NVPTX cubin.
    Cuda,
}

impl Machine {
    fn from_elf(e_machine: elf::Machine) -> Option<Machine> {
        match e_machine {
            elf::EM_X86_64 => Some(Machine::X86_64),
            elf::EM_AMDGPU => Some(Machine::Amdgpu),
            elf::EM_CUDA => Some(Machine::Cuda),
            _ => None,
        }
    }
}

/// Why an image cannot be used. `Display` names the image by its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageError {
    pub path: String,
    pub problem: ImageProblem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageProblem {
    Unreadable { why: String },
    Empty,
    /// An OffloadBinary that does not hold exactly one sound image; the
    /// text says what (truncated, wrong version, several images, ...).
    OffloadBinary { what: String },
    NotElf { inside: bool },
    Elf32 { inside: bool },
    InvalidElf { inside: bool, why: String },
    BigEndian { inside: bool },
    Machine { inside: bool, e_machine: u16 },
    NotShared { inside: bool, e_type: u16 },
}

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = &self.path;
        let inside = |inside: &bool| if *inside { " inside the OffloadBinary" } else { "" };
        match &self.problem {
            ImageProblem::Unreadable { why } => write!(f, "cannot read image '{path}': {why}"),
            ImageProblem::Empty => write!(f, "image '{path}' is empty"),
            ImageProblem::OffloadBinary { what } => write!(f, "image '{path}' {what}"),
            ImageProblem::NotElf { inside: true } => {
                write!(f, "image '{path}' holds an image that is not ELF inside the OffloadBinary")
            }
            ImageProblem::NotElf { inside: false } => {
                write!(f, "image '{path}' is neither an ELF file nor an OffloadBinary")
            }
            ImageProblem::Elf32 { inside: i } => {
                write!(f, "image '{path}' holds a 32-bit ELF{}; a 64-bit device image is needed", inside(i))
            }
            ImageProblem::InvalidElf { inside: i, why } => {
                write!(f, "image '{path}' is not a valid ELF file{}: {why}", inside(i))
            }
            ImageProblem::BigEndian { inside: i } => {
                write!(f, "image '{path}' is a big-endian ELF{}; device images are little-endian", inside(i))
            }
            ImageProblem::Machine { inside: i, e_machine } => write!(
                f,
                "image '{path}' is an ELF for machine {e_machine}{}; expected x86_64 (EM_X86_64), AMDGPU (EM_AMDGPU) or NVPTX (EM_CUDA)",
                inside(i)
            ),
            ImageProblem::NotShared { inside: i, e_type } => write!(
                f,
                "image '{path}' is not a shared object{} (ELF type {e_type}); link the device object with `ld.lld -shared`",
                inside(i)
            ),
        }
    }
}

impl std::error::Error for ImageError {}

/// A launched kernel the image cannot run. `Display` lists the kernels the
/// image has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingKernel {
    pub kernel: String,
    pub path: String,
    /// The symbol exists, but has no AMDGPU kernel descriptor `K.kd`.
    pub no_descriptor: bool,
    pub kernels: Vec<String>,
}

impl std::fmt::Display for MissingKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kernel, path) = (&self.kernel, &self.path);
        if self.no_descriptor {
            write!(f, "'{kernel}' in image '{path}' has no kernel descriptor '{kernel}.kd'")?;
        } else {
            write!(f, "kernel '{kernel}' is not in image '{path}'")?;
        }
        if self.kernels.is_empty() {
            write!(f, " (it has no kernels)")
        } else {
            write!(f, " (its kernels: {})", self.kernels.join(", "))
        }
    }
}

/// A device image read from disk, validated, with its kernel names.
#[derive(Debug)]
pub struct DeviceImage {
    /// The path as given (for messages).
    pub path: String,
    /// The whole file; [`DeviceImage::elf`] is a range of it.
    bytes: Vec<u8>,
    elf: Range<usize>,
    pub machine: Machine,
    /// Kernel names the image exports, sorted.
    kernels: Vec<String>,
    /// Function symbols without a kernel descriptor (AMDGPU only), sorted:
    /// present, but not launchable.
    non_kernels: Vec<String>,
    /// True when the file was an OffloadBinary around the ELF.
    pub wrapped: bool,
}

impl DeviceImage {
    /// Reads and validates the image at `path`. Errors name the path.
    pub fn load(path: &std::path::Path) -> Result<DeviceImage, ImageError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| ImageError {
            path: shown.clone(),
            problem: ImageProblem::Unreadable { why: e.to_string() },
        })?;
        DeviceImage::from_bytes(&shown, bytes)
    }

    /// As [`DeviceImage::load`], for bytes already in memory (`path` names them).
    pub fn from_bytes(path: &str, bytes: Vec<u8>) -> Result<DeviceImage, ImageError> {
        let fail = |problem| ImageError {
            path: path.to_owned(),
            problem,
        };
        if bytes.is_empty() {
            return Err(fail(ImageProblem::Empty));
        }
        let (elf, wrapped) = if bytes.starts_with(&OFFLOAD_BINARY_MAGIC) {
            let inner = inner_image(&bytes).map_err(|what| fail(ImageProblem::OffloadBinary { what }))?;
            (inner, true)
        } else {
            (0..bytes.len(), false)
        };
        let (machine, kernels, non_kernels) = read_elf(&bytes[elf.clone()], wrapped).map_err(fail)?;
        Ok(DeviceImage {
            path: path.to_owned(),
            bytes,
            elf,
            machine,
            kernels,
            non_kernels,
            wrapped,
        })
    }

    /// The raw ELF the runtime loads (inside the OffloadBinary if wrapped).
    pub fn elf(&self) -> &[u8] {
        &self.bytes[self.elf.clone()]
    }

    /// Kernel names of the image, sorted.
    pub fn kernels(&self) -> &[String] {
        &self.kernels
    }

    pub fn has_kernel(&self, name: &str) -> bool {
        self.kernels
            .binary_search_by(|k| k.as_str().cmp(name))
            .is_ok()
    }

    /// `Ok` when `name` can be launched from this image.
    pub fn check_kernel(&self, name: &str) -> Result<(), MissingKernel> {
        if self.has_kernel(name) {
            return Ok(());
        }
        Err(MissingKernel {
            kernel: name.to_owned(),
            path: self.path.clone(),
            no_descriptor: self.non_kernels.binary_search_by(|k| k.as_str().cmp(name)).is_ok(),
            kernels: self.kernels.clone(),
        })
    }
}

/// `OffloadBinary` magic bytes (`0x10FF10AD`).
pub const OFFLOAD_BINARY_MAGIC: [u8; 4] = [0x10, 0xFF, 0x10, 0xAD];

/// `llvm::object::OffloadBinary::Header` (version 1), little-endian.
#[derive(Clone, Copy)]
#[repr(C)]
struct OffloadHeader {
    magic: [u8; 4],
    version: U32<LE>,
    size: U64<LE>,
    entry_offset: U64<LE>,
    entry_size: U64<LE>,
}

/// `llvm::object::OffloadBinary::Entry`. Only the image range is read; the
/// rest is spelled out because the layout must match the file.
#[derive(Clone, Copy)]
#[allow(dead_code)]
#[repr(C)]
struct OffloadEntryHeader {
    image_kind: U16<LE>,
    offload_kind: U16<LE>,
    flags: U32<LE>,
    string_offset: U64<LE>,
    num_strings: U64<LE>,
    image_offset: U64<LE>,
    image_size: U64<LE>,
}

// SAFETY: both are plain byte arrays with no padding and alignment 1.
unsafe impl Pod for OffloadHeader {}
// SAFETY: as above.
unsafe impl Pod for OffloadEntryHeader {}

/// The byte range of the one image inside `bytes`, a file that starts with
/// an OffloadBinary. `llvm-offload-binary` concatenates one OffloadBinary per
/// image, so several headers mean several images: refused, because the
/// registration describes exactly one image.
fn inner_image(bytes: &[u8]) -> Result<Range<usize>, String> {
    let mut binaries = Vec::new();
    let mut offset = 0usize;
    while offset < bytes.len() {
        let rest = &bytes[offset..];
        if rest.iter().all(|&b| b == 0) {
            break; // alignment padding after the last binary
        }
        let (header, _) = from_bytes::<OffloadHeader>(rest)
            .map_err(|()| format!("has a truncated OffloadBinary header at offset {offset}"))?;
        if header.magic != OFFLOAD_BINARY_MAGIC {
            return Err(format!(
                "has data that is not an OffloadBinary at offset {offset}"
            ));
        }
        let version = header.version.get(LE);
        if version != 1 {
            return Err(format!(
                "is an OffloadBinary of version {version}; version 1 is supported"
            ));
        }
        let size = usize::try_from(header.size.get(LE)).unwrap_or(usize::MAX);
        if size < std::mem::size_of::<OffloadHeader>() || size > rest.len() {
            return Err(format!(
                "is a truncated OffloadBinary (header says {} bytes, {} present)",
                header.size.get(LE),
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
            let image = image_of(&bytes[one.clone()])?;
            Ok(one.start + image.start..one.start + image.end)
        }
        many => Err(format!(
            "is an OffloadBinary holding {} images; exactly one is supported (pass one image, e.g. the ELF itself)",
            many.len()
        )),
    }
}

/// The image range of one OffloadBinary, relative to its start.
fn image_of(binary: &[u8]) -> Result<Range<usize>, String> {
    let (header, _) = from_bytes::<OffloadHeader>(binary)
        .map_err(|()| "has a truncated OffloadBinary header".to_owned())?;
    let at = |offset: u64| usize::try_from(offset).ok().filter(|&o| o <= binary.len());
    let entry_at =
        at(header.entry_offset.get(LE)).ok_or("has an OffloadBinary entry outside the file")?;
    let (entry, _) = from_bytes::<OffloadEntryHeader>(&binary[entry_at..])
        .map_err(|()| "has a truncated OffloadBinary entry".to_owned())?;
    let start = at(entry.image_offset.get(LE));
    let end = entry
        .image_offset
        .get(LE)
        .checked_add(entry.image_size.get(LE))
        .and_then(at);
    match (start, end) {
        (Some(start), Some(end)) if end > start => Ok(start..end),
        (Some(_), Some(_)) => {
            Err("is an OffloadBinary holding no image (its image is empty)".into())
        }
        _ => Err("has an OffloadBinary image outside the file".into()),
    }
}

type Kernels = (Machine, Vec<String>, Vec<String>);

/// Validates the ELF and lists its kernels (and, for AMDGPU, the function
/// symbols that lack a `.kd` descriptor).
fn read_elf(data: &[u8], inside: bool) -> Result<Kernels, ImageProblem> {
    match FileKind::parse(data) {
        Ok(FileKind::Elf64) => {}
        Ok(FileKind::Elf32) => return Err(ImageProblem::Elf32 { inside }),
        _ => return Err(ImageProblem::NotElf { inside }),
    }
    let file = ElfFile64::<Endianness>::parse(data).map_err(|e| ImageProblem::InvalidElf {
        inside,
        why: e.to_string(),
    })?;
    let header = file.elf_header();
    let endian = file.endian();
    if endian != Endianness::Little {
        return Err(ImageProblem::BigEndian { inside });
    }
    let e_machine = header.e_machine(endian);
    let machine = Machine::from_elf(e_machine).ok_or(ImageProblem::Machine {
        inside,
        e_machine: e_machine.0,
    })?;
    let e_type = header.e_type(endian);
    if machine != Machine::Cuda && e_type != elf::ET_DYN {
        return Err(ImageProblem::NotShared {
            inside,
            e_type: e_type.0,
        });
    }
    let (kernels, non_kernels) = kernel_symbols(&file, machine);
    Ok((machine, kernels, non_kernels))
}

/// Kernel names by machine: the host plugin `dlsym`s, so x86_64 kernels are
/// the exported (dynamic) functions; AMDGPU kernels are the functions with a
/// `K.kd` descriptor object; cubin kernels are the global functions.
fn kernel_symbols(
    file: &ElfFile64<'_, Endianness>,
    machine: Machine,
) -> (Vec<String>, Vec<String>) {
    let defined = |symbols: object::read::elf::ElfSymbolIterator<'_, '_, _, _>,
                   kind: SymbolKind| {
        symbols
            .filter(|s| s.is_definition() && s.kind() == kind && (s.is_global() || s.is_weak()))
            .filter_map(|s| s.name().ok().map(str::to_owned))
            .collect::<Vec<String>>()
    };
    let mut functions = match machine {
        Machine::X86_64 => defined(file.dynamic_symbols(), SymbolKind::Text),
        Machine::Amdgpu | Machine::Cuda => {
            let mut all = defined(file.symbols(), SymbolKind::Text);
            all.extend(defined(file.dynamic_symbols(), SymbolKind::Text));
            all
        }
    };
    functions.sort();
    functions.dedup();
    if machine != Machine::Amdgpu {
        return (functions, Vec::new());
    }
    let mut descriptors = defined(file.symbols(), SymbolKind::Data);
    descriptors.extend(defined(file.dynamic_symbols(), SymbolKind::Data));
    let has_descriptor = |f: &String| descriptors.iter().any(|d| d.strip_suffix(".kd") == Some(f));
    functions.into_iter().partition(has_descriptor)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::test_support::{build_image, offload_binary};

    const KERNELS: &str = r#"
define void @alpha(ptr %d, ptr %a) { ret void }
define void @beta(ptr %d) { ret void }
define internal void @hidden() { ret void }
"#;

    fn problem(result: Result<DeviceImage, ImageError>) -> ImageProblem {
        result.unwrap_err().problem
    }

    #[test]
    fn x86_64_shared_object_lists_exported_functions() {
        let path = build_image("x86_64-unknown-linux-gnu", KERNELS, true);
        let image = DeviceImage::load(Path::new(&path)).unwrap();
        assert_eq!(image.machine, Machine::X86_64);
        assert_eq!(image.kernels(), ["alpha", "beta"]);
        assert!(!image.wrapped);
        assert_eq!(image.elf(), std::fs::read(&path).unwrap());
        image.check_kernel("alpha").unwrap();
        let missing = image.check_kernel("gamma").unwrap_err();
        assert!(!missing.no_descriptor);
        assert_eq!(missing.kernels, ["alpha", "beta"]);
    }

    #[test]
    fn amdgpu_kernels_need_a_descriptor() {
        let ir = r#"
define amdgpu_kernel void @k(ptr addrspace(1) %a) { ret void }
define void @helper() { ret void }
"#;
        let path = build_image("amdgcn-amd-amdhsa", ir, true);
        let image = DeviceImage::load(Path::new(&path)).unwrap();
        assert_eq!(image.machine, Machine::Amdgpu);
        assert_eq!(image.kernels(), ["k"]);
        assert!(image.check_kernel("helper").unwrap_err().no_descriptor);
    }

    #[test]
    fn offload_binary_points_at_the_inner_elf() {
        let path = build_image("x86_64-unknown-linux-gnu", KERNELS, true);
        let elf = std::fs::read(&path).unwrap();
        let image = DeviceImage::from_bytes("w.bin", offload_binary(&[&elf])).unwrap();
        assert!(image.wrapped);
        assert_eq!(image.elf(), elf.as_slice());
        assert_eq!(image.kernels(), ["alpha", "beta"]);

        let offload_binary_problem = |bytes| match problem(DeviceImage::from_bytes("w.bin", bytes)) {
            ImageProblem::OffloadBinary { what } => what,
            other => panic!("not an OffloadBinary problem: {other:?}"),
        };
        assert!(offload_binary_problem(offload_binary(&[&elf, &elf])).contains("holding 2 images"));
        assert!(offload_binary_problem(offload_binary(&[b""])).contains("holding no image"));
        assert_eq!(
            problem(DeviceImage::from_bytes("w.bin", offload_binary(&[b"not elf"]))),
            ImageProblem::NotElf { inside: true }
        );
        let mut truncated = offload_binary(&[&elf]);
        truncated.truncate(100);
        assert!(offload_binary_problem(truncated).starts_with("is a truncated OffloadBinary"));
    }

    #[test]
    fn rejects_missing_empty_foreign_and_unlinked_files() {
        assert!(matches!(
            problem(DeviceImage::load(Path::new("/nonexistent/k.so"))),
            ImageProblem::Unreadable { .. }
        ));
        assert_eq!(problem(DeviceImage::from_bytes("e.so", Vec::new())), ImageProblem::Empty);
        assert_eq!(
            problem(DeviceImage::from_bytes("t.txt", b"hello".to_vec())),
            ImageProblem::NotElf { inside: false }
        );
        let object = build_image("x86_64-unknown-linux-gnu", KERNELS, false);
        assert_eq!(
            problem(DeviceImage::load(Path::new(&object))),
            ImageProblem::NotShared { inside: false, e_type: 1 }
        );
        let arm = build_image("aarch64-unknown-linux-gnu", KERNELS, true);
        assert_eq!(
            problem(DeviceImage::load(Path::new(&arm))),
            ImageProblem::Machine { inside: false, e_machine: 183 }
        );
    }
}
