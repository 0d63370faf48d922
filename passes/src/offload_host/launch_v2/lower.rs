//! Lowering a v2 launch: the argument arrays (shared,
//! [`crate::offload_host::kernel_launch`]) with each pointer's size
//! overridable by the config's `sizes` at run time, then one call of the
//! module's `__offload_run_launch2` ([`super::run_launch2`]), which reads
//! the rest of the config.

use inkwell::IntPredicate;
use inkwell::builder::{Builder, BuilderError};
use inkwell::values::{IntValue, PointerValue};

use super::config;
use crate::ir::gep;
use crate::offload_host::kernel_launch::{Arrays, KernelArrays, Lowering};
use crate::offload_host::plan::Launch;

/// Calls the module's v2 launch with the call's config; returns its code:
///
/// ```c
/// int32_t K_rc = __offload_run_launch2(config, &K_region_id, N, baseptrs, ptrs,
///                                      sizes, maptypes, sizes_known);
/// ```
///
/// (`N` 0 and null arrays without arguments; `sizes_known` is false when
/// a size known only at run time is 0 in the config.)
pub fn launch<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    builder: &Builder<'ctx>,
    launch: &Launch<'ctx>,
    config: PointerValue<'ctx>,
    arrays: Option<Arrays<'ctx>>,
    region_id: PointerValue<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let types = lowering.types;
    let run_launch2 = lowering
        .functions
        .run_launch2
        .expect("emitted when a v2 launch exists");
    let null = types.ptr().const_null();
    let zero = types.context.i32_type().const_zero();
    let known = types.context.bool_type().const_all_ones();
    let [baseptrs, ptrs, sizes, map_types] = KernelArrays::values(arrays.map(|a| a.arrays), null);
    let args = [
        config.into(),
        region_id.into(),
        arrays
            .map_or(zero, |a| {
                types.context.i32_type().const_int(a.count.into(), false)
            })
            .into(),
        baseptrs.into(),
        ptrs.into(),
        sizes.into(),
        map_types.into(),
        arrays.map_or(known, |a| a.sizes_known).into(),
    ];
    let call = builder.build_call(run_launch2, &args, &format!("{}.rc", launch.kernel))?;
    Ok(call
        .try_as_basic_value()
        .basic()
        .expect("the helper returns i32")
        .into_int_value())
}

/// The array a v2 launch reads run-time sizes from: the config's `sizes`,
/// or (when it or the config is null) the constant sizes, which override
/// nothing. A null config reads no field: the launch then fails in
/// `__offload_run_launch2`.
///
/// ```c
/// const int64_t *source = (!config || !config->sizes) ? constant_sizes : config->sizes;
/// ```
pub fn config_sizes<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    builder: &Builder<'ctx>,
    config: PointerValue<'ctx>,
    constant_sizes: PointerValue<'ctx>,
) -> Result<PointerValue<'ctx>, BuilderError> {
    let types = lowering.types;
    let no_config = builder.build_is_null(config, "")?;
    let field = builder.build_struct_gep(types.launch_config, config, config::SIZES_FIELD, "")?;
    // A null config reads the constant array's first word instead
    // (an address, never read as one: the select below takes the constant).
    let field = builder
        .build_select(no_config, constant_sizes, field, "")?
        .into_pointer_value();
    let sizes = builder
        .build_load(types.ptr(), field, "config.sizes")?
        .into_pointer_value();
    let null = builder.build_is_null(sizes, "")?;
    let none = builder.build_or(null, no_config, "")?;
    Ok(builder
        .build_select(none, constant_sizes, sizes, "")?
        .into_pointer_value())
}

/// Argument `i`'s size (of `n`): `source[i] != 0 ? source[i] : size`.
pub fn config_size<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    builder: &Builder<'ctx>,
    source: PointerValue<'ctx>,
    i: u32,
    n: u32,
    size: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let i64 = lowering.types.context.i64_type();
    // The config holds n sizes (the contract), the constant array too.
    let at = gep::array_element(builder, i64.array_type(n), source, i)?;
    let given = builder.build_load(i64, at, "")?.into_int_value();
    let zero = builder.build_int_compare(IntPredicate::EQ, given, i64.const_zero(), "")?;
    Ok(builder
        .build_select(zero, size, given, "")?
        .into_int_value())
}
