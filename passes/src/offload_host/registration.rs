//! Registration and embedding (the counterpart of LLVM's
//! `OffloadWrapper.cpp`): the image bytes, one `OffloadEntry` per launched
//! kernel, the `__tgt_device_image` and `__tgt_bin_desc` descriptors, and the
//! constructor that registers them with the runtime.

use std::collections::HashMap;

use inkwell::builder::BuilderError;
use inkwell::module::{Linkage, Module};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, FunctionValue, GlobalValue, UnnamedAddress};

use super::image::DeviceImage;
use super::libomptarget::{self, Types};
use crate::ir::{constants, module_utils};

/// What launches need from the registration: per kernel its region id (the
/// host-side key of its entry) and its name string.
pub struct Registration<'ctx> {
    pub kernels: HashMap<String, (GlobalValue<'ctx>, GlobalValue<'ctx>)>,
}

/// A constant global `name` holding `value`.
pub fn constant<'ctx>(module: &Module<'ctx>, name: &str, value: impl BasicValue<'ctx>, linkage: Linkage) -> GlobalValue<'ctx> {
    let value = value.as_basic_value_enum();
    let global = module.add_global(value.get_type(), None, name);
    global.set_initializer(&value);
    global.set_constant(true);
    global.set_linkage(linkage);
    global
}

pub fn emit<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    image: &DeviceImage,
    kernels: &[String],
) -> Result<Registration<'ctx>, BuilderError> {
    let c = types.context;
    let i64 = c.i64_type();
    let mut registration = Registration {
        kernels: HashMap::new(),
    };
    let entries: Vec<_> = kernels
        .iter()
        .map(|kernel| {
            let (entry, region_id, name) = offload_entry(module, types, kernel);
            registration.kernels.insert(kernel.clone(), (region_id, name));
            entry
        })
        .collect();
    let entries_array = constant(
        module,
        ".offloading.entries",
        types.offload_entry.const_array(&entries),
        Linkage::Internal,
    );
    entries_array.set_section(Some("llvm_offload_entries"));
    entries_array.set_alignment(8);
    let entries_ty = types.offload_entry.array_type(entries.len() as u32);
    let entries_begin = entries_array.as_pointer_value();
    // SAFETY: one past the end of the array, a valid constant GEP.
    let entries_end = unsafe { entries_begin.const_gep(entries_ty, &[i64.const_int(1, false)]) };

    let (bytes_begin, bytes_end) = device_image_bytes(module, image);
    let device_image = types.device_image.const_named_struct(&[
        bytes_begin.into(),
        bytes_end.into(),
        entries_begin.into(),
        entries_end.into(),
    ]);
    let images = constant(
        module,
        ".omp_offloading.device_images",
        types.device_image.const_array(&[device_image]),
        Linkage::Internal,
    );
    images.set_unnamed_address(UnnamedAddress::Global);
    let descriptor = constant(
        module,
        ".omp_offloading.descriptor",
        types.bin_desc.const_named_struct(&[
            c.i32_type().const_int(1, false).into(),
            images.as_pointer_value().into(),
            entries_begin.into(),
            entries_end.into(),
        ]),
        Linkage::Internal,
    );
    module_utils::append_compiler_used(module, &[entries_array]);
    emit_constructor(module, types, descriptor)?;
    Ok(registration)
}

/// One `OffloadEntry` (version 1, kind OpenMP, a kernel), its region id
/// `@.K.region_id` and its name in `.llvm.rodata.offloading`.
fn offload_entry<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    kernel: &str,
) -> (inkwell::values::StructValue<'ctx>, GlobalValue<'ctx>, GlobalValue<'ctx>) {
    let c = types.context;
    let (i16, i32, i64) = (c.i16_type(), c.i32_type(), c.i64_type());
    let region_id = constant(module, &format!(".{kernel}.region_id"), c.i8_type().const_zero(), Linkage::WeakAny);
    let name = constant(
        module,
        &format!(".offloading.entry_name.{kernel}"),
        c.const_string(kernel.as_bytes(), true),
        Linkage::Internal,
    );
    name.set_unnamed_address(UnnamedAddress::Global);
    name.set_section(Some(".llvm.rodata.offloading"));
    name.set_alignment(1);
    let entry = types.offload_entry.const_named_struct(&[
        i64.const_zero().into(),                                        // Reserved
        i16.const_int(libomptarget::OFFLOAD_ENTRY_VERSION, false).into(), // Version
        i16.const_int(libomptarget::OFFLOAD_KIND_OPENMP, false).into(), // Kind
        i32.const_zero().into(),                                        // Flags: a kernel
        region_id.as_pointer_value().into(),                            // Address
        name.as_pointer_value().into(),                                 // SymbolName
        i64.const_zero().into(),                                        // Size
        i64.const_zero().into(),                                        // Data
        types.ptr().const_null().into(),                                // AuxAddr
    ]);
    (entry, region_id, name)
}

/// The image bytes in `.llvm.offloading`, built straight from the buffer (see
/// [`constants::const_byte_array`]); returns its start and end.
fn device_image_bytes<'ctx>(
    module: &Module<'ctx>,
    image: &DeviceImage,
) -> (inkwell::values::PointerValue<'ctx>, inkwell::values::PointerValue<'ctx>) {
    let elf = image.elf();
    let bytes = constant(
        module,
        ".omp_offloading.device_image",
        constants::const_byte_array(module, elf),
        Linkage::Internal,
    );
    bytes.set_unnamed_address(UnnamedAddress::Global);
    bytes.set_section(Some(".llvm.offloading"));
    bytes.set_alignment(8);
    let begin = bytes.as_pointer_value();
    let c = module.get_context();
    // SAFETY: one past the last byte.
    let end = unsafe { begin.const_gep(c.i8_type(), &[c.i64_type().const_int(elf.len() as u64, false)]) };
    (begin, end)
}

/// `.omp_offloading.descriptor_reg`: register, and unregister at exit.
fn emit_constructor<'ctx>(module: &Module<'ctx>, types: &Types<'ctx>, descriptor: GlobalValue<'ctx>) -> Result<(), BuilderError> {
    let descriptor = descriptor.as_pointer_value().into();
    let unregister = runtime_caller(
        module,
        types,
        ".omp_offloading.descriptor_unreg",
        &[("__tgt_unregister_lib", descriptor)],
    )?;
    let unregister = unregister.as_global_value().as_pointer_value().into();
    let register = runtime_caller(
        module,
        types,
        ".omp_offloading.descriptor_reg",
        &[("__tgt_register_lib", descriptor), ("atexit", unregister)],
    )?;
    module_utils::append_global_ctor(module, register, libomptarget::REGISTRATION_PRIORITY);
    Ok(())
}

/// An internal `void()` function `name` making the given runtime calls,
/// each with one argument, in order.
fn runtime_caller<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    name: &str,
    calls: &[(&str, BasicMetadataValueEnum<'ctx>)],
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = types.context;
    let function = module.add_function(name, c.void_type().fn_type(&[], false), Some(Linkage::Internal));
    let builder = c.create_builder();
    builder.position_at_end(c.append_basic_block(function, "entry"));
    for (callee, argument) in calls {
        builder.build_call(types.function(module, callee), &[*argument], "")?;
    }
    builder.build_return(None)?;
    Ok(function)
}
