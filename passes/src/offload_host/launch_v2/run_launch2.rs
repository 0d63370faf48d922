//! The v2 launch's run-time half: the module's internal
//! `__offload_run_launch2`, which reads a `LaunchConfig`, checks it and
//! calls `__tgt_target_kernel` (emitted once per module, when a v2 launch
//! needs it).

use inkwell::IntPredicate;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{
    BasicMetadataValueEnum, BasicValueEnum, CallSiteValue, FunctionValue, IntValue, PointerValue,
    UnnamedAddress,
};
use offload_contract::launch_config::DEFAULT_DEVICE;

use super::{CONFIG_VERSION, CONFIG_VERSION_ZERO_NOT_GIVEN, code, config};
use crate::ir::gep;
use crate::offload_host::descriptor::map_type;
use crate::offload_host::kernel_args::{KernelArrays, fill_kernel_args};
use crate::offload_host::libomptarget::Types;
use crate::offload_host::registration::constant;

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
///     if (!config || (config->version != 3 && config->version != 2))
///         return -2;                                   // BAD_CONFIG
///     if (!sizes_known) return -3;                     // NO_SIZE
///     int64_t device = config->device;                 // libomptarget aborts on these:
///     int32_t devices = omp_get_num_devices();
///     if (devices == 0) return -7;                     // NO_DEVICE_FOR_IMAGES
///     if (device < -1 || device >= devices)
///         return -100;                                 // NO_SUCH_DEVICE
///     for (uint32_t i = 0; i < count; i++) {
///         if (maptypes[i] & LITERAL) continue;
///         if (sizes[i] < 0) return -5;                 // SIZE_TOO_LARGE
///         if (!ptrs[i] && sizes[i] != 0) return -4;    // NULL_POINTER
///         if (sizes[i] >= PROBE_BYTES && !present(ptrs[i], device) && !fits(sizes[i], device))
///             return -6;                               // OUT_OF_DEVICE_MEMORY
///     }
///     uint32_t teams[3] = config->teams, threads[3] = config->threads;
///     for (int d = 1; d < 3; d++) {                    // y and z of 0 mean 1
///         if (teams[d] == 0) teams[d] = 1;
///         if (threads[d] == 0) threads[d] = 1;
///     }
///     kernel_args = (KernelArgs){3, count, baseptrs, ptrs, sizes, maptypes, NULL, NULL,
///                                0, 0, teams, threads, config->dyn_cgroup_mem};
///     return __tgt_target_kernel(&__offload_ident, device, teams[0], threads[0],
///                                region_id, &kernel_args);
/// }
/// ```
///
/// `__offload_ident` is a real `ident_t` ([`ident`]); `present` and `fits`
/// are [`probe_allocation`]'s.
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
    let builder = c.create_builder();
    let entry = c.append_basic_block(function, "entry");
    let blocks = Refusals::append(function, types)?;
    let config = param(0).into_pointer_value();
    builder.position_at_end(entry);
    let kernel_args = builder.build_alloca(types.kernel_args, "kernel_args")?;
    let device = check_config(&builder, module, types, function, config, &blocks)?;
    let arrays = KernelArrays {
        baseptrs: param(3).into_pointer_value(),
        ptrs: param(4).into_pointer_value(),
        sizes: param(5).into_pointer_value(),
        map_types: param(6).into_pointer_value(),
    };
    let count = param(2).into_int_value();
    let probe = Probe {
        module,
        device,
        refusal: blocks.out_of_memory,
    };
    check_arguments(&builder, types, function, count, arrays, &blocks, &probe)?;

    let field = |index| builder.build_struct_gep(types.launch_config, config, index, "");
    let teams = dims(&builder, types, field(config::TEAMS_FIELD)?)?;
    let threads = dims(&builder, types, field(config::THREADS_FIELD)?)?;
    let dyn_mem =
        builder.build_load(i32, field(config::DYN_CGROUP_MEM_FIELD)?, "dyn_cgroup_mem")?;
    fill_kernel_args(
        &builder,
        types,
        kernel_args,
        count,
        Some(arrays),
        [teams.0, threads.0, dyn_mem],
    )?;
    let rc = builder
        .build_call(
            types.function(module, "__tgt_target_kernel"),
            &[
                ident(module, types).into(),
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

/// The source location a v2 launch passes libomptarget: no location (a
/// line and column of 0), in the shortest form libomptarget parses.
/// libomptarget builds a `SourceInfo` from the launch's `ident_t` three or
/// more times per launch (for its time-trace scopes and its error report); for
/// a null `ident_t` it parses its default `";unknown;unknown;0;0;;"`, which
/// is too long for `std::string`'s inline buffer: each parse then copies it
/// to the heap (about 0.7k instructions more per parse, 2k per launch).
pub const PSOURCE: &str = ";;;0;0;;";

/// `KMP_IDENT_KMPC`, the flags clang gives its `ident_t`s.
const IDENT_KMPC: u64 = 2;

/// The module's `ident_t` for `__tgt_target_kernel` (emitted once):
///
/// ```c
/// static const char __offload_psource[] = ";;;0;0;;";
/// static const ident_t __offload_ident = {0, KMP_IDENT_KMPC, 0,
///                                         sizeof __offload_psource - 1,
///                                         __offload_psource};
/// ```
fn ident<'ctx>(module: &Module<'ctx>, types: &Types<'ctx>) -> PointerValue<'ctx> {
    const NAME: &str = "__offload_ident";
    if let Some(global) = module.get_global(NAME) {
        return global.as_pointer_value();
    }
    let c = types.context;
    let i32 = c.i32_type();
    let psource = constant(
        module,
        "__offload_psource",
        c.const_string(PSOURCE.as_bytes(), true),
        Linkage::Private,
    );
    psource.set_unnamed_address(UnnamedAddress::Global);
    let fields = [
        i32.const_zero().into(),
        i32.const_int(IDENT_KMPC, false).into(),
        i32.const_zero().into(),
        i32.const_int(PSOURCE.len() as u64, false).into(),
        psource.as_pointer_value().into(),
    ];
    let ident = constant(
        module,
        NAME,
        c.const_struct(&fields, false),
        Linkage::Private,
    );
    ident.set_unnamed_address(UnnamedAddress::Global);
    ident.as_pointer_value()
}

/// The blocks that return a code without launching, one per code.
struct Refusals<'ctx> {
    bad_config: BasicBlock<'ctx>,
    no_size: BasicBlock<'ctx>,
    no_such_device: BasicBlock<'ctx>,
    no_device: BasicBlock<'ctx>,
    too_large: BasicBlock<'ctx>,
    null_pointer: BasicBlock<'ctx>,
    out_of_memory: BasicBlock<'ctx>,
}

impl<'ctx> Refusals<'ctx> {
    fn append(function: FunctionValue<'ctx>, types: &Types<'ctx>) -> Result<Self, BuilderError> {
        let c = types.context;
        let builder = c.create_builder();
        let block = |name, rc: i32| -> Result<BasicBlock<'ctx>, BuilderError> {
            let block = c.append_basic_block(function, name);
            builder.position_at_end(block);
            builder.build_return(Some(&c.i32_type().const_int(rc as u64, true)))?;
            Ok(block)
        };
        Ok(Refusals {
            bad_config: block("bad_config", code::BAD_CONFIG)?,
            no_size: block("no_size", code::NO_SIZE)?,
            no_such_device: block("no_such_device", code::NO_SUCH_DEVICE)?,
            no_device: block("no_device_for_images", code::NO_DEVICE_FOR_IMAGES)?,
            too_large: block("size_too_large", code::SIZE_TOO_LARGE)?,
            null_pointer: block("null_pointer", code::NULL_POINTER)?,
            out_of_memory: block("out_of_device_memory", code::OUT_OF_DEVICE_MEMORY)?,
        })
    }
}

/// The config's checks, from the entry block: a config of an accepted
/// version, every size known, a runtime with devices (none: no device here
/// takes any of the program's images, and libomptarget aborts a launch on
/// the default device), a device of the runtime. Leaves the builder where
/// they passed; returns the device.
///
/// ```c
/// if (!config || (config->version != 3 && config->version != 2)) return -2;
/// if (!sizes_known) return -3;
/// int64_t device = config->device;
/// int32_t devices = omp_get_num_devices();
/// if (devices == 0) return -7;
/// if (device < -1 || device >= devices) return -100;
/// ```
fn check_config<'ctx>(
    builder: &Builder<'ctx>,
    module: &Module<'ctx>,
    types: &Types<'ctx>,
    function: FunctionValue<'ctx>,
    config: PointerValue<'ctx>,
    refusals: &Refusals<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let c = types.context;
    let (i32, i64) = (c.i32_type(), c.i64_type());
    let next = |name| c.append_basic_block(function, name);
    let (version, sizes, device_block) = (
        next("check_version"),
        next("check_sizes"),
        next("check_device"),
    );
    let null = builder.build_is_null(config, "")?;
    builder.build_conditional_branch(null, refusals.bad_config, version)?;
    builder.position_at_end(version);
    let field = |index| builder.build_struct_gep(types.launch_config, config, index, "");
    let given = builder
        .build_load(i32, field(config::VERSION_FIELD)?, "version")?
        .into_int_value();
    let is = |v| builder.build_int_compare(IntPredicate::EQ, given, i32.const_int(v, false), "");
    let ok = builder.build_or(is(CONFIG_VERSION)?, is(CONFIG_VERSION_ZERO_NOT_GIVEN)?, "")?;
    builder.build_conditional_branch(ok, sizes, refusals.bad_config)?;
    builder.position_at_end(sizes);
    let known = function
        .get_nth_param(7)
        .expect("declared")
        .into_int_value();
    builder.build_conditional_branch(known, device_block, refusals.no_size)?;
    builder.position_at_end(device_block);
    let device = builder
        .build_load(i64, field(config::DEVICE_FIELD)?, "device")?
        .into_int_value();
    let devices = builder
        .build_call(
            types.function(module, "omp_get_num_devices"),
            &[],
            "devices",
        )?
        .try_as_basic_value()
        .basic()
        .expect("omp_get_num_devices returns i32")
        .into_int_value();
    let range = next("check_device_range");
    let none = builder.build_int_compare(IntPredicate::EQ, devices, i32.const_zero(), "")?;
    builder.build_conditional_branch(none, refusals.no_device, range)?;
    builder.position_at_end(range);
    let devices = builder.build_int_s_extend(devices, i64, "")?;
    let below = builder.build_int_compare(
        IntPredicate::SLT,
        device,
        i64.const_int(DEFAULT_DEVICE as u64, true),
        "",
    )?;
    let above = builder.build_int_compare(IntPredicate::SGE, device, devices, "")?;
    let out_of_range = builder.build_or(below, above, "")?;
    let arguments = next("check_arguments");
    builder.build_conditional_branch(out_of_range, refusals.no_such_device, arguments)?;
    builder.position_at_end(arguments);
    Ok(device)
}

/// Each mapped argument's checks (libomptarget crashes on a null pointer
/// with a size and aborts on a size of 2^63 or more, or when it cannot
/// allocate the device copy); leaves the builder where all passed.
///
/// ```c
/// for (uint32_t i = 0; i < count; i++) {
///     if (maptypes[i] & LITERAL) continue;
///     if (sizes[i] < 0) return -5;
///     if (!ptrs[i] && sizes[i] != 0) return -4;
///     if (sizes[i] >= PROBE_BYTES && !present(ptrs[i], device) && !fits(sizes[i], device))
///         return -6;
/// }
/// ```
fn check_arguments<'ctx>(
    builder: &Builder<'ctx>,
    types: &Types<'ctx>,
    function: FunctionValue<'ctx>,
    count: IntValue<'ctx>,
    arrays: KernelArrays<'ctx>,
    refusals: &Refusals<'ctx>,
    probe: &Probe<'_, 'ctx>,
) -> Result<(), BuilderError> {
    let c = types.context;
    let (i32, i64, ptr) = (c.i32_type(), c.i64_type(), types.ptr());
    let next = |name| c.append_basic_block(function, name);
    let before = builder.get_insert_block().expect("positioned");
    let (head, mapped, sized, allocated, advance, launch) = (
        next("argument"),
        next("mapped"),
        next("sized"),
        next("check_allocation"),
        next("next_argument"),
        next("launch"),
    );
    builder.build_unconditional_branch(head)?;
    builder.position_at_end(head);
    let i = builder.build_phi(i32, "i")?;
    let index = i.as_basic_value().into_int_value();
    let done = builder.build_int_compare(IntPredicate::UGE, index, count, "")?;
    let element = |array, ty: BasicTypeEnum<'ctx>| -> Result<BasicValueEnum<'ctx>, BuilderError> {
        // Element i < count of an argument array.
        let at = gep::element(builder, ty, array, index)?;
        builder.build_load(ty, at, "")
    };
    let body = next("argument_body");
    builder.build_conditional_branch(done, launch, body)?;
    builder.position_at_end(body);
    let map = element(arrays.map_types, i64.into())?.into_int_value();
    let literal = builder.build_and(map, i64.const_int(map_type::LITERAL, false), "")?;
    let literal = builder.build_int_compare(IntPredicate::NE, literal, i64.const_zero(), "")?;
    builder.build_conditional_branch(literal, advance, mapped)?;
    builder.position_at_end(mapped);
    let size = element(arrays.sizes, i64.into())?.into_int_value();
    let negative = builder.build_int_compare(IntPredicate::SLT, size, i64.const_zero(), "")?;
    builder.build_conditional_branch(negative, refusals.too_large, sized)?;
    builder.position_at_end(sized);
    let pointer = element(arrays.ptrs, ptr.into())?.into_pointer_value();
    let null = builder.build_is_null(pointer, "")?;
    let some = builder.build_int_compare(IntPredicate::NE, size, i64.const_zero(), "")?;
    let null_with_size = builder.build_and(null, some, "")?;
    builder.build_conditional_branch(null_with_size, refusals.null_pointer, allocated)?;
    builder.position_at_end(allocated);
    probe_allocation(builder, types, function, probe, (pointer, size), advance)?;
    builder.position_at_end(advance);
    let after = builder.build_int_add(index, i32.const_int(1, false), "")?;
    builder.build_unconditional_branch(head)?;
    i.add_incoming(&[(&i32.const_zero(), before), (&after, advance)]);
    builder.position_at_end(launch);
    Ok(())
}

/// What [`probe_allocation`] needs: the module (its runtime declarations),
/// the launch's device (-1: the default one) and the block refusing the
/// launch.
struct Probe<'m, 'ctx> {
    module: &'m Module<'ctx>,
    device: IntValue<'ctx>,
    refusal: BasicBlock<'ctx>,
}

/// From the builder's block to `next`, or to the refusal when a mapped
/// argument of `PROBE_BYTES` or more is not present on the device and a
/// trial allocation of its size fails (libomptarget aborts the process
/// when its own allocation of the device copy fails):
///
/// ```c
/// if (size >= PROBE_BYTES) {
///     int32_t dev = device == -1 ? omp_get_default_device() : device;
///     if (!omp_target_is_present(ptr, dev)) {
///         void *trial = omp_target_alloc(size, dev);
///         if (!trial) return -6;
///         omp_target_free(trial, dev);
///     }
/// }
/// ```
fn probe_allocation<'ctx>(
    builder: &Builder<'ctx>,
    types: &Types<'ctx>,
    function: FunctionValue<'ctx>,
    probe: &Probe<'_, 'ctx>,
    (pointer, size): (PointerValue<'ctx>, IntValue<'ctx>),
    next: BasicBlock<'ctx>,
) -> Result<(), BuilderError> {
    let c = types.context;
    let (i32, i64) = (c.i32_type(), c.i64_type());
    let block = |name| c.append_basic_block(function, name);
    let (large, absent, fits) = (block("large"), block("absent"), block("fits"));
    let call = |name, args: &[BasicMetadataValueEnum<'ctx>]| {
        builder.build_call(types.function(probe.module, name), args, "")
    };
    let value = |site: CallSiteValue<'ctx>| site.try_as_basic_value().basic().expect("returns");
    let threshold = i64.const_int(code::PROBE_BYTES, false);
    let is_large = builder.build_int_compare(IntPredicate::UGE, size, threshold, "")?;
    builder.build_conditional_branch(is_large, large, next)?;
    builder.position_at_end(large);
    let device = probe_device(builder, types, function, probe)?;
    let present = value(call(
        "omp_target_is_present",
        &[pointer.into(), device.into()],
    )?);
    let present = builder.build_int_compare(
        IntPredicate::NE,
        present.into_int_value(),
        i32.const_zero(),
        "",
    )?;
    builder.build_conditional_branch(present, next, absent)?;
    builder.position_at_end(absent);
    let trial = value(call("omp_target_alloc", &[size.into(), device.into()])?);
    let failed = builder.build_is_null(trial.into_pointer_value(), "")?;
    builder.build_conditional_branch(failed, probe.refusal, fits)?;
    builder.position_at_end(fits);
    call("omp_target_free", &[trial.into(), device.into()])?;
    builder.build_unconditional_branch(next)?;
    Ok(())
}

/// The launch's device as a number, from the builder's block (which it
/// leaves at the end of the one it appends last):
///
/// ```c
/// int32_t dev = device != -1 ? device
///             : &omp_get_default_device ? omp_get_default_device() : 0;
/// ```
///
/// `omp_get_default_device` is libomp's, which a program that links only
/// libomptarget does not name (libomptarget loads it): the declaration the
/// pass adds is `extern_weak`, bound when the program starts.
fn probe_device<'ctx>(
    builder: &Builder<'ctx>,
    types: &Types<'ctx>,
    function: FunctionValue<'ctx>,
    probe: &Probe<'_, 'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    const DEFAULT: &str = "omp_get_default_device";
    let c = types.context;
    let (i32, i64) = (c.i32_type(), c.i64_type());
    let block = |name| c.append_basic_block(function, name);
    let (ask, known) = (block("ask_default_device"), block("device_known"));
    let start = builder.get_insert_block().expect("positioned");
    let default = probe.module.get_function(DEFAULT).unwrap_or_else(|| {
        let declared = types.function(probe.module, DEFAULT);
        declared.set_linkage(Linkage::ExternalWeak);
        declared
    });
    let minus_one = i64.const_int(DEFAULT_DEVICE as u64, true);
    let is_default = builder.build_int_compare(IntPredicate::EQ, probe.device, minus_one, "")?;
    let linked = builder.build_is_not_null(default.as_global_value().as_pointer_value(), "")?;
    let asks = builder.build_and(is_default, linked, "")?;
    // -1 without libomp: device 0, libomp's default.
    let given = builder.build_int_truncate(probe.device, i32, "")?;
    let given = builder
        .build_select(is_default, i32.const_zero(), given, "")?
        .into_int_value();
    builder.build_conditional_branch(asks, ask, known)?;
    builder.position_at_end(ask);
    let answer = builder
        .build_call(default, &[], "default_device")?
        .try_as_basic_value()
        .basic()
        .expect("omp_get_default_device returns i32")
        .into_int_value();
    builder.build_unconditional_branch(known)?;
    builder.position_at_end(known);
    let device = builder.build_phi(i32, "probe_device")?;
    device.add_incoming(&[(&given, start), (&answer, ask)]);
    Ok(device.as_basic_value().into_int_value())
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
