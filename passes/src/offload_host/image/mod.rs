//! Reading the linked device image: which machine it is for, which kernels
//! it holds, what it says about their parameters ([`kernel_info`]), and the
//! OffloadBinary the registration embeds.
//!
//! Accepted inputs: an ELF64 little-endian image for one of the machines
//! libomptarget 22 has a plugin for — an x86_64 shared object (the host
//! plugin `dlopen`s it), an AMDGPU HSA code object, an NVPTX cubin — or
//! nvptx64 LLVM bitcode (the CUDA plugin compiles it on load), either bare
//! or wrapped in one LLVM `OffloadBinary` (magic `0x10FF10AD`, as
//! `llvm-offload-binary` writes it). The runtime tells ELF from bitcode by
//! the first bytes and never looks inside an OffloadBinary, so
//! [`DeviceImage::elf`] is always the inner image, never an OffloadBinary
//! header.
//!
//! By concept: [`elf`] (header checks and kernel symbols, with the `object`
//! crate), [`cubin`] (a cubin's architecture and the `arch` parameter),
//! [`bitcode`] (nvptx64 bitcode, read by LLVM), [`offload_binary`] (the
//! small OffloadBinary format, read and written).
//!
//! The digest of the images a program embeds (the v2 launch descriptor's
//! word 1, the suffix of the embedded globals) is the set's:
//! [`super::image_set`].

mod bitcode;
mod cubin;
mod elf;
pub mod kernel_info;
mod offload_binary;

pub use bitcode::BitcodeProblem;
pub use cubin::{ArchProblem, CudaArch, HeaderProblem};

use std::collections::BTreeMap;
use std::ops::Range;

use self::kernel_info::AmdgpuMetadata;
use crate::kernel_manifest::KernelManifest;

/// The device the image is for, by ELF `e_machine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Machine {
    /// `EM_X86_64`: libomptarget's host plugin (runs kernels on the CPU).
    X86_64,
    /// `EM_AMDGPU`: an HSA code object; each kernel `K` has a descriptor `K.kd`.
    Amdgpu,
    /// `EM_CUDA`: an NVPTX cubin; its kernels are the `.entry` functions.
    Cuda,
    /// nvptx64 LLVM bitcode, which libomptarget's CUDA plugin compiles for
    /// the GPU it finds (and assembles with the `ptxas` on `PATH`).
    NvptxBitcode,
}

/// Why an image cannot be used. `Display` names the image by its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageError {
    pub path: String,
    pub problem: ImageProblem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageProblem {
    Unreadable {
        why: String,
    },
    Empty,
    /// An OffloadBinary that does not hold exactly one sound image; the
    /// text says what (truncated, wrong version, several images, ...).
    OffloadBinary {
        what: String,
    },
    /// Neither ELF nor bitcode (nor, outside, an OffloadBinary).
    NotElf {
        inside: bool,
    },
    Elf32 {
        inside: bool,
    },
    InvalidElf {
        inside: bool,
        why: String,
    },
    BigEndian {
        inside: bool,
    },
    Machine {
        inside: bool,
        e_machine: u16,
    },
    NotShared {
        inside: bool,
        e_type: u16,
    },
    /// A kernel manifest or AMDGPU metadata note that cannot be read; the
    /// text says what.
    KernelInfo {
        what: String,
    },
    /// A cubin libomptarget would not load.
    Cubin {
        inside: bool,
        problem: HeaderProblem,
    },
    /// Bitcode that is not a usable nvptx64 image.
    Bitcode {
        inside: bool,
        problem: BitcodeProblem,
    },
    /// The image does not fit the `arch` parameter.
    Arch {
        wanted: CudaArch,
        problem: ArchProblem,
    },
}

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = &self.path;
        let inside = |inside: &bool| {
            if *inside {
                " inside the OffloadBinary"
            } else {
                ""
            }
        };
        match &self.problem {
            ImageProblem::Unreadable { why } => write!(f, "cannot read image '{path}': {why}"),
            ImageProblem::Empty => write!(f, "image '{path}' is empty"),
            ImageProblem::OffloadBinary { what } => write!(f, "image '{path}' {what}"),
            ImageProblem::NotElf { inside: true } => write!(
                f,
                "image '{path}' holds an image that is neither ELF nor LLVM bitcode inside the OffloadBinary"
            ),
            ImageProblem::NotElf { inside: false } => {
                write!(
                    f,
                    "image '{path}' is neither an ELF file, LLVM bitcode nor an OffloadBinary"
                )
            }
            ImageProblem::Elf32 { inside: i } => {
                write!(
                    f,
                    "image '{path}' holds a 32-bit ELF{}; a 64-bit device image is needed",
                    inside(i)
                )
            }
            ImageProblem::InvalidElf { inside: i, why } => {
                write!(
                    f,
                    "image '{path}' is not a valid ELF file{}: {why}",
                    inside(i)
                )
            }
            ImageProblem::BigEndian { inside: i } => {
                write!(
                    f,
                    "image '{path}' is a big-endian ELF{}; device images are little-endian",
                    inside(i)
                )
            }
            ImageProblem::Machine {
                inside: i,
                e_machine,
            } => write!(
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
            ImageProblem::Cubin { inside: i, problem } => {
                write!(f, "image '{path}' is a cubin{} {problem}", inside(i))
            }
            ImageProblem::Bitcode { inside: i, problem } => {
                write!(f, "image '{path}' is LLVM bitcode{} {problem}", inside(i))
            }
            ImageProblem::Arch { wanted, problem } => write!(f, "{}", problem.text(path, *wanted)),
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
    /// The function exists, but is no kernel: why.
    pub not_a_kernel: Option<NotAKernel>,
    pub kernels: Vec<String>,
}

/// Why a function of the image is no kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAKernel {
    /// AMDGPU: no kernel descriptor `K.kd`.
    NoDescriptor,
    /// A cubin device function (no `.entry`).
    DeviceFunction,
    /// A bitcode function that is not `ptx_kernel`.
    NotPtxKernel,
}

impl std::fmt::Display for MissingKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kernel, path) = (&self.kernel, &self.path);
        match self.not_a_kernel {
            Some(NotAKernel::NoDescriptor) => {
                write!(
                    f,
                    "'{kernel}' in image '{path}' has no kernel descriptor '{kernel}.kd'"
                )?;
            }
            Some(NotAKernel::DeviceFunction) => {
                write!(
                    f,
                    "'{kernel}' in image '{path}' is a device function, not a kernel (.entry)"
                )?;
            }
            Some(NotAKernel::NotPtxKernel) => {
                write!(
                    f,
                    "'{kernel}' in image '{path}' is a function, not a kernel (ptx_kernel)"
                )?;
            }
            None => write!(f, "kernel '{kernel}' is not in image '{path}'")?,
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
    /// Functions that are present but not launchable, sorted: AMDGPU
    /// functions without a kernel descriptor, cubin device functions (not
    /// `.entry`), defined bitcode functions that are not `ptx_kernel`.
    non_kernels: Vec<String>,
    /// The kernel manifests, by kernel symbol.
    pub manifests: BTreeMap<String, KernelManifest>,
    /// An AMDGPU code object's `.amdhsa.kernels`.
    pub amdgpu: Option<AmdgpuMetadata>,
    /// A cubin's architecture from its ELF header; `None` for other images.
    pub cuda: Option<CudaArch>,
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
            Some(
                offload_binary::find_image(&bytes)
                    .map_err(|what| fail(ImageProblem::OffloadBinary { what }))?,
            )
        } else {
            None
        };
        let elf = found.as_ref().map_or(0..bytes.len(), |f| f.image.clone());
        let read = read_image(&bytes[elf.clone()], found.is_some()).map_err(fail)?;
        let (triple, arch) = match &found {
            Some(f) if !f.triple.is_empty() => (f.triple.clone(), f.arch.clone()),
            _ => (read.machine.triple().to_owned(), read.arch),
        };
        Ok(DeviceImage {
            path: path.to_owned(),
            binary: found.map(|f| f.binary),
            bytes,
            elf,
            machine: read.machine,
            kernels: read.kernels,
            non_kernels: read.non_kernels,
            manifests: read.manifests,
            amdgpu: read.amdgpu,
            cuda: read.cuda,
            triple,
            arch,
        })
    }

    /// The image file's bytes, as read (what its digest is of).
    pub fn file(&self) -> &[u8] {
        &self.bytes
    }

    /// The raw image the runtime loads (inside the OffloadBinary if
    /// wrapped): the ELF, or the bitcode of a [`Machine::NvptxBitcode`] image.
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
            Machine::NvptxBitcode => offload_binary::IMAGE_KIND_BITCODE,
            Machine::X86_64 | Machine::Amdgpu => offload_binary::IMAGE_KIND_OBJECT,
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
        let present = self
            .non_kernels
            .binary_search_by(|k| k.as_str().cmp(name))
            .is_ok();
        Err(MissingKernel {
            kernel: name.to_owned(),
            path: self.path.clone(),
            not_a_kernel: present.then_some(match self.machine {
                Machine::Amdgpu => NotAKernel::NoDescriptor,
                Machine::Cuda => NotAKernel::DeviceFunction,
                Machine::NvptxBitcode | Machine::X86_64 => NotAKernel::NotPtxKernel,
            }),
            kernels: self.kernels.clone(),
        })
    }
}

impl Machine {
    /// The triple an OffloadBinary around a bare image of this machine names.
    fn triple(self) -> &'static str {
        match self {
            Machine::X86_64 => "x86_64-unknown-linux-gnu",
            Machine::Amdgpu => "amdgcn-amd-amdhsa",
            Machine::Cuda | Machine::NvptxBitcode => "nvptx64-nvidia-cuda",
        }
    }
}

/// Reads the inner image: bitcode by its magic, else an ELF.
fn read_image(data: &[u8], inside: bool) -> Result<elf::ReadElf, ImageProblem> {
    if !bitcode::is_bitcode(data) {
        return elf::read_elf(data, inside);
    }
    let read = bitcode::read(data).map_err(|problem| ImageProblem::Bitcode { inside, problem })?;
    Ok(elf::ReadElf {
        machine: Machine::NvptxBitcode,
        kernels: read.kernels,
        non_kernels: read.non_kernels,
        manifests: read.manifests,
        amdgpu: None,
        cuda: None,
        // The CUDA plugin compiles it for the GPU it finds.
        arch: "generic".to_owned(),
    })
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
        assert!(image.binary.is_none());
        assert_eq!(image.elf(), std::fs::read(&path).unwrap());
        image.check_kernel("alpha").unwrap();
        let missing = image.check_kernel("gamma").unwrap_err();
        assert_eq!(missing.not_a_kernel, None);
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
        assert_eq!(
            image.check_kernel("helper").unwrap_err().not_a_kernel,
            Some(NotAKernel::NoDescriptor)
        );
    }

    #[test]
    fn offload_binary_points_at_the_inner_elf() {
        let path = build_image("x86_64-unknown-linux-gnu", KERNELS, true);
        let elf = std::fs::read(&path).unwrap();
        let image = DeviceImage::from_bytes("w.bin", offload_binary(&[&elf])).unwrap();
        assert!(image.binary.is_some());
        assert_eq!(image.elf(), elf.as_slice());
        assert_eq!(image.kernels(), ["alpha", "beta"]);

        let offload_binary_problem = |bytes| match problem(DeviceImage::from_bytes("w.bin", bytes))
        {
            ImageProblem::OffloadBinary { what } => what,
            other => panic!("not an OffloadBinary problem: {other:?}"),
        };
        assert!(offload_binary_problem(offload_binary(&[&elf, &elf])).contains("holding 2 images"));
        assert!(offload_binary_problem(offload_binary(&[b""])).contains("holding no image"));
        assert_eq!(
            problem(DeviceImage::from_bytes(
                "w.bin",
                offload_binary(&[b"not elf"])
            )),
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
        assert_eq!(
            problem(DeviceImage::from_bytes("e.so", Vec::new())),
            ImageProblem::Empty
        );
        assert_eq!(
            problem(DeviceImage::from_bytes("t.txt", b"hello".to_vec())),
            ImageProblem::NotElf { inside: false }
        );
        let object = build_image("x86_64-unknown-linux-gnu", KERNELS, false);
        assert_eq!(
            problem(DeviceImage::load(Path::new(&object))),
            ImageProblem::NotShared {
                inside: false,
                e_type: 1
            }
        );
        let arm = build_image("aarch64-unknown-linux-gnu", KERNELS, true);
        assert_eq!(
            problem(DeviceImage::load(Path::new(&arm))),
            ImageProblem::Machine {
                inside: false,
                e_machine: 183
            }
        );
    }
}
