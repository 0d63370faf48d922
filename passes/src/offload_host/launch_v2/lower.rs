//! Lowering a v2 launch: the argument arrays (shared,
//! [`crate::offload_host::kernel_launch`]) with each pointer's size
//! overridable by the config's `sizes` at run time, then one call of the
//! module's `__offload_run_launch2` ([`super::run_launch2`]), which reads
//! the rest of the config.

use inkwell::IntPredicate;
use inkwell::builder::{Builder, BuilderError};
use inkwell::values::{IntValue, PointerValue};

use super::{CONFIG_VERSION_ZERO_NOT_GIVEN, SIZE_NOT_GIVEN, config};
use crate::ir::gep;
use crate::offload_host::kernel_args::{Arrays, KernelArrays, Lowering};
use crate::offload_host::launch_plan::Launch;

/// Calls the module's v2 launch with the call's config; returns its code:
///
/// ```c
/// int32_t K_rc = __offload_run_launch2(config, &K_region_id, N, baseptrs, ptrs,
///                                      sizes, maptypes, sizes_known);
/// ```
///
/// (`N` 0 and null arrays without arguments; `sizes_known` is false when
/// the config gives no size for a pointer whose size is known only at run
/// time.)
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

/// Where a v2 launch reads run-time sizes: the array, whether the config
/// has one, and the entry value that gives no size (by the config's
/// version).
#[derive(Clone, Copy)]
pub struct ConfigSizes<'ctx> {
    source: PointerValue<'ctx>,
    has_sizes: IntValue<'ctx>,
    not_given: IntValue<'ctx>,
}

/// The config's sizes: its `sizes`, or (when it or the config is null) the
/// constant sizes, which give nothing. A null config reads no field: the
/// launch then fails in `__offload_run_launch2`, which also refuses an
/// unknown version.
///
/// ```c
/// bool has_sizes = config && config->sizes;
/// const int64_t *source = has_sizes ? config->sizes : constant_sizes;
/// int64_t not_given = config && config->version == 2 ? 0 : SIZE_NOT_GIVEN;
/// ```
pub fn config_sizes<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    builder: &Builder<'ctx>,
    config: PointerValue<'ctx>,
    constant_sizes: PointerValue<'ctx>,
) -> Result<ConfigSizes<'ctx>, BuilderError> {
    let types = lowering.types;
    let (i32, i64) = (types.context.i32_type(), types.context.i64_type());
    let no_config = builder.build_is_null(config, "")?;
    // A null config reads the constant array's first words instead (never
    // used: the selects below take the constants).
    let field = |index, name| -> Result<PointerValue<'ctx>, BuilderError> {
        let at = builder.build_struct_gep(types.launch_config, config, index, name)?;
        Ok(builder
            .build_select(no_config, constant_sizes, at, "")?
            .into_pointer_value())
    };
    let version = builder.build_load(i32, field(config::VERSION_FIELD, "")?, "config.version")?;
    let zero_not_given = builder.build_int_compare(
        IntPredicate::EQ,
        version.into_int_value(),
        i32.const_int(CONFIG_VERSION_ZERO_NOT_GIVEN, false),
        "",
    )?;
    let not_given = builder
        .build_select(
            zero_not_given,
            i64.const_zero(),
            i64.const_int(SIZE_NOT_GIVEN, false),
            "size.not_given",
        )?
        .into_int_value();
    let sizes = builder
        .build_load(types.ptr(), field(config::SIZES_FIELD, "")?, "config.sizes")?
        .into_pointer_value();
    let null = builder.build_is_null(sizes, "")?;
    let none = builder.build_or(null, no_config, "")?;
    Ok(ConfigSizes {
        source: builder
            .build_select(none, constant_sizes, sizes, "")?
            .into_pointer_value(),
        has_sizes: builder.build_not(none, "")?,
        not_given,
    })
}

/// Argument `i`'s size (of `n`) and whether the config gave it:
///
/// ```c
/// bool given = has_sizes && source[i] != not_given;
/// int64_t size_i = given ? source[i] : size;
/// ```
pub fn config_size<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    builder: &Builder<'ctx>,
    sizes: ConfigSizes<'ctx>,
    i: u32,
    n: u32,
    size: IntValue<'ctx>,
) -> Result<(IntValue<'ctx>, IntValue<'ctx>), BuilderError> {
    let i64 = lowering.types.context.i64_type();
    // The config holds n sizes (the contract), the constant array too.
    let at = gep::array_element(builder, i64.array_type(n), sizes.source, i)?;
    let entry = builder.build_load(i64, at, "")?.into_int_value();
    let given = builder.build_int_compare(IntPredicate::NE, entry, sizes.not_given, "")?;
    let given = builder.build_and(sizes.has_sizes, given, "")?;
    let size = builder
        .build_select(given, entry, size, "")?
        .into_int_value();
    Ok((size, given))
}
