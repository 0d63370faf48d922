//! The internal functions the lowering adds to a module (once each, when a
//! launch needs them): the launch-result check, and the v2 launch that
//! reads its `LaunchConfig` at run time.

use inkwell::IntPredicate;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue, UnnamedAddress};

use super::contract_v2::{CONFIG_VERSION, code, config};
use super::libomptarget::Types;
use super::lower::{KernelArrays, Lowering};
use super::registration::constant;

/// Name of the emitted launch-result check.
pub const LAUNCH_CHECK: &str = "__offload_launch_check";
/// Name of the emitted v2 launch (no `__offload_launch2.` prefix: that
/// names a kernel).
pub const RUN_LAUNCH2: &str = "__offload_run_launch2";

/// The helpers of one module.
#[derive(Clone, Copy, Default)]
pub struct Helpers<'ctx> {
    pub check: Option<FunctionValue<'ctx>>,
    pub launch2: Option<FunctionValue<'ctx>>,
}

/// `internal void @__offload_launch_check(i32 %rc, ptr %kernel)`: aborts
/// with `offload: kernel 'K' launch failed (code N)` when `rc` is not 0.
pub fn emit_launch_check<'ctx>(module: &Module<'ctx>, types: &Types<'ctx>) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = types.context;
    let ty = c.void_type().fn_type(&[c.i32_type().into(), types.ptr().into()], false);
    let check = module.add_function(LAUNCH_CHECK, ty, Some(Linkage::Internal));
    let (entry, fail, ok) = (
        c.append_basic_block(check, "entry"),
        c.append_basic_block(check, "fail"),
        c.append_basic_block(check, "ok"),
    );
    let rc = check.get_nth_param(0).expect("rc").into_int_value();
    let kernel = check.get_nth_param(1).expect("kernel");
    rc.set_name("rc");
    kernel.set_name("kernel");
    let builder = c.create_builder();
    builder.position_at_end(entry);
    let failed = builder.build_int_compare(IntPredicate::NE, rc, c.i32_type().const_zero(), "failed")?;
    builder.build_conditional_branch(failed, fail, ok)?;

    builder.position_at_end(fail);
    let stderr = match module.get_global("stderr") {
        Some(g) => g,
        None => {
            let g = module.add_global(types.ptr(), None, "stderr");
            g.set_linkage(Linkage::External);
            g
        }
    };
    let stream = builder.build_load(types.ptr(), stderr.as_pointer_value(), "stderr")?;
    let format = constant(
        module,
        ".offload.launch_failed",
        c.const_string(b"offload: kernel '%s' launch failed (code %d)\n", true),
        Linkage::Private,
    );
    format.set_unnamed_address(UnnamedAddress::Global);
    builder.build_call(
        types.function(module, "fprintf"),
        &[stream.into(), format.as_pointer_value().into(), kernel.into(), rc.into()],
        "",
    )?;
    builder.build_call(types.function(module, "abort"), &[], "")?;
    builder.build_unreachable()?;

    builder.position_at_end(ok);
    builder.build_return(None)?;
    Ok(check)
}

impl<'ctx> Lowering<'_, 'ctx> {
    /// `internal i32 @__offload_run_launch2(ptr %config, ptr %region_id,
    /// i32 %count, ptr %baseptrs, ptr %ptrs, ptr %sizes, ptr %maptypes, i1
    /// %sizes_known)`: returns -2 for a null config or one whose version is
    /// not 2, -3 when a size is missing, else fills `KernelArgs` from the
    /// config (teams, threads and dynamic shared memory; y and z of 0 mean
    /// 1) and returns `__tgt_target_kernel(null, config.device, teams.x,
    /// threads.x, region_id, &args)`.
    pub fn emit_run_launch2(module: &Module<'ctx>, types: &Types<'ctx>) -> Result<FunctionValue<'ctx>, BuilderError> {
        let c = types.context;
        let (ptr, i32) = (types.ptr(), c.i32_type());
        let params = [ptr, ptr].map(Into::into);
        let rest = [i32.into(), ptr.into(), ptr.into(), ptr.into(), ptr.into(), c.bool_type().into()];
        let ty = i32.fn_type(&[params.as_slice(), &rest].concat(), false);
        let function = module.add_function(RUN_LAUNCH2, ty, Some(Linkage::Internal));
        let param = |i: u32| function.get_nth_param(i).expect("declared above");
        for (i, name) in ["config", "region_id", "count", "baseptrs", "ptrs", "sizes", "maptypes", "sizes_known"]
            .into_iter()
            .enumerate()
        {
            param(i as u32).set_name(name);
        }
        let block = |name| c.append_basic_block(function, name);
        let (entry, version, sizes, launch, bad_config, no_size) =
            (block("entry"), block("version"), block("sizes"), block("launch"), block("bad_config"), block("no_size"));
        let builder = c.create_builder();
        let config = param(0).into_pointer_value();
        builder.position_at_end(entry);
        let kernel_args = builder.build_alloca(types.kernel_args, "kernel_args")?;
        let null = builder.build_is_null(config, "")?;
        builder.build_conditional_branch(null, bad_config, version)?;
        builder.position_at_end(version);
        let field = |builder: &Builder<'ctx>, index| builder.build_struct_gep(types.launch_config, config, index, "");
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
        let lowering = Lowering {
            module,
            types,
            device: -1,
            helpers: Helpers::default(),
        };
        let teams = lowering.dims(&builder, field(&builder, config::TEAMS_FIELD)?)?;
        let threads = lowering.dims(&builder, field(&builder, config::THREADS_FIELD)?)?;
        let dyn_mem = builder.build_load(i32, field(&builder, config::DYN_CGROUP_MEM_FIELD)?, "dyn_cgroup_mem")?;
        let arrays = KernelArrays {
            baseptrs: param(3).into_pointer_value(),
            ptrs: param(4).into_pointer_value(),
            sizes: param(5).into_pointer_value(),
            map_types: param(6).into_pointer_value(),
        };
        let count = param(2).into_int_value();
        lowering.fill_kernel_args(&builder, kernel_args, count, Some(arrays), [teams.0, threads.0, dyn_mem])?;
        let device = builder.build_load(c.i64_type(), field(&builder, config::DEVICE_FIELD)?, "device")?;
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
    /// and its x.
    fn dims(
        &self,
        builder: &Builder<'ctx>,
        at: PointerValue<'ctx>,
    ) -> Result<(BasicValueEnum<'ctx>, IntValue<'ctx>), BuilderError> {
        let i32 = self.types.context.i32_type();
        let array_ty = i32.array_type(3);
        let loaded = builder.build_load(array_ty, at, "")?.into_array_value();
        let x = builder.build_extract_value(loaded, 0, "")?.into_int_value();
        let mut out = loaded;
        for i in 1..3 {
            let v = builder.build_extract_value(loaded, i, "")?.into_int_value();
            let zero = builder.build_int_compare(IntPredicate::EQ, v, i32.const_zero(), "")?;
            let fixed = builder.build_select(zero, i32.const_int(1, false), v, "")?;
            out = builder.build_insert_value(out, fixed, i, "")?.into_array_value();
        }
        Ok((out.into(), x))
    }
}
