//! Reading the linked device image: which machine it is for, which kernels
//! it holds, what it says about their parameters ([`kernel_info`]), its
//! digest, and the OffloadBinary the registration embeds.
//!
//! Accepted inputs: an ELF64 little-endian image for one of the machines
//! libomptarget 22 has a plugin for — an x86_64 shared object (the host
//! plugin `dlopen`s it), an AMDGPU HSA code object, an NVPTX cubin — either
//! bare or wrapped in one LLVM `OffloadBinary` (magic `0x10FF10AD`, as
//! `llvm-offload-binary` writes it). The runtime needs the raw ELF, so
//! [`DeviceImage::elf`] is always the inner ELF, never an OffloadBinary header.
//!
//! ELF parsing and symbol tables come from the `object` crate; the small
//! OffloadBinary format is read and written in [`offload_binary`].
//!
//! The digest is the first 8 bytes of the file's SHA-256 as a
//! little-endian `u64` (the v2 launch descriptor's word 1); the embedded
//! globals are suffixed with it in hex, so every module built against one
//! image emits the same comdat.

use std::collections::BTreeMap;
use std::ops::Range;

use object::elf;
use object::read::elf::{ElfFile64, FileHeader, Sym};
use object::{Endianness, FileKind, Object, ObjectSymbol, SymbolKind};
use sha2::{Digest, Sha256};

use super::kernel_info::{self, AmdgpuMetadata};
use super::offload_binary;
use crate::kernel_manifest::KernelManifest;

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
    /// A kernel manifest or AMDGPU metadata note that cannot be read; the
    /// text says what.
    KernelInfo { what: String },
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
            ImageProblem::KernelInfo { what } => write!(f, "image '{path}' {what}"),
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
    /// The OffloadBinary around the ELF in the file, if it was one.
    binary: Option<Range<usize>>,
    pub machine: Machine,
    /// Kernel names the image exports, sorted.
    kernels: Vec<String>,
    /// Function symbols without a kernel descriptor (AMDGPU only), sorted:
    /// present, but not launchable.
    non_kernels: Vec<String>,
    /// True when the file was an OffloadBinary around the ELF.
    pub wrapped: bool,
    /// The kernel manifests, by kernel symbol.
    pub manifests: BTreeMap<String, KernelManifest>,
    /// An AMDGPU code object's `.amdhsa.kernels`.
    pub amdgpu: Option<AmdgpuMetadata>,
    /// The first 8 bytes of the file's SHA-256, little-endian.
    pub digest: u64,
    /// The target triple and architecture (the OffloadBinary's strings, or
    /// derived from the ELF).
    pub triple: String,
    pub arch: String,
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
        let found = if bytes.starts_with(&offload_binary::MAGIC) {
            Some(offload_binary::find_image(&bytes).map_err(|what| fail(ImageProblem::OffloadBinary { what }))?)
        } else {
            None
        };
        let elf = found.as_ref().map_or(0..bytes.len(), |f| f.image.clone());
        let read = read_elf(&bytes[elf.clone()], found.is_some()).map_err(fail)?;
        let digest = digest(&bytes);
        let (triple, arch) = match &found {
            Some(f) if !f.triple.is_empty() => (f.triple.clone(), f.arch.clone()),
            _ => (read.machine.triple().to_owned(), read.arch),
        };
        Ok(DeviceImage {
            path: path.to_owned(),
            binary: found.map(|f| f.binary),
            wrapped: elf.start != 0,
            bytes,
            elf,
            machine: read.machine,
            kernels: read.kernels,
            non_kernels: read.non_kernels,
            manifests: read.manifests,
            amdgpu: read.amdgpu,
            digest,
            triple,
            arch,
        })
    }

    /// The raw ELF the runtime loads (inside the OffloadBinary if wrapped).
    pub fn elf(&self) -> &[u8] {
        &self.bytes[self.elf.clone()]
    }

    /// The image as an OffloadBinary, in three parts: what comes before the
    /// ELF (the ELF's offset in the binary is its length), the ELF, the
    /// padding after it. The file's own OffloadBinary, or one written around
    /// the bare ELF (without copying the ELF).
    pub fn offload_binary(&self) -> [std::borrow::Cow<'_, [u8]>; 3] {
        if let Some(binary) = &self.binary {
            return [
                self.bytes[binary.start..self.elf.start].into(),
                self.elf().into(),
                self.bytes[self.elf.end..binary.end].into(),
            ];
        }
        let image_kind = match self.machine {
            Machine::Cuda => offload_binary::IMAGE_KIND_CUBIN,
            _ => offload_binary::IMAGE_KIND_OBJECT,
        };
        let strings = offload_binary::Strings {
            image_kind,
            triple: &self.triple,
            arch: &self.arch,
        };
        let prefix = offload_binary::prefix(self.elf().len(), &strings);
        let padding = vec![0u8; offload_binary::padding(self.elf().len(), &prefix)];
        [prefix.into(), self.elf().into(), padding.into()]
    }

    /// The digest as the 16 hex digits that suffix the embedded globals.
    pub fn digest_suffix(&self) -> String {
        format!("{:016x}", self.digest)
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

/// The image digest: the first 8 bytes of SHA-256, as a little-endian u64.
pub fn digest(bytes: &[u8]) -> u64 {
    let hash = Sha256::digest(bytes);
    u64::from_le_bytes(hash[..8].try_into().expect("SHA-256 has 32 bytes"))
}

impl Machine {
    /// The triple an OffloadBinary around a bare image of this machine names.
    fn triple(self) -> &'static str {
        match self {
            Machine::X86_64 => "x86_64-unknown-linux-gnu",
            Machine::Amdgpu => "amdgcn-amd-amdhsa",
            Machine::Cuda => "nvptx64-nvidia-cuda",
        }
    }
}

/// What reading the ELF found.
struct ReadElf {
    machine: Machine,
    kernels: Vec<String>,
    non_kernels: Vec<String>,
    manifests: BTreeMap<String, KernelManifest>,
    amdgpu: Option<AmdgpuMetadata>,
    arch: String,
}

/// Validates the ELF and lists its kernels (and, for AMDGPU, the function
/// symbols that lack a `.kd` descriptor), manifests and kernarg metadata.
fn read_elf(data: &[u8], inside: bool) -> Result<ReadElf, ImageProblem> {
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
    let info = |what| ImageProblem::KernelInfo { what };
    let manifests = kernel_info::manifests(&file).map_err(info)?;
    let amdgpu = match machine {
        Machine::Amdgpu => kernel_info::amdgpu_metadata(&file).map_err(info)?,
        _ => None,
    };
    let arch = match machine {
        Machine::X86_64 => "generic".to_owned(),
        Machine::Amdgpu => amdgpu
            .as_ref()
            .and_then(|m| kernel_info::amdgpu_arch(&m.target))
            .unwrap_or("")
            .to_owned(),
        Machine::Cuda => format!("sm_{}", kernel_info::e_flags(&file) & 0xff),
    };
    Ok(ReadElf {
        machine,
        kernels,
        non_kernels,
        manifests,
        amdgpu,
        arch,
    })
}

/// Kernel names by machine: the host plugin `dlsym`s, so x86_64 kernels are
/// the exported (dynamic) functions; AMDGPU kernels are the functions with a
/// `K.kd` descriptor object; cubin kernels are the global functions marked
/// as entries (`st_other` bit `STO_CUDA_ENTRY`, 0x10), not device functions.
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
        Machine::Amdgpu => {
            let mut all = defined(file.symbols(), SymbolKind::Text);
            all.extend(defined(file.dynamic_symbols(), SymbolKind::Text));
            all
        }
        Machine::Cuda => file
            .symbols()
            .filter(|s| s.is_definition() && s.kind() == SymbolKind::Text && s.is_global())
            .filter(|s| s.elf_symbol().st_other().0 & STO_CUDA_ENTRY != 0)
            .filter_map(|s| s.name().ok().map(str::to_owned))
            .collect(),
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

/// A cubin symbol's `st_other` bit for a kernel entry.
const STO_CUDA_ENTRY: u8 = 0x10;

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
