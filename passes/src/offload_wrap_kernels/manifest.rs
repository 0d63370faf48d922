//! Recording each wrapped kernel's manifest in the device module: the note
//! global `@__offload_manifest_<K>` (format and carrier:
//! [`crate::kernel_manifest`]).

use inkwell::AddressSpace;
use inkwell::module::{Linkage, Module};
use inkwell::values::BasicValue;

use super::error::Error;
use crate::ir::{module_utils, naming};
use crate::kernel_manifest::{KernelManifest, SECTION, SYMBOL_PREFIX};

/// Where the manifest global goes on the module's target: its address
/// space and whether it lives in the note section.
struct Placement {
    address_space: u16,
    in_note_section: bool,
}

fn placement(module: &Module<'_>) -> Placement {
    let triple = module.get_triple();
    let triple = triple.as_str().to_string_lossy();
    if triple.starts_with("nvptx") {
        // PTX has no sections: a `.visible .global` that ptxas keeps.
        Placement {
            address_space: 1,
            in_note_section: false,
        }
    } else if triple.starts_with("amdgcn") {
        Placement {
            address_space: crate::ir::kernels::AMDGPU_CONSTANT_AS as u16,
            in_note_section: true,
        }
    } else {
        Placement {
            address_space: 0,
            in_note_section: true,
        }
    }
}

/// The manifest symbol of kernel `name`.
pub fn symbol(name: &str) -> String {
    format!("{SYMBOL_PREFIX}{name}")
}

/// Fails if a manifest global of a kernel about to be wrapped exists already
/// (checked before anything changes).
pub fn check_free(module: &Module<'_>, manifest: &KernelManifest) -> Result<(), Error> {
    let name = symbol(&manifest.name);
    if module.get_global(&name).is_some() || module.get_function(&name).is_some() {
        return Err(Error::ManifestName {
            kernel: naming::display_symbol(&manifest.name),
            symbol: name,
        });
    }
    Ok(())
}

/// Adds `@__offload_manifest_<K>` for each manifest: the note's bytes,
/// constant, external, 4-aligned, kept by `@llvm.used` (and so by linkers'
/// garbage collection), which is rebuilt once for all of them.
pub fn emit_all(module: &Module<'_>, manifests: &[KernelManifest]) {
    let globals: Vec<_> = manifests.iter().map(|m| emit(module, m)).collect();
    if !globals.is_empty() {
        module_utils::append_used(module, &globals);
    }
}

fn emit<'ctx>(
    module: &Module<'ctx>,
    manifest: &KernelManifest,
) -> inkwell::values::GlobalValue<'ctx> {
    let context = module.get_context();
    let place = placement(module);
    let bytes = context.const_string(&manifest.to_note(), false);
    let global = module.add_global(
        bytes.get_type(),
        Some(AddressSpace::from(place.address_space)),
        &symbol(&manifest.name),
    );
    global.set_initializer(&bytes.as_basic_value_enum());
    global.set_constant(true);
    global.set_linkage(Linkage::External);
    global.set_alignment(4);
    if place.in_note_section {
        global.set_section(Some(SECTION));
    }
    global
}
