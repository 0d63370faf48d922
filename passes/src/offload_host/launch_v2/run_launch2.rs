//! The v2 launch's run-time half: the module's internal
//! `__offload_run_launch2`, which reads a `LaunchConfig`, checks it and
//! calls `__tgt_target_kernel` (emitted once per module, when a v2 launch
//! needs it).

use inkwell::IntPredicate;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};

use super::{CONFIG_VERSION, code, config};
use crate::offload_host::kernel_launch::{KernelArrays, fill_kernel_args};
use crate::offload_host::libomptarget::Types;

/// Name of the emitted v2 launch (no `__offload_launch2.` prefix: that
/// names a kernel).
pub const RUN_LAUNCH2: &str = "__offload_run_launch2";

/// Emits the v2 launch:
///
/// ```c
/// static int32_t __offload_run_launch2(const LaunchConfig *config, void *region_id,
///                                      int32_t count, void **baseptrs, void **ptrs,
///                                      int64_t *sizes, int64_t *maptypes,
///                                      bool sizes_known) {
///     KernelArgs kernel_args;
///     if (!config || config->version != 2) return -2;  // BAD_CONFIG
///     if (!sizes_known) return -3;                     // NO_SIZE
///     uint32_t teams[3] = config->teams, threads[3] = config->threads;
///     for (int d = 1; d < 3; d++) {                    // y and z of 0 mean 1
///         if (teams[d] == 0) teams[d] = 1;
///         if (threads[d] == 0) threads[d] = 1;
///     }
///     kernel_args = (KernelArgs){3, count, baseptrs, ptrs, sizes, maptypes, NULL, NULL,
///                                0, 0, teams, threads, config->dyn_cgroup_mem};
///     return __tgt_target_kernel(NULL, config->device, teams[0], threads[0],
///                                region_id, &kernel_args);
/// }
/// ```
pub fn emit<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = types.context;
    let (ptr, i32) = (types.ptr(), c.i32_type());
    let params = [ptr, ptr].map(Into::into);
    let rest = [
        i32.into(),
        ptr.into(),
        ptr.into(),
        ptr.into(),
        ptr.into(),
        c.bool_type().into(),
    ];
    let ty = i32.fn_type(&[params.as_slice(), &rest].concat(), false);
    let function = module.add_function(RUN_LAUNCH2, ty, Some(Linkage::Internal));
    let param = |i: u32| function.get_nth_param(i).expect("declared above");
    for (i, name) in [
        "config",
        "region_id",
        "count",
        "baseptrs",
        "ptrs",
        "sizes",
        "maptypes",
        "sizes_known",
    ]
    .into_iter()
    .enumerate()
    {
        param(i as u32).set_name(name);
    }
    let block = |name| c.append_basic_block(function, name);
    let (entry, version, sizes, launch, bad_config, no_size) = (
        block("entry"),
        block("version"),
        block("sizes"),
        block("launch"),
        block("bad_config"),
        block("no_size"),
    );
    let builder = c.create_builder();
    let config = param(0).into_pointer_value();
    builder.position_at_end(entry);
    let kernel_args = builder.build_alloca(types.kernel_args, "kernel_args")?;
    let null = builder.build_is_null(config, "")?;
    builder.build_conditional_branch(null, bad_config, version)?;
    builder.position_at_end(version);
    let field = |builder: &Builder<'ctx>, index| {
        builder.build_struct_gep(types.launch_config, config, index, "")
    };
    let given = builder.build_load(i32, field(&builder, config::VERSION_FIELD)?, "version")?;
    let expected = i32.const_int(CONFIG_VERSION, false);
    let ok = builder.build_int_compare(IntPredicate::EQ, given.into_int_value(), expected, "")?;
    builder.build_conditional_branch(ok, sizes, bad_config)?;
    builder.position_at_end(sizes);
    builder.build_conditional_branch(param(7).into_int_value(), launch, no_size)?;
    for (block, rc) in [(bad_config, code::BAD_CONFIG), (no_size, code::NO_SIZE)] {
        builder.position_at_end(block);
        builder.build_return(Some(&i32.const_int(rc as u64, true)))?;
    }

    builder.position_at_end(launch);
    let teams = dims(&builder, types, field(&builder, config::TEAMS_FIELD)?)?;
    let threads = dims(&builder, types, field(&builder, config::THREADS_FIELD)?)?;
    let dyn_mem = builder.build_load(
        i32,
        field(&builder, config::DYN_CGROUP_MEM_FIELD)?,
        "dyn_cgroup_mem",
    )?;
    let arrays = KernelArrays {
        baseptrs: param(3).into_pointer_value(),
        ptrs: param(4).into_pointer_value(),
        sizes: param(5).into_pointer_value(),
        map_types: param(6).into_pointer_value(),
    };
    let count = param(2).into_int_value();
    fill_kernel_args(
        &builder,
        types,
        kernel_args,
        count,
        Some(arrays),
        [teams.0, threads.0, dyn_mem],
    )?;
    let device = builder.build_load(
        c.i64_type(),
        field(&builder, config::DEVICE_FIELD)?,
        "device",
    )?;
    let rc = builder
        .build_call(
            types.function(module, "__tgt_target_kernel"),
            &[
                ptr.const_null().into(),
                device.into(),
                teams.1.into(),
                threads.1.into(),
                param(1).into(),
                kernel_args.into(),
            ],
            "rc",
        )?
        .try_as_basic_value()
        .basic()
        .expect("__tgt_target_kernel returns i32");
    builder.build_return(Some(&rc))?;
    Ok(function)
}

/// A config's `[3 x i32]` at `at` with y and z of 0 made 1: the array
/// and its x:
///
/// ```c
/// uint32_t d[3] = *at;
/// d[1] = d[1] == 0 ? 1 : d[1];
/// d[2] = d[2] == 0 ? 1 : d[2];
/// ```
fn dims<'ctx>(
    builder: &Builder<'ctx>,
    types: &Types<'ctx>,
    at: PointerValue<'ctx>,
) -> Result<(BasicValueEnum<'ctx>, IntValue<'ctx>), BuilderError> {
    let i32 = types.context.i32_type();
    let array_ty = i32.array_type(3);
    let loaded = builder.build_load(array_ty, at, "")?.into_array_value();
    let x = builder.build_extract_value(loaded, 0, "")?.into_int_value();
    let mut out = loaded;
    for i in 1..3 {
        let v = builder.build_extract_value(loaded, i, "")?.into_int_value();
        let zero = builder.build_int_compare(IntPredicate::EQ, v, i32.const_zero(), "")?;
        let fixed = builder.build_select(zero, i32.const_int(1, false), v, "")?;
        out = builder
            .build_insert_value(out, fixed, i, "")?
            .into_array_value();
    }
    Ok((out.into(), x))
}
