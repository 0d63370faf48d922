//! Rewriting one planned kernel to `K(ptr %dyn_ptr, <one slot per old
//! parameter>)` and marking it `!offload.wrapped`.

use inkwell::AddressSpace;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::Module;
use inkwell::values::{BasicValue, BasicValueEnum};

use super::PASS;
use super::error::Error;
use super::slots::{KernelPlan, SLOT_BITS, Slot};
use crate::ir::signature::{NewParam, ParamAttributes, ParamName, SignatureRewrite};
use crate::ir::{Type, Value, metadata, naming, types};

/// The name of the leading parameter (as clang and rustc call it).
const DYN_PTR_NAME: &str = "dyn_ptr";

/// Wraps one kernel; `wrapped` is the kind id of [`super::WRAPPED_MD`].
pub fn wrap_kernel<'ctx>(
    module: &Module<'ctx>,
    plan: KernelPlan<'ctx>,
    wrapped: u32,
) -> Result<(), Error> {
    let kernel = plan.kernel.function();
    // (The kernel's name is demangled only for an error; after `begin` the
    // new function has it.)
    let internal = |function, what: String| Error::Internal {
        kernel: naming::name_of(function),
        what,
    };
    // Printed types are only for the debug log.
    let old_signature = log::log_enabled!(log::Level::Debug)
        .then(|| Type::from(kernel.get_type()).text())
        .unwrap_or_default();
    let context = module.get_context();
    let ptr = Type::from(context.ptr_type(AddressSpace::default()));
    let i64_type = Type::from(context.i64_type());
    // The names the replacements are named after (`%n.trunc`), read once;
    // a parameter that stays the same gets its old name in C++ instead.
    let names: Vec<String> = plan
        .slots
        .iter()
        .enumerate()
        .map(|(index, slot)| match slot {
            Slot::Same => String::new(),
            _ => naming::param_name(kernel, index as u32),
        })
        .collect();
    let mut params = vec![NewParam {
        ty: ptr,
        attributes: ParamAttributes::None,
        name: ParamName::Text(DYN_PTR_NAME.into()),
    }];
    for (index, (slot, name)) in plan.slots.iter().zip(&names).enumerate() {
        let index = index as u32;
        let old_type = || types::param_type(kernel, index).expect("a planned parameter");
        let (ty, attributes, name) = match slot {
            // Same type, same contract: every attribute still holds.
            Slot::Same => (old_type(), ParamAttributes::Of(index), ParamName::Of(index)),
            // No attribute survives widening (zeroext/range/nofpclass describe
            // the narrow value); a byval copy's align/dereferenceable describe a
            // stack slot; a value's attributes do not describe a pointer.
            Slot::Narrow { .. } => (
                i64_type,
                ParamAttributes::None,
                ParamName::Text(name.into()),
            ),
            Slot::ByvalCopy { .. } => (
                old_type(),
                ParamAttributes::None,
                ParamName::Text(name.into()),
            ),
            Slot::Load { .. } => (ptr, ParamAttributes::None, ParamName::Text(name.into())),
        };
        params.push(NewParam {
            ty,
            attributes,
            name,
        });
    }
    let rewrite = SignatureRewrite::begin(plan.kernel, &params).map_err(|e| internal(kernel, e))?;
    let builder = rewrite.entry_builder();
    for (index, (slot, name)) in plan.slots.iter().zip(&names).enumerate() {
        let old_index = index as u32;
        let value = build_param(module, &rewrite, &builder, *slot, old_index, name)
            .map_err(|e| internal(rewrite.new, format!("parameter {old_index}: {e}")))?;
        rewrite.replace_param(old_index, value);
    }
    let new = rewrite.new;
    rewrite.finish().map_err(|e| internal(new, e))?;
    metadata::set_marker_of_kind(module, new, wrapped);
    log::debug!(
        "{PASS}: wrapped kernel '{}': {old_signature} -> {}",
        naming::name_of(new),
        Type::from(new.get_type()).text()
    );
    Ok(())
}

/// What replaces old parameter `old_index` in the body, built from new
/// parameter `old_index + 1`; its instructions are named after `name`.
fn build_param<'ctx>(
    module: &Module<'ctx>,
    rewrite: &SignatureRewrite<'ctx>,
    builder: &Builder<'ctx>,
    slot: Slot<'ctx>,
    old_index: u32,
    name: &str,
) -> Result<Value<'ctx>, BuilderError> {
    let param = rewrite.new_param(old_index + 1);
    let suffixed = |suffix: &str| {
        if name.is_empty() {
            String::new()
        } else {
            format!("{name}.{suffix}")
        }
    };
    let basic = param.as_basic().expect("slots are pointers or i64");
    match slot {
        Slot::Same => Ok(param),
        Slot::Narrow { int_bits, float } => {
            let context = module.get_context();
            let mut value: BasicValueEnum<'ctx> = basic;
            if int_bits < SLOT_BITS {
                let narrow = std::num::NonZeroU32::new(int_bits)
                    .and_then(|bits| context.custom_width_int_type(bits).ok())
                    .expect("a planned integer width is 1 to 63 bits");
                value = builder
                    .build_int_truncate(value.into_int_value(), narrow, &suffixed("trunc"))?
                    .into();
            }
            if let Some(float) = float {
                value = builder.build_bit_cast(value, float, &suffixed("bitcast"))?;
            }
            Ok(value.into())
        }
        Slot::ByvalCopy {
            pointee,
            size,
            align,
        } => {
            // The slot points at the host's mapped struct; the body gets its
            // own copy, as byval promised it.
            let source = basic.into_pointer_value();
            let copy = builder.build_alloca(pointee, &suffixed("copy"))?;
            if let Some(alloca) = copy.as_instruction() {
                let _ = alloca.set_alignment(align);
            }
            let size = module.get_context().i64_type().const_int(size, false);
            builder.build_memcpy(copy, align, source, 1, size)?;
            // The alloca lives in the data layout's alloca address space.
            let old_type = source.get_type();
            let value = if copy.get_type() == old_type {
                copy
            } else {
                builder.build_address_space_cast(copy, old_type, &suffixed("cast"))?
            };
            Ok(value.into())
        }
        Slot::Load { value } => {
            // The mapped copy's alignment is unknown: align 1.
            let load = builder.build_load(value, basic.into_pointer_value(), &suffixed("load"))?;
            if let Some(instruction) = load.as_instruction_value() {
                let _ = instruction.set_alignment(1);
            }
            Ok(load.into())
        }
    }
}
