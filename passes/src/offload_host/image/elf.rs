//! Reading an ELF device image: the checks libomptarget 22 makes of its
//! header, its kernels by machine, and what it says about them (manifests,
//! AMDGPU kernarg metadata, a cubin's architecture).

use std::collections::BTreeMap;

use object::elf;
use object::read::elf::{ElfFile64, FileHeader, Sym};
use object::{Endianness, FileKind, Object, ObjectSymbol, SymbolKind};

use super::cubin::{self, CudaArch};
use super::kernel_info::{self, AmdgpuMetadata};
use super::{ImageProblem, Machine};
use crate::kernel_manifest::KernelManifest;

/// What reading the ELF found.
pub struct ReadElf {
    pub machine: Machine,
    pub kernels: Vec<String>,
    /// Functions present but not launchable: AMDGPU functions without a
    /// kernel descriptor, cubin device functions (not `.entry`).
    pub non_kernels: Vec<String>,
    pub manifests: BTreeMap<String, KernelManifest>,
    pub amdgpu: Option<AmdgpuMetadata>,
    /// A cubin's architecture, from its header.
    pub cuda: Option<CudaArch>,
    pub arch: String,
}

/// The device an ELF is for, by `e_machine`.
fn machine_of(e_machine: elf::Machine) -> Option<Machine> {
    match e_machine {
        elf::EM_X86_64 => Some(Machine::X86_64),
        elf::EM_AMDGPU => Some(Machine::Amdgpu),
        elf::EM_CUDA => Some(Machine::Cuda),
        _ => None,
    }
}

/// Validates the ELF and lists its kernels (and the functions that are
/// none), manifests, kernarg metadata and a cubin's architecture.
pub fn read_elf(data: &[u8], inside: bool) -> Result<ReadElf, ImageProblem> {
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
    let machine = machine_of(e_machine).ok_or(ImageProblem::Machine {
        inside,
        e_machine: e_machine.0,
    })?;
    check_header(header, endian, machine)
        .map_err(|why| ImageProblem::InvalidElf { inside, why })?;
    let e_type = header.e_type(endian);
    if machine != Machine::Cuda && e_type != elf::ET_DYN {
        return Err(ImageProblem::NotShared {
            inside,
            e_type: e_type.0,
        });
    }
    let cuda = match machine {
        Machine::Cuda => Some(
            cubin::arch_from_header(header.e_ident().abi_version, header.e_flags(endian).0)
                .map_err(|problem| ImageProblem::Cubin { inside, problem })?,
        ),
        _ => None,
    };
    let info = |what| ImageProblem::KernelInfo { what };
    let (kernels, non_kernels) = kernel_symbols(&file, machine).map_err(info)?;
    let manifests = kernel_info::manifests(&file).map_err(info)?;
    kernel_info::manifests_name_functions(&manifests, &kernels, &non_kernels).map_err(info)?;
    let amdgpu = match machine {
        Machine::Amdgpu => {
            kernel_info::amdgpu_metadata(&file)
                .map_err(info)?
                .map(|mut metadata| {
                    mark_openmp_kernels(&file, &mut metadata);
                    metadata
                })
        }
        _ => None,
    };
    let arch = match machine {
        Machine::X86_64 => "generic".to_owned(),
        Machine::Amdgpu => amdgpu
            .as_ref()
            .and_then(|m| kernel_info::amdgpu_arch(&m.target))
            .unwrap_or("")
            .to_owned(),
        Machine::Cuda | Machine::NvptxBitcode => cuda.map(|a| a.to_string()).unwrap_or_default(),
    };
    Ok(ReadElf {
        machine,
        kernels,
        non_kernels,
        manifests,
        amdgpu,
        cuda,
        arch,
    })
}

/// What the loaders refuse in a header the `object` crate accepts: an
/// `EI_VERSION` other than `EV_CURRENT`, and so an `e_version` (glibc's
/// `dlopen` for the host plugin, the HSA loader; a cubin keeps its CUDA ELF
/// version in `e_version`, 129 and so on), and `e_phnum` `PN_XNUM` (0xffff:
/// the real count elsewhere, which LLVM's `ELFFile` reads as none).
fn check_header(
    header: &elf::FileHeader64<Endianness>,
    endian: Endianness,
    machine: Machine,
) -> Result<(), String> {
    let ident = header.e_ident().version;
    let version = header.e_version(endian);
    let version_ok = machine == Machine::Cuda || version == u32::from(elf::EV_CURRENT.0);
    if ident != elf::EV_CURRENT || !version_ok {
        return Err(format!(
            "EI_VERSION {} and e_version {version}; libomptarget loads version 1 (EV_CURRENT) only",
            ident.0
        ));
    }
    if header.e_phnum(endian) == elf::PN_XNUM {
        return Err("e_phnum 0xffff (PN_XNUM); libomptarget does not load images that keep the program header count elsewhere".to_owned());
    }
    Ok(())
}

/// Kernel names by machine, and the functions that are none: the host
/// plugin `dlsym`s, so x86_64 kernels are the exported (dynamic) functions;
/// AMDGPU kernels are the functions with a `K.kd` descriptor object, the
/// others are not launchable; cubin kernels are the global functions ptxas
/// marks as entries (`st_other` bit [`STO_CUDA_ENTRY`]), the device
/// functions it keeps (`$K$helper`, without the bit) `cuModuleGetFunction`
/// cannot find.
///
/// A symbol whose name is not in the file (a string table past its end) is
/// an error: its kernel would silently be missing.
fn kernel_symbols(
    file: &ElfFile64<'_, Endianness>,
    machine: Machine,
) -> Result<(Vec<String>, Vec<String>), String> {
    let defined = |symbols: object::read::elf::ElfSymbolIterator<'_, '_, _, _>,
                   kind: SymbolKind| {
        symbols
            .filter(|s| s.is_definition() && s.kind() == kind && (s.is_global() || s.is_weak()))
            .map(symbol_name)
            .collect::<Result<Vec<String>, String>>()
    };
    let sorted = |mut names: Vec<String>| {
        names.sort();
        names.dedup();
        names
    };
    Ok(match machine {
        Machine::X86_64 | Machine::NvptxBitcode => (
            sorted(defined(file.dynamic_symbols(), SymbolKind::Text)?),
            Vec::new(),
        ),
        Machine::Cuda => {
            let (entries, functions): (Vec<_>, Vec<_>) = file
                .symbols()
                .filter(|s| s.is_definition() && s.kind() == SymbolKind::Text && s.is_global())
                .partition(|s| s.elf_symbol().st_other().0 & STO_CUDA_ENTRY != 0);
            let names = |symbols: Vec<object::read::elf::ElfSymbol64<'_, '_, Endianness>>| {
                symbols
                    .into_iter()
                    .map(symbol_name)
                    .collect::<Result<Vec<_>, _>>()
                    .map(sorted)
            };
            (names(entries)?, names(functions)?)
        }
        Machine::Amdgpu => {
            let mut all = defined(file.symbols(), SymbolKind::Text)?;
            all.extend(defined(file.dynamic_symbols(), SymbolKind::Text)?);
            // (A set: one lookup per function, not a scan of every descriptor.)
            let described: std::collections::HashSet<String> =
                defined(file.symbols(), SymbolKind::Data)?
                    .into_iter()
                    .chain(defined(file.dynamic_symbols(), SymbolKind::Data)?)
                    .filter_map(|d| d.strip_suffix(".kd").map(str::to_owned))
                    .collect();
            sorted(all).into_iter().partition(|f| described.contains(f))
        }
    })
}

/// Marks the kernels clang's OpenMP offloading emitted: those with a
/// defined `<K>_kernel_environment` symbol.
fn mark_openmp_kernels(file: &ElfFile64<'_, Endianness>, metadata: &mut AmdgpuMetadata) {
    let environments: std::collections::HashSet<&str> = file
        .symbols()
        .chain(file.dynamic_symbols())
        .filter(|s| s.is_definition())
        .filter_map(|s| s.name().ok())
        .filter_map(|n| n.strip_suffix(kernel_info::KERNEL_ENVIRONMENT_SUFFIX))
        .collect();
    for (name, kernel) in &mut metadata.kernels {
        kernel.openmp = environments.contains(name.as_str());
    }
}

/// A symbol's name, or why it has none (for "image 'PATH' ...").
fn symbol_name(
    symbol: object::read::elf::ElfSymbol64<'_, '_, Endianness>,
) -> Result<String, String> {
    symbol.name().map(str::to_owned).map_err(|e| {
        format!(
            "has a function symbol (index {}) whose name cannot be read: {e}",
            symbol.index().0
        )
    })
}

/// A cubin symbol's `st_other` bit for a kernel entry (`.entry`; LLVM has no
/// name for it).
const STO_CUDA_ENTRY: u8 = 0x10;
