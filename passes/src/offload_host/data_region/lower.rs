//! Lowering a data-region call to its libomptarget mapper.

use inkwell::builder::BuilderError;
use inkwell::values::BasicValueEnum;

use super::DataCall;
use crate::ir::builder::entry_builder;
use crate::ir::{Value, calls};
use crate::offload_host::kernel_args::Lowering;

/// Replaces `__offload_data_{begin,end,update}(p, size, maptype)` with
/// its mapper call of one argument:
///
/// ```c
/// void *baseptrs[1], *ptrs[1];             // entry-block allocas
/// int64_t sizes[1], maptypes[1];
/// baseptrs[0] = ptrs[0] = p;
/// sizes[0] = (uint64_t)size; maptypes[0] = (uint64_t)maptype;
/// __tgt_target_data_begin_mapper(NULL, device, 1, baseptrs, ptrs, sizes, maptypes, NULL, NULL);
/// // (or __tgt_target_data_end_mapper, __tgt_target_data_update_mapper)
/// ```
pub fn lower<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    data: &DataCall<'ctx>,
) -> Result<(), BuilderError> {
    let types = lowering.types;
    let c = types.context;
    let (ptr, i64) = (types.ptr(), c.i64_type());
    let entry = entry_builder(data.caller);
    let baseptrs = entry.build_alloca(ptr.array_type(1), ".offload_baseptrs")?;
    let ptrs = entry.build_alloca(ptr.array_type(1), ".offload_ptrs")?;
    let sizes = entry.build_alloca(i64.array_type(1), ".offload_sizes")?;
    let maps = entry.build_alloca(i64.array_type(1), ".offload_maptypes")?;
    let builder = c.create_builder();
    builder.position_before(&data.call);
    // Checked when planning: (ptr, iN, iN).
    let operands: Vec<BasicValueEnum<'ctx>> = calls::arguments(Value::from(data.call))
        .into_iter()
        .map(|v| {
            v.as_basic()
                .expect("argument types were checked when planning")
        })
        .collect();
    let (pointer, size, map) = (
        operands[0],
        operands[1].into_int_value(),
        operands[2].into_int_value(),
    );
    builder.build_store(baseptrs, pointer)?;
    builder.build_store(ptrs, pointer)?;
    builder.build_store(
        sizes,
        builder.build_int_z_extend_or_bit_cast(size, i64, "")?,
    )?;
    builder.build_store(maps, builder.build_int_z_extend_or_bit_cast(map, i64, "")?)?;
    let null = ptr.const_null();
    builder.build_call(
        types.function(lowering.module, data.op.mapper()),
        &[
            null.into(),
            i64.const_int(lowering.device as u64, true).into(),
            c.i32_type().const_int(1, false).into(),
            baseptrs.into(),
            ptrs.into(),
            sizes.into(),
            maps.into(),
            null.into(),
            null.into(),
        ],
        "",
    )?;
    data.call.erase_from_basic_block();
    Ok(())
}
