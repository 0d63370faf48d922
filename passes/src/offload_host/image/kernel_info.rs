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

/// The AMDGPU code object metadata this pass uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmdgpuMetadata {
    /// `amdhsa.target`, e.g. `amdgcn-amd-amdhsa--gfx90a`.
    pub target: String,
    /// Per kernel symbol (`.name`), its explicit arguments in order.
    pub kernels: BTreeMap<String, Vec<Kernarg>>,
}

/// `NT_AMDGPU_METADATA` and its owner.
const AMDGPU_NOTE_TYPE: u32 = 32;
const AMDGPU_NOTE_OWNER: &[u8] = b"AMDGPU\0";

/// The bytes of every `SHT_NOTE` section.
fn note_sections<'d>(file: &ElfFile64<'d, Endianness>) -> Vec<&'d [u8]> {
    let endian = file.endian();
    file.sections()
        .filter(|s| s.elf_section_header().sh_type(endian) == object::elf::SHT_NOTE)
        .filter_map(|s| s.data().ok())
        .collect()
}

/// The image's kernel manifests by kernel symbol. A note that does not parse,
/// or two different manifests of one kernel, are errors (the text completes
/// "image 'PATH' ...").
pub fn manifests(
    file: &ElfFile64<'_, Endianness>,
) -> Result<BTreeMap<String, KernelManifest>, String> {
    let mut found = Vec::new();
    for data in note_sections(file) {
        found.extend(
            kernel_manifest::parse_notes(data)
                .map_err(|p| format!("has a kernel manifest note that {p}"))?,
        );
    }
    if found.is_empty() {
        // A cubin: no sections of our own, one note per manifest symbol.
        for symbol in file.symbols() {
            let Ok(name) = symbol.name() else { continue };
            if !name.starts_with(SYMBOL_PREFIX) {
                continue;
            }
            if let Some(bytes) = symbol_bytes(file, &symbol) {
                found.extend(
                    kernel_manifest::parse_notes(bytes)
                        .map_err(|p| format!("has a kernel manifest '{name}' that {p}"))?,
                );
            }
        }
    }
    by_kernel(found)
}

/// Manifests as read from an image, by kernel symbol: a manifest that does
/// not parse, or two different manifests of one kernel, are errors (the
/// text completes "image 'PATH' ...").
pub fn by_kernel(
    found: Vec<Result<KernelManifest, kernel_manifest::ManifestProblem>>,
) -> Result<BTreeMap<String, KernelManifest>, String> {
    let mut by_kernel = BTreeMap::new();
    for manifest in found {
        let manifest = manifest.map_err(|p| format!("has a kernel manifest that {p}"))?;
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

/// The bytes a defined symbol covers in its section.
fn symbol_bytes<'d>(
    file: &ElfFile64<'d, Endianness>,
    symbol: &object::read::elf::ElfSymbol64<'d, '_, Endianness>,
) -> Option<&'d [u8]> {
    let section = file.section_by_index(symbol.section_index()?).ok()?;
    let data = section.data().ok()?;
    let start = usize::try_from(symbol.address().checked_sub(section.address())?).ok()?;
    data.get(start..start.checked_add(usize::try_from(symbol.size()).ok()?)?)
}

/// The AMDGPU metadata note of a code object; `Ok(None)` without one.
pub fn amdgpu_metadata(file: &ElfFile64<'_, Endianness>) -> Result<Option<AmdgpuMetadata>, String> {
    for data in note_sections(file) {
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
    let value =
        rmpv::decode::read_value(&mut &desc[..]).map_err(|e| format!("is not msgpack: {e}"))?;
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
    let Some(kernels) = field(&value, "amdhsa.kernels") else {
        return Ok(metadata);
    };
    let kernels = kernels
        .as_array()
        .ok_or("has amdhsa.kernels that is not an array")?;
    for kernel in kernels {
        let name = field(kernel, ".name")
            .and_then(|n| n.as_str().map(str::to_owned))
            .ok_or("has a kernel without .name")?;
        let mut args = Vec::new();
        for arg in field(kernel, ".args")
            .as_ref()
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
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
            args.push(Kernarg {
                offset,
                size,
                value_kind,
            });
        }
        metadata.kernels.insert(name, args);
    }
    Ok(metadata)
}

/// The `gfx...` of an `amdhsa.target` string (`amdgcn-amd-amdhsa--gfx90a:xnack-`).
pub fn amdgpu_arch(target: &str) -> Option<&str> {
    let processor = target.rsplit('-').next()?;
    let arch = processor.split(':').next()?;
    arch.starts_with("gfx").then_some(arch)
}
