//! Registration and embedding (the counterpart of LLVM's
//! `OffloadWrapper.cpp`): each image as a whole OffloadBinary, one
//! `OffloadEntry` per kernel the images hold, one `__tgt_device_image` per
//! image in one `__tgt_bin_desc`, and the constructor that registers it.
//! libomptarget offers the images to its plugins in order and registers,
//! per device, the first that fits (`docs/launch-contract.md`, "Several
//! images"); all share the one entry table, resolved by name in each.
//!
//! Every module built against the same images emits the same definitions,
//! so the linked program holds the images once and registers them once,
//! whatever number of modules (codegen units, crates) launch from them: all
//! are `linkonce_odr hidden` in one comdat named after the first image
//! global, their names suffixed with the images' digest `H` (16 hex digits,
//! [`ImageSet::digest`]); the constructor entry names the first image
//! global, so `.init_array` goes with the group. The entries cover every
//! kernel all images hold (launched here or not) and live
//! in section `offload_passes_entries`, never `llvm_offload_entries` (clang's
//! `__start_`/`__stop_` table would take them). Region ids are
//! `@.K.region_id.H = weak constant i8 0`: shared by all modules, distinct
//! per registration (two registrations, of other images, with a same-named
//! kernel each launch their own).
//!
//! The images are not in `.llvm.offloading`: clang-linker-wrapper extracts
//! every such section and links it into clang's own device image, which then
//! fails to load (bench/clang-peer/notes.md). Section `.offload_passes.image`
//! stays its own section in the program; `llvm-objcopy
//! --dump-section=.offload_passes.image=x.bin PROG` and `llvm-objdump
//! --offloading x.bin` show it.

use std::collections::HashMap;

use inkwell::GlobalVisibility;
use inkwell::builder::BuilderError;
use inkwell::comdat::Comdat;
use inkwell::module::{Linkage, Module};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, FunctionValue, GlobalValue, PointerValue, UnnamedAddress,
};

use super::image::DeviceImage;
use super::image_set::ImageSet;
use super::libomptarget::{self, Types};
use crate::ir::{constants, gep, module_utils};

/// The image's section in host objects and programs.
pub const IMAGE_SECTION: &str = ".offload_passes.image";
/// The section of the image's offload entries.
pub const ENTRIES_SECTION: &str = "offload_passes_entries";

/// What launches need from the registration: per kernel its region id (the
/// host-side key of its entry) and its name string.
pub struct Registration<'ctx> {
    pub kernels: HashMap<String, (GlobalValue<'ctx>, GlobalValue<'ctx>)>,
}

/// A constant global `name` holding `value`.
pub fn constant<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    value: impl BasicValue<'ctx>,
    linkage: Linkage,
) -> GlobalValue<'ctx> {
    let value = value.as_basic_value_enum();
    let global = module.add_global(value.get_type(), None, name);
    global.set_initializer(&value);
    global.set_constant(true);
    global.set_linkage(linkage);
    global
}

/// The names of one registration's globals (suffix `.H`).
struct Names {
    suffix: String,
}

impl Names {
    /// The first image, which names the comdat and keys the constructor.
    fn image(&self) -> String {
        format!(".omp_offloading.device_image.{}", self.suffix)
    }
    /// Image `index` of the registration: the first is [`Names::image`],
    /// the others `.omp_offloading.device_image.H.1`, `.2`, ... (as
    /// OffloadWrapper names the images of one descriptor).
    fn nth_image(&self, index: usize) -> String {
        match index {
            0 => self.image(),
            _ => format!("{}.{index}", self.image()),
        }
    }
    fn region_id(&self, kernel: &str) -> String {
        format!(".{kernel}.region_id.{}", self.suffix)
    }
    fn entry_name(&self, kernel: &str) -> String {
        format!(".offloading.entry_name.{kernel}.{}", self.suffix)
    }
    fn other(&self, what: &str) -> String {
        format!(".{what}.{}", self.suffix)
    }
}

/// Emits the registration of `images` (or finds it, when the module holds
/// it already: a second run, or modules linked together), for kernels
/// `K1` ... `Kn` every image holds, images `I0` ... `Im-1` and their digest `H`:
///
/// ```c
/// // all linkonce_odr hidden in comdat .omp_offloading.device_image.H
/// const char .omp_offloading.device_image.H[]       // section .offload_passes.image
///     = {<I0 as a whole OffloadBinary>};
/// const char .omp_offloading.device_image.H.1[]     // the same section, likewise I1 ...
///     = {<I1 as a whole OffloadBinary>};
/// const char .K1.region_id.H = 0;                    // weak, one per image and kernel
/// const char .offloading.entry_name.K1.H[] = "K1";
/// __tgt_offload_entry .offloading.entries.H[n]       // section offload_passes_entries
///     = {{0, 1, OFK_OpenMP, 0, &.K1.region_id.H, .offloading.entry_name.K1.H, 0, 0, NULL}, ...};
/// __tgt_device_image .omp_offloading.device_images.H[m]  // the entries shared
///     = {{I0_inner_start, I0_inner_end, entries, entries + n}, {I1_inner_start, ...}, ...};
/// __tgt_bin_desc .omp_offloading.descriptor.H = {m, device_images, entries, entries + n};
/// void .omp_offloading.descriptor_unreg.H(void) { __tgt_unregister_lib(&descriptor); }
/// void .omp_offloading.descriptor_reg.H(void) {      // in llvm.global_ctors, priority 101
///     __tgt_register_lib(&descriptor);
///     atexit(.omp_offloading.descriptor_unreg.H);
/// }
/// ```
pub fn emit<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    images: &ImageSet,
) -> Result<Registration<'ctx>, BuilderError> {
    let names = Names {
        suffix: images.digest_suffix(),
    };
    if let Some(existing) = existing(module, images, &names) {
        return Ok(existing);
    }
    let comdat = module.get_or_insert_comdat(&names.image());
    let shared = |global: GlobalValue<'ctx>| {
        global.set_linkage(Linkage::LinkOnceODR);
        global.set_visibility(GlobalVisibility::Hidden);
        global.set_comdat(comdat);
        global
    };
    let mut registration = Registration {
        kernels: HashMap::new(),
    };
    let entries: Vec<_> = images
        .kernels()
        .iter()
        .map(|kernel| {
            let (entry, region_id, name) = offload_entry(module, types, &names, kernel);
            shared(name);
            registration
                .kernels
                .insert(kernel.clone(), (region_id, name));
            entry
        })
        .collect();
    let entries_array = shared(constant(
        module,
        &names.other("offloading.entries"),
        types.offload_entry.const_array(&entries),
        Linkage::LinkOnceODR,
    ));
    entries_array.set_section(Some(ENTRIES_SECTION));
    entries_array.set_alignment(8);
    let entries_ty = types.offload_entry.array_type(entries.len() as u32);
    let entries_begin = entries_array.as_pointer_value();
    // One past the end of the array.
    let entries_end = gep::const_element(entries_begin, entries_ty, 1);

    // One __tgt_device_image per image, all sharing the entries.
    let mut image_globals = Vec::new();
    let device_images: Vec<_> = images
        .images()
        .iter()
        .enumerate()
        .map(|(index, image)| {
            let (bytes, start, end) = device_image_bytes(module, image, &names.nth_image(index));
            image_globals.push(shared(bytes));
            types.device_image.const_named_struct(&[
                start.into(),
                end.into(),
                entries_begin.into(),
                entries_end.into(),
            ])
        })
        .collect();
    let device_images_array = shared(constant(
        module,
        &names.other("omp_offloading.device_images"),
        types.device_image.const_array(&device_images),
        Linkage::LinkOnceODR,
    ));
    device_images_array.set_unnamed_address(UnnamedAddress::Global);
    let count = types
        .context
        .i32_type()
        .const_int(device_images.len() as u64, false);
    let descriptor = shared(constant(
        module,
        &names.other("omp_offloading.descriptor"),
        types.bin_desc.const_named_struct(&[
            count.into(),
            device_images_array.as_pointer_value().into(),
            entries_begin.into(),
            entries_end.into(),
        ]),
        Linkage::LinkOnceODR,
    ));
    let mut used = vec![entries_array];
    used.extend(&image_globals);
    module_utils::append_compiler_used(module, &used);
    emit_constructor(module, types, &names, descriptor, comdat, image_globals[0])?;
    Ok(registration)
}

/// The registration a module already holds for these images (all of it), if any.
fn existing<'ctx>(
    module: &Module<'ctx>,
    images: &ImageSet,
    names: &Names,
) -> Option<Registration<'ctx>> {
    module.get_global(&names.image())?;
    let kernels = images
        .kernels()
        .iter()
        .map(|k| {
            let region_id = module.get_global(&names.region_id(k))?;
            let name = module.get_global(&names.entry_name(k))?;
            Some((k.clone(), (region_id, name)))
        })
        .collect::<Option<HashMap<_, _>>>()?;
    Some(Registration { kernels })
}

/// One `OffloadEntry` (version 1, kind OpenMP, a kernel), its region id
/// `@.K.region_id.H` and its name in `.llvm.rodata.offloading`:
///
/// ```c
/// const char .K.region_id.H = 0;                                   // weak
/// const char .offloading.entry_name.K.H[] = "K";                   // linkonce_odr
/// (__tgt_offload_entry){0, 1, OFK_OpenMP, 0, &.K.region_id.H, .offloading.entry_name.K.H, 0, 0, NULL}
/// ```
fn offload_entry<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    names: &Names,
    kernel: &str,
) -> (
    inkwell::values::StructValue<'ctx>,
    GlobalValue<'ctx>,
    GlobalValue<'ctx>,
) {
    let c = types.context;
    let (i16, i32, i64) = (c.i16_type(), c.i32_type(), c.i64_type());
    let region_id = constant(
        module,
        &names.region_id(kernel),
        c.i8_type().const_zero(),
        Linkage::WeakAny,
    );
    let name = constant(
        module,
        &names.entry_name(kernel),
        c.const_string(kernel.as_bytes(), true),
        Linkage::LinkOnceODR,
    );
    name.set_unnamed_address(UnnamedAddress::Global);
    name.set_section(Some(".llvm.rodata.offloading"));
    name.set_alignment(1);
    let entry = types.offload_entry.const_named_struct(&[
        i64.const_zero().into(), // Reserved
        i16.const_int(libomptarget::OFFLOAD_ENTRY_VERSION, false)
            .into(), // Version
        i16.const_int(libomptarget::OFFLOAD_KIND_OPENMP, false)
            .into(), // Kind
        i32.const_zero().into(), // Flags: a kernel
        region_id.as_pointer_value().into(), // Address
        name.as_pointer_value().into(), // SymbolName
        i64.const_zero().into(), // Size
        i64.const_zero().into(), // Data
        types.ptr().const_null().into(), // AuxAddr
    ]);
    (entry, region_id, name)
}

/// The image as a whole OffloadBinary in `.offload_passes.image`, built
/// straight from the buffer (see [`constants::const_byte_array`]); returns
/// the global and the inner ELF's start and end (the entry's `ImageOffset`
/// and `ImageOffset + ImageSize`, as OffloadWrapper computes them):
///
/// ```c
/// const char .omp_offloading.device_image.H[] = {<prefix>, <image>, <padding>};  // align 8
/// // start: .omp_offloading.device_image.H + sizeof(prefix); end: start + sizeof(image)
/// ```
fn device_image_bytes<'ctx>(
    module: &Module<'ctx>,
    image: &DeviceImage,
    name: &str,
) -> (GlobalValue<'ctx>, PointerValue<'ctx>, PointerValue<'ctx>) {
    let parts = image.offload_binary();
    let elf_at = parts[0].len();
    let bytes = constant(
        module,
        name,
        constants::const_byte_parts(module, &parts),
        Linkage::LinkOnceODR,
    );
    bytes.set_unnamed_address(UnnamedAddress::Global);
    bytes.set_section(Some(IMAGE_SECTION));
    bytes.set_alignment(8);
    let begin = bytes.as_pointer_value();
    let i8 = module.get_context().i8_type();
    // Offsets inside the array or one past its last byte.
    let at = |offset: usize| gep::const_element(begin, i8, offset as u64);
    (bytes, at(elf_at), at(elf_at + image.elf().len()))
}

/// `.omp_offloading.descriptor_reg.H`: register, and unregister at exit;
/// both in the image's comdat, the constructor entry keyed by the image:
///
/// ```c
/// void .omp_offloading.descriptor_unreg.H(void) { __tgt_unregister_lib(&descriptor); }
/// void .omp_offloading.descriptor_reg.H(void) {
///     __tgt_register_lib(&descriptor);
///     atexit(.omp_offloading.descriptor_unreg.H);
/// }
/// // llvm.global_ctors += {101, .omp_offloading.descriptor_reg.H, .omp_offloading.device_image.H}
/// ```
fn emit_constructor<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    names: &Names,
    descriptor: GlobalValue<'ctx>,
    comdat: Comdat,
    key: GlobalValue<'ctx>,
) -> Result<(), BuilderError> {
    let descriptor = descriptor.as_pointer_value().into();
    let unregister = runtime_caller(
        module,
        types,
        &names.other("omp_offloading.descriptor_unreg"),
        &[("__tgt_unregister_lib", descriptor)],
        comdat,
    )?;
    let unregister = unregister.as_global_value().as_pointer_value().into();
    let register = runtime_caller(
        module,
        types,
        &names.other("omp_offloading.descriptor_reg"),
        &[("__tgt_register_lib", descriptor), ("atexit", unregister)],
        comdat,
    )?;
    module_utils::append_global_ctor(
        module,
        register,
        libomptarget::REGISTRATION_PRIORITY,
        Some(key),
    );
    Ok(())
}

/// A `linkonce_odr hidden void()` function `name` in `comdat` and section
/// `.text.startup`, making the given runtime calls, each with one argument,
/// in order:
///
/// ```c
/// void name(void) { f1(a1); f2(a2); ... }
/// ```
fn runtime_caller<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    name: &str,
    calls: &[(&str, BasicMetadataValueEnum<'ctx>)],
    comdat: Comdat,
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = types.context;
    let function = module.add_function(
        name,
        c.void_type().fn_type(&[], false),
        Some(Linkage::LinkOnceODR),
    );
    let global = function.as_global_value();
    global.set_visibility(GlobalVisibility::Hidden);
    global.set_comdat(comdat);
    function.set_section(Some(".text.startup"));
    let builder = c.create_builder();
    builder.position_at_end(c.append_basic_block(function, "entry"));
    for (callee, argument) in calls {
        builder.build_call(types.function(module, callee), &[*argument], "")?;
    }
    builder.build_return(None)?;
    Ok(function)
}
