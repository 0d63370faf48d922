//! nvptx64 LLVM bitcode images, which libomptarget 22's CUDA plugin takes
//! by their first bytes and compiles on load for the GPU it finds.
//!
//! The image is parsed by LLVM (the plugin runs inside it) in a context of
//! its own, dropped before the pass goes on. LLVM's bitcode reader can
//! crash on malformed input (single flipped bits do it), so the bytes are
//! first parsed in a forked child ([`crate::ir::isolate`]): a child that
//! crashes, exits or runs past [`PROBE_LIMIT`] makes the image an error, and
//! only bytes the child parsed without crashing are parsed here. Only nvptx64 bitcode is
//! accepted: it is the one kind the CUDA plugin both recognises (by the
//! triple's architecture) and can compile. Its kernels are the defined
//! `ptx_kernel` functions; its manifests are the initializers of the
//! `@__offload_manifest_<K>` globals `offload-wrap-kernels` added.

use std::collections::BTreeMap;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};

use std::time::Duration;

use super::kernel_info;
use crate::ir::Value;
use crate::ir::constants::constant_bytes;
use crate::ir::isolate::{Isolated, run_isolated};
use crate::ir::types::target_data;
use crate::kernel_manifest::{self, KernelManifest, SYMBOL_PREFIX};

/// The raw bitcode magic, `BC 0xC0DE`.
const RAW_MAGIC: [u8; 4] = *b"BC\xC0\xDE";
/// The bitcode wrapper header's magic, `0x0B17C0DE` little-endian.
const WRAPPER_MAGIC: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];

/// How long the child parsing the bitcode may take.
const PROBE_LIMIT: Duration = Duration::from_secs(60);

/// `CallingConv::PTX_Kernel`.
const PTX_KERNEL_CC: u32 = 71;

/// LLVM bitcode, raw or behind the wrapper header: the two forms LLVM's
/// `identify_magic` (and so libomptarget) takes for bitcode.
pub fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(&RAW_MAGIC) || bytes.starts_with(&WRAPPER_MAGIC)
}

/// Why a bitcode image cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BitcodeProblem {
    /// LLVM cannot read it; its message.
    Unreadable { why: String },
    /// LLVM's bitcode reader crashed (or hung) on it, in the child that
    /// parsed it first; how.
    CrashesReader { how: String },
    /// Not nvptx64 (empty: no triple at all).
    Triple { triple: String },
    /// No defined `ptx_kernel` function; the other defined external
    /// functions, sorted.
    NoKernels { functions: Vec<String> },
    /// A manifest global that does not hold a manifest; the text says what.
    Manifest { what: String },
}

impl std::fmt::Display for BitcodeProblem {
    /// Completes "image 'PATH' is LLVM bitcode[ inside the OffloadBinary] ...".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BitcodeProblem::Unreadable { why } => write!(f, "that LLVM cannot read: {why}"),
            BitcodeProblem::CrashesReader { how } => write!(
                f,
                "that is malformed: LLVM's bitcode reader {how} on it (in a child process that parsed it first)"
            ),
            BitcodeProblem::Triple { triple } => {
                if triple.is_empty() {
                    write!(f, "with no target triple")?;
                } else {
                    write!(f, "with triple '{triple}'")?;
                }
                write!(
                    f,
                    "; bitcode images must be nvptx64 (nvptx64-nvidia-cuda), which libomptarget's CUDA plugin compiles on load"
                )
            }
            BitcodeProblem::NoKernels { functions } => {
                write!(
                    f,
                    "for nvptx64 without kernels: it defines no ptx_kernel function"
                )?;
                if !functions.is_empty() {
                    write!(f, " (its functions: {})", functions.join(", "))?;
                }
                Ok(())
            }
            BitcodeProblem::Manifest { what } => write!(f, "{what}"),
        }
    }
}

/// What reading the bitcode found.
#[derive(Debug)]
pub struct ReadBitcode {
    /// Defined `ptx_kernel` functions, sorted.
    pub kernels: Vec<String>,
    /// Other defined, non-local functions, sorted: present, not launchable.
    pub non_kernels: Vec<String>,
    pub manifests: BTreeMap<String, KernelManifest>,
}

/// Parses `data` (in a child first, see the module docs) in a fresh context
/// and lists its kernels and manifests.
pub fn read(data: &[u8]) -> Result<ReadBitcode, BitcodeProblem> {
    probe(data)?;
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(data, "device image");
    let module = Module::parse_bitcode_from_buffer(&buffer, &context).map_err(|e| {
        BitcodeProblem::Unreadable {
            why: e.to_string().trim_end().to_owned(),
        }
    })?;
    let triple = module.get_triple().as_str().to_string_lossy().into_owned();
    if triple.split('-').next() != Some("nvptx64") {
        return Err(BitcodeProblem::Triple { triple });
    }
    let mut kernels = Vec::new();
    let mut non_kernels = Vec::new();
    for function in module.get_functions() {
        if function.count_basic_blocks() == 0 {
            continue;
        }
        let name = function.get_name().to_string_lossy().into_owned();
        if function.get_call_conventions() == PTX_KERNEL_CC {
            kernels.push(name);
        } else if !matches!(function.get_linkage(), Linkage::Internal | Linkage::Private) {
            non_kernels.push(name);
        }
    }
    kernels.sort();
    non_kernels.sort();
    if kernels.is_empty() {
        return Err(BitcodeProblem::NoKernels {
            functions: non_kernels,
        });
    }
    let manifests = manifests(&module)
        .and_then(|m| kernel_info::manifests_name_functions(&m, &kernels, &non_kernels).map(|()| m))
        .map_err(|what| BitcodeProblem::Manifest { what })?;
    Ok(ReadBitcode {
        kernels,
        non_kernels,
        manifests,
    })
}

/// What the child parsing `data` may map beyond the parent: 1 GiB and 64
/// bytes per byte of bitcode (a module takes a few times its bitcode).
fn probe_memory(data: &[u8]) -> u64 {
    (1u64 << 30).saturating_add(64 * data.len() as u64)
}

/// Parses `data` in a forked child: `Ok` when LLVM's reader returned there
/// (with a module or an error, which the parse here repeats).
fn probe(data: &[u8]) -> Result<(), BitcodeProblem> {
    let parse = || {
        let context = Context::create();
        let buffer = MemoryBuffer::create_from_memory_range_copy(data, "device image");
        Module::parse_bitcode_from_buffer(&buffer, &context).is_ok()
    };
    let how = match run_isolated(parse, probe_memory(data), PROBE_LIMIT) {
        Isolated::Returned(_) => return Ok(()),
        Isolated::Signal(signal) => format!("crashes (signal {signal})"),
        Isolated::Exited(status) => format!("exits the process (status {status})"),
        Isolated::Panicked => "panics".to_owned(),
        Isolated::TimedOut => format!("runs past {} s", PROBE_LIMIT.as_secs()),
        Isolated::CannotFork(errno) => {
            return Err(BitcodeProblem::Unreadable {
                why: format!(
                    "no child process to parse it in could be started (errno {errno}), and LLVM's reader is not run on unchecked bytes in this process"
                ),
            });
        }
    };
    Err(BitcodeProblem::CrashesReader { how })
}

/// The manifests of the module's `@__offload_manifest_<K>` globals, each
/// initializer's bytes parsed as the note a linked image would hold.
fn manifests(module: &Module<'_>) -> Result<BTreeMap<String, KernelManifest>, String> {
    let layout = target_data(module);
    let mut found = Vec::new();
    for global in module.get_globals() {
        let name = global.get_name().to_string_lossy().into_owned();
        if !name.starts_with(SYMBOL_PREFIX) {
            continue;
        }
        let Some(init) = global.get_initializer() else {
            return Err(format!(
                "has a kernel manifest '{name}' without an initializer"
            ));
        };
        let bytes = constant_bytes(Value::from(init), &layout).map_err(|e| {
            format!(
                "has a kernel manifest '{name}' that holds '{}' at byte {}",
                e.text, e.offset
            )
        })?;
        let what = |p: &dyn std::fmt::Display| format!("has a kernel manifest '{name}' that {p}");
        for manifest in kernel_manifest::parse_notes(&bytes).map_err(|p| what(&p))? {
            let manifest = manifest.map_err(|p| what(&p))?;
            let kernel = &name[SYMBOL_PREFIX.len()..];
            if manifest.name != kernel {
                return Err(what(&format_args!("names kernel '{}'", manifest.name)));
            }
            found.push(manifest);
        }
    }
    kernel_info::by_kernel(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offload_host::image::{DeviceImage, ImageProblem, Machine, NotAKernel};
    use crate::test_support::{offload_binary, parse, run_pass};

    const NVPTX_IR: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @zero(ptr %p) { ret void }
define ptx_kernel void @alpha(i32 %n) { ret void }
define void @helper() { ret void }
define internal void @local() { ret void }
declare ptx_kernel void @elsewhere(ptr)
"#;

    fn bitcode(ir: &str) -> Vec<u8> {
        let context = Context::create();
        let module = parse(&context, ir);
        module.write_bitcode_to_memory().as_slice().to_vec()
    }

    /// `ir` through offload-wrap-kernels, as bitcode.
    fn wrapped_bitcode(ir: &str) -> Vec<u8> {
        let (_, wrapped) =
            run_pass::<crate::offload_wrap_kernels::OffloadWrapKernels>("", ir).unwrap();
        bitcode(&wrapped)
    }

    /// `bitcode` behind the 20-byte wrapper header (magic, version, offset,
    /// size, CPU type).
    fn wrapper(bitcode: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for word in [
            0x0B17_C0DE_u32,
            0,
            20,
            u32::try_from(bitcode.len()).unwrap(),
            7,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(bitcode);
        out
    }

    fn problem(path: &str, bytes: Vec<u8>) -> ImageProblem {
        DeviceImage::from_bytes(path, bytes).unwrap_err().problem
    }

    #[test]
    fn kernels_are_the_ptx_kernels_with_their_manifests() {
        let bc = wrapped_bitcode(NVPTX_IR);
        assert!(is_bitcode(&bc));
        let image = DeviceImage::from_bytes("k.bc", bc.clone()).unwrap();
        assert_eq!(image.machine, Machine::NvptxBitcode);
        assert_eq!(image.kernels(), ["alpha", "zero"]);
        assert_eq!(image.elf(), bc.as_slice());
        assert_eq!(
            (image.triple.as_str(), image.arch.as_str()),
            ("nvptx64-nvidia-cuda", "generic")
        );
        assert_eq!(image.cuda, None);
        let alpha = &image.manifests["alpha"];
        assert_eq!(alpha.params.len(), 1);
        assert_eq!(alpha.params[0].text(), "i32");
        assert_eq!(
            image.manifests.keys().collect::<Vec<_>>(),
            ["alpha", "zero"]
        );
        let helper = image.check_kernel("helper").unwrap_err();
        assert_eq!(helper.not_a_kernel, Some(NotAKernel::NotPtxKernel));
        assert_eq!(
            helper.to_string(),
            "'helper' in image 'k.bc' is a function, not a kernel (ptx_kernel) (its kernels: alpha, zero)"
        );
        assert_eq!(image.check_kernel("local").unwrap_err().not_a_kernel, None);
        assert_eq!(
            image.check_kernel("elsewhere").unwrap_err().not_a_kernel,
            None
        );
    }

    #[test]
    fn wrapper_header_and_offload_binary_hold_the_same_image() {
        let bc = wrapped_bitcode(NVPTX_IR);
        let wrapped = wrapper(&bc);
        assert!(is_bitcode(&wrapped));
        let image = DeviceImage::from_bytes("w.bc", wrapped.clone()).unwrap();
        assert_eq!(image.kernels(), ["alpha", "zero"]);
        assert_eq!(image.elf(), wrapped.as_slice());
        let packed = DeviceImage::from_bytes("p.bin", offload_binary(&[&bc])).unwrap();
        assert!(packed.binary.is_some());
        assert_eq!(packed.machine, Machine::NvptxBitcode);
        assert_eq!(packed.elf(), bc.as_slice());
    }

    #[test]
    fn unwrapped_kernels_have_no_manifest() {
        let image = DeviceImage::from_bytes("k.bc", bitcode(NVPTX_IR)).unwrap();
        assert_eq!(image.kernels(), ["alpha", "zero"]);
        assert!(image.manifests.is_empty());
    }

    #[test]
    fn bitcode_without_kernels_is_refused() {
        let ir = "target triple = \"nvptx64-nvidia-cuda\"\ndefine void @helper() { ret void }\ndefine internal void @local() { ret void }\n";
        let refused = DeviceImage::from_bytes("n.bc", bitcode(ir)).unwrap_err();
        assert_eq!(
            refused.problem,
            ImageProblem::Bitcode {
                inside: false,
                problem: BitcodeProblem::NoKernels {
                    functions: vec!["helper".into()]
                }
            }
        );
        assert_eq!(
            refused.to_string(),
            "image 'n.bc' is LLVM bitcode for nvptx64 without kernels: it defines no ptx_kernel function (its functions: helper)"
        );
        let empty = bitcode("target triple = \"nvptx64-nvidia-cuda\"\n");
        assert_eq!(
            problem("e.bc", empty),
            ImageProblem::Bitcode {
                inside: false,
                problem: BitcodeProblem::NoKernels { functions: vec![] }
            }
        );
    }

    #[test]
    fn bitcode_for_other_targets_and_broken_bitcode_is_refused() {
        let x86 = bitcode(
            "target triple = \"x86_64-unknown-linux-gnu\"\ndefine void @k() { ret void }\n",
        );
        let refused = DeviceImage::from_bytes("x.bc", x86).unwrap_err();
        assert_eq!(
            refused.problem,
            ImageProblem::Bitcode {
                inside: false,
                problem: BitcodeProblem::Triple {
                    triple: "x86_64-unknown-linux-gnu".into()
                }
            }
        );
        assert_eq!(
            refused.to_string(),
            "image 'x.bc' is LLVM bitcode with triple 'x86_64-unknown-linux-gnu'; bitcode images must be nvptx64 (nvptx64-nvidia-cuda), which libomptarget's CUDA plugin compiles on load"
        );
        let none = bitcode("define void @k() { ret void }\n");
        assert_eq!(
            DeviceImage::from_bytes("n.bc", offload_binary(&[&none]))
                .unwrap_err()
                .to_string(),
            "image 'n.bc' is LLVM bitcode inside the OffloadBinary with no target triple; bitcode images must be nvptx64 (nvptx64-nvidia-cuda), which libomptarget's CUDA plugin compiles on load"
        );
        let nvptx32 = bitcode("target triple = \"nvptx-nvidia-cuda\"\n");
        assert_eq!(
            problem("32.bc", nvptx32),
            ImageProblem::Bitcode {
                inside: false,
                problem: BitcodeProblem::Triple {
                    triple: "nvptx-nvidia-cuda".into()
                }
            }
        );
        let mut broken = bitcode(NVPTX_IR);
        broken.truncate(40);
        assert!(matches!(
            problem("b.bc", broken),
            ImageProblem::Bitcode {
                inside: false,
                problem: BitcodeProblem::Unreadable { .. }
            }
        ));
    }

    #[test]
    fn a_manifest_that_is_no_note_is_refused() {
        let ir = "target triple = \"nvptx64-nvidia-cuda\"\n@__offload_manifest_k = global [16 x i8] c\"\\FF\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\"\ndefine ptx_kernel void @k() { ret void }\n";
        assert!(matches!(
            problem("m.bc", bitcode(ir)),
            ImageProblem::Bitcode {
                problem: BitcodeProblem::Manifest { .. },
                ..
            }
        ));
    }
}
