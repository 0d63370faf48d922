//! NVPTX cubins: the GPU architecture a cubin is for, read from its ELF
//! header with the checks libomptarget 22 makes before it loads one, the
//! `arch=sm_NN[a]` parameter that names the GPU a program is for, and which
//! GPUs a cubin runs on.
//!
//! The header (LLVM 22's `ELF.h`, libomptarget's `utils::elf::checkMachine`):
//! `EI_ABIVERSION` 7 keeps the SM in `e_flags` bits 0-7 (`EF_CUDA_SM`),
//! requires `EF_CUDA_64BIT_ADDRESS` (0x400) and an SM of at least 35, and
//! marks an accelerator variant (sm_90a) with 0x800; version 8 (CUDA 12.8 and
//! later, for Blackwell) keeps the SM in bits 8-15, requires sm_100 or later
//! and marks the variant with 0x8. Other versions are refused.
//!
//! Which GPU a cubin runs on (libomptarget's `CUDAPluginTy::isELFCompatible`):
//! one of the same major version (SM / 10) whose minor version (SM % 10) is
//! not below the cubin's. An accelerator variant runs on its own SM alone.

use super::{DeviceImage, ImageError, ImageProblem, Machine};

/// An NVIDIA GPU architecture, `sm_NN` or `sm_NNa`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CudaArch {
    /// `90` for sm_90.
    pub sm: u32,
    /// The accelerator variant (`sm_90a`): features of that GPU alone.
    pub accelerated: bool,
}

impl std::fmt::Display for CudaArch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "sm_{}{}",
            self.sm,
            if self.accelerated { "a" } else { "" }
        )
    }
}

impl CudaArch {
    /// Parses `sm_NN` or `sm_NNa` (as `ptxas -arch` takes it; NN from 10 to
    /// 999). `Err` says what is wrong, for the parameter's message.
    pub fn parse(text: &str) -> Result<CudaArch, String> {
        let bad = || format!("'{text}' is not an NVIDIA GPU architecture like sm_90 or sm_90a");
        let digits = text.strip_prefix("sm_").ok_or_else(bad)?;
        let (digits, accelerated) = match digits.strip_suffix('a') {
            Some(d) => (d, true),
            None => (digits, false),
        };
        if !(2..=3).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let sm: u32 = digits.parse().map_err(|_| bad())?;
        if sm < 10 {
            return Err(bad());
        }
        Ok(CudaArch { sm, accelerated })
    }

    /// Whether a cubin for `self` runs on a GPU of `gpu`.
    pub fn runs_on(self, gpu: CudaArch) -> bool {
        if self.accelerated {
            self.sm == gpu.sm
        } else {
            self.sm / 10 == gpu.sm / 10 && self.sm % 10 <= gpu.sm % 10
        }
    }

    /// The rule [`CudaArch::runs_on`] applies, in words.
    fn rule(self) -> String {
        if self.accelerated {
            format!("a cubin for {self} runs on sm_{} alone", self.sm)
        } else {
            let major = self.sm / 10;
            format!(
                "a cubin runs on GPUs of its major version with the same or a higher minor version (sm_{major}0..sm_{major}9)"
            )
        }
    }
}

/// A cubin header libomptarget 22 refuses to load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderProblem {
    /// ABI version 7 without `EF_CUDA_64BIT_ADDRESS`.
    Addressing32 { e_flags: u32 },
    /// ABI version 7 for an SM below 35.
    TooOld { sm: u32 },
    /// ABI version 8 for an SM below 100.
    TooOldForAbi8 { sm: u32 },
    /// An `EI_ABIVERSION` other than 7 or 8.
    AbiVersion { version: u8 },
}

impl std::fmt::Display for HeaderProblem {
    /// Completes "image 'PATH' is a cubin ...".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderProblem::Addressing32 { e_flags } => write!(
                f,
                "with 32-bit addressing (e_flags 0x{e_flags:x} lack EF_CUDA_64BIT_ADDRESS, 0x400); libomptarget loads 64-bit cubins only"
            ),
            HeaderProblem::TooOld { sm } => {
                write!(f, "for sm_{sm}; libomptarget loads sm_35 and later")
            }
            HeaderProblem::TooOldForAbi8 { sm } => write!(
                f,
                "of CUDA ELF ABI version 8 for sm_{sm}; libomptarget loads sm_100 and later in that version"
            ),
            HeaderProblem::AbiVersion { version } => write!(
                f,
                "of CUDA ELF ABI version {version}; libomptarget knows versions 7 and 8"
            ),
        }
    }
}

/// `EF_CUDA_64BIT_ADDRESS`.
const EF_CUDA_64BIT_ADDRESS: u32 = 0x400;
/// `EF_CUDA_ACCELERATORS_V1` (ABI version 7).
const EF_CUDA_ACCELERATORS_V1: u32 = 0x800;
/// `EF_CUDA_ACCELERATORS` (ABI version 8).
const EF_CUDA_ACCELERATORS: u32 = 0x8;

/// The architecture of a cubin from its `EI_ABIVERSION` and `e_flags`,
/// checked as libomptarget checks them.
pub fn arch_from_header(abi_version: u8, e_flags: u32) -> Result<CudaArch, HeaderProblem> {
    match abi_version {
        7 => {
            let sm = e_flags & 0xff;
            if e_flags & EF_CUDA_64BIT_ADDRESS == 0 {
                Err(HeaderProblem::Addressing32 { e_flags })
            } else if sm < 35 {
                Err(HeaderProblem::TooOld { sm })
            } else {
                Ok(CudaArch {
                    sm,
                    accelerated: e_flags & EF_CUDA_ACCELERATORS_V1 != 0,
                })
            }
        }
        8 => {
            let sm = (e_flags >> 8) & 0xff;
            if sm < 100 {
                Err(HeaderProblem::TooOldForAbi8 { sm })
            } else {
                Ok(CudaArch {
                    sm,
                    accelerated: e_flags & EF_CUDA_ACCELERATORS != 0,
                })
            }
        }
        version => Err(HeaderProblem::AbiVersion { version }),
    }
}

/// Why an image does not fit the `arch` parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchProblem {
    /// A cubin for `image` cannot run on the `arch` GPU.
    CannotRun { image: CudaArch },
    /// The image is for no NVIDIA GPU.
    NotNvptx { machine: Machine },
}

impl ArchProblem {
    /// The message, completing "image 'PATH' ..." or naming it itself.
    pub fn text(&self, path: &str, wanted: CudaArch) -> String {
        match self {
            ArchProblem::CannotRun { image } => format!(
                "image '{path}' is a cubin for {image}, which cannot run on {wanted} (parameter 'arch'): {}; assemble it with `ptxas -arch={wanted}`, or pass nvptx64 bitcode, which the runtime compiles for the GPU it finds",
                image.rule()
            ),
            ArchProblem::NotNvptx { machine } => format!(
                "parameter 'arch={wanted}' is for NVPTX images; image '{path}' is for {}",
                match machine {
                    Machine::X86_64 => "x86_64 (libomptarget's host plugin)",
                    _ => "AMDGPU",
                }
            ),
        }
    }
}

impl DeviceImage {
    /// `Ok` when the image can run on a GPU of `wanted` (the `arch`
    /// parameter): a cubin by [`CudaArch::runs_on`]; nvptx64 bitcode always
    /// (the runtime compiles it for the GPU it finds); any other image is for
    /// no NVIDIA GPU, an error.
    pub fn check_arch(&self, wanted: CudaArch) -> Result<(), ImageError> {
        let problem = match (self.machine, self.cuda) {
            (Machine::NvptxBitcode, _) => return Ok(()),
            (Machine::Cuda, Some(image)) if image.runs_on(wanted) => return Ok(()),
            (Machine::Cuda, Some(image)) => ArchProblem::CannotRun { image },
            (machine, _) => ArchProblem::NotNvptx { machine },
        };
        Err(ImageError {
            path: self.path.clone(),
            problem: ImageProblem::Arch { wanted, problem },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offload_host::image::{ImageProblem, MissingKernel, NotAKernel};
    use crate::test_support::{build_image, offload_binary};

    /// `testdata/kernels.sm_90.cubin` (source and commands: `kernels.ll`).
    const CUBIN: &[u8] = include_bytes!("../../../testdata/kernels.sm_90.cubin");

    /// The fixture with another `EI_ABIVERSION` and `e_flags`.
    fn cubin_with(abi_version: u8, e_flags: u32) -> Vec<u8> {
        let mut bytes = CUBIN.to_vec();
        bytes[8] = abi_version;
        bytes[48..52].copy_from_slice(&e_flags.to_le_bytes());
        bytes
    }

    const fn arch(sm: u32, accelerated: bool) -> CudaArch {
        CudaArch { sm, accelerated }
    }

    fn load(bytes: Vec<u8>) -> Result<DeviceImage, ImageProblem> {
        DeviceImage::from_bytes("k.cubin", bytes).map_err(|e| e.problem)
    }

    #[test]
    fn cubin_kernels_are_the_entry_functions() {
        let image = load(CUBIN.to_vec()).unwrap();
        assert_eq!(image.machine, Machine::Cuda);
        assert_eq!(image.kernels(), ["scale", "zero"]);
        assert_eq!(image.cuda, Some(arch(90, false)));
        assert_eq!(image.arch, "sm_90");
        assert_eq!(
            image.manifests.keys().collect::<Vec<_>>(),
            ["scale", "zero"]
        );
        image.check_kernel("zero").unwrap();
        let helper = image.check_kernel("$scale$helper").unwrap_err();
        assert_eq!(helper.not_a_kernel, Some(NotAKernel::DeviceFunction));
        assert_eq!(
            helper.to_string(),
            "'$scale$helper' in image 'k.cubin' is a device function, not a kernel (.entry) (its kernels: scale, zero)"
        );
        assert_eq!(
            image.check_kernel("helper").unwrap_err(),
            MissingKernel {
                kernel: "helper".into(),
                path: "k.cubin".into(),
                not_a_kernel: None,
                kernels: vec!["scale".into(), "zero".into()],
            }
        );
        let wrapped = DeviceImage::from_bytes("w.bin", offload_binary(&[CUBIN])).unwrap();
        assert!(wrapped.binary.is_some());
        assert_eq!(wrapped.elf(), CUBIN);
        assert_eq!(wrapped.kernels(), ["scale", "zero"]);
    }

    #[test]
    fn cubin_sm_from_the_header_as_libomptarget_checks_it() {
        let sm = |abi, flags| load(cubin_with(abi, flags)).map(|i| i.cuda.unwrap());
        // 0x5a055a: sm_90, unified textures, 64-bit addressing, virtual sm_90.
        assert_eq!(sm(7, 0x5a_055a), Ok(arch(90, false)));
        assert_eq!(sm(7, 0x5a_0d5a), Ok(arch(90, true)));
        assert_eq!(sm(7, 0x50_0550), Ok(arch(80, false)));
        assert_eq!(sm(8, 0x6400), Ok(arch(100, false)));
        assert_eq!(sm(8, 0x6408), Ok(arch(100, true)));
        let cubin = |problem| ImageProblem::Cubin {
            inside: false,
            problem,
        };
        assert_eq!(
            sm(8, 0x5a00),
            Err(cubin(HeaderProblem::TooOldForAbi8 { sm: 90 }))
        );
        assert_eq!(
            sm(7, 0x5a_015a),
            Err(cubin(HeaderProblem::Addressing32 { e_flags: 0x5a_015a }))
        );
        assert_eq!(
            sm(7, 0x1e_051e),
            Err(cubin(HeaderProblem::TooOld { sm: 30 }))
        );
        assert_eq!(
            sm(9, 0x5a_055a),
            Err(cubin(HeaderProblem::AbiVersion { version: 9 }))
        );
        let inside = DeviceImage::from_bytes("w.bin", offload_binary(&[&cubin_with(6, 0x5a_055a)]))
            .unwrap_err();
        assert_eq!(
            inside.to_string(),
            "image 'w.bin' is a cubin inside the OffloadBinary of CUDA ELF ABI version 6; libomptarget knows versions 7 and 8"
        );
        assert_eq!(
            DeviceImage::from_bytes("k.cubin", cubin_with(7, 0x5a_015a))
                .unwrap_err()
                .to_string(),
            "image 'k.cubin' is a cubin with 32-bit addressing (e_flags 0x5a015a lack EF_CUDA_64BIT_ADDRESS, 0x400); libomptarget loads 64-bit cubins only"
        );
    }

    #[test]
    fn truncated_cubins_are_invalid_elf() {
        for len in [16, 64, 1000, CUBIN.len() - 1] {
            let problem = load(CUBIN[..len].to_vec()).unwrap_err();
            assert!(
                matches!(problem, ImageProblem::InvalidElf { inside: false, .. }),
                "{len} bytes: {problem:?}"
            );
        }
    }

    #[test]
    fn arch_checks_what_a_cubin_can_run_on() {
        let image = load(CUBIN.to_vec()).unwrap();
        image.check_arch(arch(90, false)).unwrap();
        image.check_arch(arch(90, true)).unwrap();
        image.check_arch(arch(91, false)).unwrap(); // same major, higher minor
        let error = image.check_arch(arch(80, false)).unwrap_err();
        assert_eq!(
            error.problem,
            ImageProblem::Arch {
                wanted: arch(80, false),
                problem: ArchProblem::CannotRun {
                    image: arch(90, false)
                }
            }
        );
        assert_eq!(
            error.to_string(),
            "image 'k.cubin' is a cubin for sm_90, which cannot run on sm_80 (parameter 'arch'): a cubin runs on GPUs of its major version with the same or a higher minor version (sm_90..sm_99); assemble it with `ptxas -arch=sm_80`, or pass nvptx64 bitcode, which the runtime compiles for the GPU it finds"
        );
        assert!(image.check_arch(arch(100, false)).is_err());
        let sm89 = load(cubin_with(7, 0x59_0559)).unwrap();
        sm89.check_arch(arch(89, false)).unwrap();
        assert!(sm89.check_arch(arch(86, false)).is_err()); // a lower minor
        let accelerated = DeviceImage::from_bytes("a.cubin", cubin_with(7, 0x5a_0d5a)).unwrap();
        accelerated.check_arch(arch(90, false)).unwrap();
        assert_eq!(
            accelerated
                .check_arch(arch(91, false))
                .unwrap_err()
                .to_string(),
            "image 'a.cubin' is a cubin for sm_90a, which cannot run on sm_91 (parameter 'arch'): a cubin for sm_90a runs on sm_90 alone; assemble it with `ptxas -arch=sm_91`, or pass nvptx64 bitcode, which the runtime compiles for the GPU it finds"
        );
    }

    #[test]
    fn arch_on_an_image_for_no_nvidia_gpu_is_an_error() {
        let path = build_image(
            "x86_64-unknown-linux-gnu",
            "define void @k(ptr %d) { ret void }\n",
            true,
        );
        let host = DeviceImage::load(std::path::Path::new(&path)).unwrap();
        let error = host.check_arch(arch(90, false)).unwrap_err();
        assert_eq!(
            error.problem,
            ImageProblem::Arch {
                wanted: arch(90, false),
                problem: ArchProblem::NotNvptx {
                    machine: Machine::X86_64
                }
            }
        );
        assert_eq!(
            error.to_string(),
            format!(
                "parameter 'arch=sm_90' is for NVPTX images; image '{path}' is for x86_64 (libomptarget's host plugin)"
            )
        );
    }

    #[test]
    fn parses_cuda_arch_names() {
        assert_eq!(CudaArch::parse("sm_90"), Ok(arch(90, false)));
        assert_eq!(CudaArch::parse("sm_90a"), Ok(arch(90, true)));
        assert_eq!(CudaArch::parse("sm_100"), Ok(arch(100, false)));
        assert_eq!(arch(120, true).to_string(), "sm_120a");
        for bad in [
            "90",
            "sm90",
            "sm_",
            "sm_9",
            "sm_09",
            "sm_x0",
            "sm_90b",
            "sm_1000",
            "compute_90",
            "sm_+90",
        ] {
            assert_eq!(
                CudaArch::parse(bad).unwrap_err(),
                format!("'{bad}' is not an NVIDIA GPU architecture like sm_90 or sm_90a")
            );
        }
    }
}
