//! What an image says about its kernels' parameters: the kernel manifests
//! `offload-wrap-kernels` recorded (notes in `SHT_NOTE` sections, or, in a
//! cubin, the bytes of the `__offload_manifest_<K>` symbols), and for AMDGPU
//! code objects the kernarg layout of `.amdhsa.kernels` (msgpack in the
//! `NT_AMDGPU_METADATA` note), which clang's kernels carry too.

use std::collections::BTreeMap;

use object::read::elf::{ElfFile64, SectionHeader};
use object::{Endianness, Object, ObjectSection, ObjectSymbol};

use crate::kernel_manifest::{self, KernelManifest, SYMBOL_PREFIX};

/// One explicit kernel argument of `.amdhsa.kernels` (hidden ones left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernarg {
    pub offset: u64,
    pub size: u64,
    /// `.value_kind`: `global_buffer`, `by_value`, ...
    pub value_kind: String,
}

impl Kernarg {
    pub fn text(&self) -> String {
        format!(
            "{}-byte {} at offset {}",
            self.size, self.value_kind, self.offset
        )
    }
}

/// One kernel of `.amdhsa.kernels`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmdgpuKernel {
    /// Its explicit arguments in order.
    pub args: Vec<Kernarg>,
    /// Whether the image defines `<K>_kernel_environment`, the global clang
    /// emits for each OpenMP target kernel (and libomptarget reads): what
    /// tells a kernel that takes libomptarget's leading dyn pointer from a
    /// HIP kernel, whose kernargs may look the same (`axpy(x, y)`).
    pub openmp: bool,
}

/// The AMDGPU code object metadata this pass uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmdgpuMetadata {
    /// `amdhsa.target`, e.g. `amdgcn-amd-amdhsa--gfx90a`.
    pub target: String,
    /// Per kernel symbol (`.name`).
    pub kernels: BTreeMap<String, AmdgpuKernel>,
}

/// The suffix of clang's OpenMP kernel environment globals.
pub const KERNEL_ENVIRONMENT_SUFFIX: &str = "_kernel_environment";

/// `NT_AMDGPU_METADATA` and its owner.
const AMDGPU_NOTE_TYPE: u32 = 32;
const AMDGPU_NOTE_OWNER: &[u8] = b"AMDGPU\0";

/// The name and bytes of every `SHT_NOTE` section; a section whose bytes
/// are not in the file is an error (the text completes "image 'PATH' ...").
fn note_sections<'d>(file: &ElfFile64<'d, Endianness>) -> Result<Vec<(String, &'d [u8])>, String> {
    let endian = file.endian();
    file.sections()
        .filter(|s| s.elf_section_header().sh_type(endian) == object::elf::SHT_NOTE)
        .map(|s| {
            let name = s.name().unwrap_or("?").to_owned();
            match s.data() {
                Ok(data) => Ok((name, data)),
                Err(e) => Err(format!(
                    "has a note section '{name}' (which would hold kernel manifests or AMDGPU metadata) outside the file: {e}"
                )),
            }
        })
        .collect()
}

/// The image's kernel manifests by kernel symbol. A note that does not parse,
/// a manifest symbol outside its section or naming another kernel, or two
/// different manifests of one kernel, are errors (the text completes "image
/// 'PATH' ...").
pub fn manifests(
    file: &ElfFile64<'_, Endianness>,
) -> Result<BTreeMap<String, KernelManifest>, String> {
    let mut found = Vec::new();
    for (section, data) in note_sections(file)? {
        let notes = kernel_manifest::parse_notes(data)
            .map_err(|p| format!("has a kernel manifest note in section '{section}' that {p}"))?;
        for manifest in notes {
            found.push(manifest.map_err(|p| {
                format!("has a kernel manifest note in section '{section}' that {p}")
            })?);
        }
    }
    if found.is_empty() {
        // A cubin: no sections of our own, one note per manifest symbol.
        for symbol in file.symbols() {
            let Ok(name) = symbol.name() else { continue };
            let Some(kernel) = name.strip_prefix(SYMBOL_PREFIX) else {
                continue;
            };
            let what = |p: &dyn std::fmt::Display| {
                format!("has a kernel manifest '{name}' of kernel '{kernel}' that {p}")
            };
            let bytes = symbol_bytes(file, &symbol).map_err(|why| what(&why))?;
            for manifest in kernel_manifest::parse_notes(bytes).map_err(|p| what(&p))? {
                let manifest = manifest.map_err(|p| what(&p))?;
                if manifest.name != kernel {
                    return Err(what(&format_args!("names kernel '{}'", manifest.name)));
                }
                found.push(manifest);
            }
        }
    }
    by_kernel(found)
}

/// Every manifest must describe a function of the image (a kernel, or one
/// that is present but not launchable): one that names anything else has a
/// corrupt name, and a launch of its kernel would find no manifest.
pub fn manifests_name_functions(
    manifests: &BTreeMap<String, KernelManifest>,
    kernels: &[String],
    non_kernels: &[String],
) -> Result<(), String> {
    // (Both lists are sorted.)
    let present = |name: &String| {
        kernels.binary_search(name).is_ok() || non_kernels.binary_search(name).is_ok()
    };
    match manifests.keys().find(|name| !present(name)) {
        None => Ok(()),
        Some(name) => Err(format!(
            "has a kernel manifest of '{name}', which is no function of it (its kernels: {}); the manifest's name is corrupt",
            if kernels.is_empty() {
                "none".to_owned()
            } else {
                kernels.join(", ")
            }
        )),
    }
}

/// Manifests as read from an image, by kernel symbol: two different
/// manifests of one kernel are an error (the text completes "image 'PATH'
/// ...").
pub fn by_kernel(found: Vec<KernelManifest>) -> Result<BTreeMap<String, KernelManifest>, String> {
    let mut by_kernel = BTreeMap::new();
    for manifest in found {
        match by_kernel.get(&manifest.name) {
            Some(existing) if existing != &manifest => {
                return Err(format!(
                    "has two different kernel manifests of '{}'",
                    manifest.name
                ));
            }
            _ => {
                by_kernel.insert(manifest.name.clone(), manifest);
            }
        }
    }
    Ok(by_kernel)
}

/// The bytes a defined symbol covers in its section; `Err` says why there
/// are none.
fn symbol_bytes<'d>(
    file: &ElfFile64<'d, Endianness>,
    symbol: &object::read::elf::ElfSymbol64<'d, '_, Endianness>,
) -> Result<&'d [u8], String> {
    let index = symbol
        .section_index()
        .ok_or("is not defined in a section")?;
    let section = file
        .section_by_index(index)
        .map_err(|e| format!("is in no section of the file: {e}"))?;
    let data = section
        .data()
        .map_err(|e| format!("is in a section outside the file: {e}"))?;
    let (address, size) = (symbol.address(), symbol.size());
    symbol
        .address()
        .checked_sub(section.address())
        .and_then(|start| usize::try_from(start).ok())
        .and_then(|start| data.get(start..start.checked_add(usize::try_from(size).ok()?)?))
        .ok_or_else(|| {
            format!(
                "covers {size} bytes at 0x{address:x}, outside its section (0x{:x}, {} bytes)",
                section.address(),
                data.len()
            )
        })
}

/// The AMDGPU metadata note of a code object; `Ok(None)` without one.
pub fn amdgpu_metadata(file: &ElfFile64<'_, Endianness>) -> Result<Option<AmdgpuMetadata>, String> {
    for (_, data) in note_sections(file)? {
        // (A broken note ends the section's notes; the manifests report it.)
        for (owner, kind, desc) in kernel_manifest::notes(data).map_while(Result::ok) {
            if owner == AMDGPU_NOTE_OWNER && kind == AMDGPU_NOTE_TYPE {
                return parse_amdgpu_metadata(desc)
                    .map(Some)
                    .map_err(|what| format!("has AMDGPU metadata (.amdhsa.kernels) that {what}"));
            }
        }
    }
    Ok(None)
}

fn parse_amdgpu_metadata(desc: &[u8]) -> Result<AmdgpuMetadata, String> {
    use rmpv::Value;
    let mut rest = desc;
    let value = rmpv::decode::read_value(&mut rest).map_err(|e| format!("is not msgpack: {e}"))?;
    if !value.is_map() {
        return Err(format!("is not a msgpack map but {}", kind_of(&value)));
    }
    if !rest.is_empty() {
        return Err(format!("has {} bytes after its msgpack value", rest.len()));
    }
    let field = |map: &Value, key: &str| -> Option<Value> {
        map.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v.clone())
    };
    let mut metadata = AmdgpuMetadata {
        target: field(&value, "amdhsa.target")
            .and_then(|t| t.as_str().map(str::to_owned))
            .unwrap_or_default(),
        kernels: BTreeMap::new(),
    };
    let kernels = field(&value, "amdhsa.kernels").ok_or("has no amdhsa.kernels")?;
    let kernels = kernels
        .as_array()
        .ok_or("has amdhsa.kernels that is not an array")?;
    for kernel in kernels {
        let name = field(kernel, ".name")
            .and_then(|n| n.as_str().map(str::to_owned))
            .ok_or("has a kernel without .name")?;
        let args = match field(kernel, ".args") {
            None => Vec::new(),
            Some(Value::Array(args)) => args,
            Some(other) => {
                return Err(format!(
                    "gives kernel '{name}' .args that are {}, not an array",
                    kind_of(&other)
                ));
            }
        };
        let mut kernargs = Vec::new();
        for arg in &args {
            let number = |key: &str| field(arg, key).and_then(|v| v.as_u64());
            let value_kind = field(arg, ".value_kind")
                .and_then(|v| v.as_str().map(str::to_owned))
                .ok_or_else(|| format!("gives kernel '{name}' an argument without .value_kind"))?;
            if value_kind.starts_with("hidden_") {
                continue;
            }
            let (Some(offset), Some(size)) = (number(".offset"), number(".size")) else {
                return Err(format!(
                    "gives kernel '{name}' an argument without .offset or .size"
                ));
            };
            kernargs.push(Kernarg {
                offset,
                size,
                value_kind,
            });
        }
        metadata.kernels.insert(
            name,
            AmdgpuKernel {
                args: kernargs,
                openmp: false,
            },
        );
    }
    Ok(metadata)
}

/// A msgpack value's kind, for messages.
fn kind_of(value: &rmpv::Value) -> &'static str {
    use rmpv::Value;
    match value {
        Value::Nil => "nil",
        Value::Boolean(_) => "a boolean",
        Value::Integer(_) => "an integer",
        Value::F32(_) | Value::F64(_) => "a float",
        Value::String(_) => "a string",
        Value::Binary(_) => "binary data",
        Value::Array(_) => "an array",
        Value::Map(_) => "a map",
        Value::Ext(..) => "an extension value",
    }
}

/// The `gfx...` of an `amdhsa.target` string (`amdgcn-amd-amdhsa--gfx90a:xnack-`).
pub fn amdgpu_arch(target: &str) -> Option<&str> {
    let processor = target.rsplit('-').next()?;
    let arch = processor.split(':').next()?;
    arch.starts_with("gfx").then_some(arch)
}
