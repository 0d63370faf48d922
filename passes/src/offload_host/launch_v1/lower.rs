//! Lowering a v1 launch: `KernelArgs` filled inline from the compile-time
//! grid, then `__tgt_target_kernel` (the argument arrays are the shared
//! [`crate::offload_host::kernel_launch`]'s).

use inkwell::builder::{Builder, BuilderError};
use inkwell::values::{IntValue, PointerValue};

use crate::offload_host::kernel_args::{Arrays, Lowering, fill_kernel_args};
use crate::offload_host::launch_plan::{Grid, Launch};

/// Fills `KernelArgs` version 3 field by field from compile-time values
/// and calls the runtime; returns its `i32` result:
///
/// ```c
/// KernelArgs kernel_args = {3, N, baseptrs, ptrs, sizes, maptypes, NULL, NULL, 0, 0,
///                           {tx, ty, tz}, {hx, hy, hz}, dyn_cgroup_mem};  // entry-block alloca
/// int32_t K_rc = __tgt_target_kernel(NULL, device, tx, hx, &K_region_id, &kernel_args);
/// ```
pub fn launch<'ctx>(
    lowering: &Lowering<'_, 'ctx>,
    builder: &Builder<'ctx>,
    entry: &Builder<'ctx>,
    launch: &Launch<'ctx>,
    arrays: Option<Arrays<'ctx>>,
    region_id: PointerValue<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let Grid::Static {
        teams,
        threads,
        dyn_cgroup_mem,
    } = launch.grid
    else {
        unreachable!("a static launch")
    };
    let types = lowering.types;
    let c = types.context;
    let (i32, i64) = (c.i32_type(), c.i64_type());
    let dims = |d: [u32; 3]| i32.const_array(&d.map(|x| i32.const_int(x.into(), false)));
    let kernel_args = entry.build_alloca(types.kernel_args, "kernel_args")?;
    let grid = [
        dims(teams).into(),
        dims(threads).into(),
        i32.const_int(dyn_cgroup_mem.into(), false).into(),
    ];
    let count = i32.const_int(arrays.map_or(0, |a| a.count).into(), false);
    fill_kernel_args(
        builder,
        types,
        kernel_args,
        count,
        arrays.map(|a| a.arrays),
        grid,
    )?;
    let rc = builder
        .build_call(
            types.function(lowering.module, "__tgt_target_kernel"),
            &[
                types.ptr().const_null().into(),
                i64.const_int(lowering.device as u64, true).into(),
                i32.const_int(teams[0].into(), false).into(),
                i32.const_int(threads[0].into(), false).into(),
                region_id.into(),
                kernel_args.into(),
            ],
            &format!("{}.rc", launch.kernel),
        )?
        .try_as_basic_value()
        .basic()
        .expect("__tgt_target_kernel returns i32");
    Ok(rc.into_int_value())
}
