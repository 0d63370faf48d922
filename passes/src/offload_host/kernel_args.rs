//! What every launch form's lowering shares: the argument arrays
//! `KernelArgs` points at, the lowering's state ([`Lowering`]: the module,
//! the runtime's types, the functions emitted for the launches) and
//! [`fill_kernel_args`]. A leaf: [`super::kernel_launch`] (one launch as a
//! whole), [`super::launch_v1::lower`], [`super::launch_v2::lower`] and
//! [`super::data_region::lower`] build on it.

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::Module;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};

use super::libomptarget::{KERNEL_ARGS_VERSION, Types};

/// The four arrays `KernelArgs` points at: base pointers, pointers, sizes,
/// map types.
#[derive(Clone, Copy)]
pub struct KernelArrays<'ctx> {
    pub baseptrs: PointerValue<'ctx>,
    pub ptrs: PointerValue<'ctx>,
    pub sizes: PointerValue<'ctx>,
    pub map_types: PointerValue<'ctx>,
}

impl<'ctx> KernelArrays<'ctx> {
    /// The four pointers, null without arguments.
    pub fn values(
        arrays: Option<KernelArrays<'ctx>>,
        null: PointerValue<'ctx>,
    ) -> [PointerValue<'ctx>; 4] {
        arrays.map_or([null; 4], |a| [a.baseptrs, a.ptrs, a.sizes, a.map_types])
    }
}

/// A launch's argument arrays with their count and (v2) whether every
/// run-time size is known.
#[derive(Clone, Copy)]
pub struct Arrays<'ctx> {
    pub count: u32,
    pub arrays: KernelArrays<'ctx>,
    pub sizes_known: IntValue<'ctx>,
}

/// The internal functions the lowering added to the module for its
/// launches (each once, when a launch needs it).
#[derive(Clone, Copy, Default)]
pub struct EmittedFunctions<'ctx> {
    /// `__offload_launch_check` ([`super::launch_check`]): for launches
    /// whose result is unused.
    pub launch_check: Option<FunctionValue<'ctx>>,
    /// `__offload_run_launch2` ([`super::launch_v2::run_launch2`]).
    pub run_launch2: Option<FunctionValue<'ctx>>,
}

/// The lowering's state, which every launch and data-region call reads.
pub struct Lowering<'a, 'ctx> {
    pub module: &'a Module<'ctx>,
    pub types: &'a Types<'ctx>,
    /// libomptarget device number (v1 launches and data calls).
    pub device: i64,
    pub functions: EmittedFunctions<'ctx>,
}

/// Stores every field of `KernelArgs` version 3 at `kernel_args`:
///
/// ```c
/// *kernel_args = (KernelArgs){3, count, baseptrs, ptrs, sizes, maptypes,
///                             /*ArgNames*/ NULL, /*ArgMappers*/ NULL,
///                             /*Tripcount*/ 0, /*Flags*/ 0,
///                             num_teams, thread_limit, dyn_cgroup_mem};
/// ```
///
/// The four arrays are null without arguments; `grid` is `[NumTeams,
/// ThreadLimit, DynCGroupMem]`.
pub fn fill_kernel_args<'ctx>(
    builder: &Builder<'ctx>,
    types: &Types<'ctx>,
    kernel_args: PointerValue<'ctx>,
    count: IntValue<'ctx>,
    arrays: Option<KernelArrays<'ctx>>,
    grid: [BasicValueEnum<'ctx>; 3],
) -> Result<(), BuilderError> {
    let (i32, i64) = (types.context.i32_type(), types.context.i64_type());
    let null = types.ptr().const_null();
    let [baseptrs, ptrs, sizes, map_types] = KernelArrays::values(arrays, null);
    let fields: [BasicValueEnum<'ctx>; 13] = [
        i32.const_int(KERNEL_ARGS_VERSION, false).into(),
        count.into(),
        baseptrs.into(),
        ptrs.into(),
        sizes.into(),
        map_types.into(),
        null.into(),             // ArgNames
        null.into(),             // ArgMappers
        i64.const_zero().into(), // Tripcount
        i64.const_zero().into(), // Flags
        grid[0],
        grid[1],
        grid[2],
    ];
    for (i, value) in fields.iter().enumerate() {
        let field = builder.build_struct_gep(types.kernel_args, kernel_args, i as u32, "")?;
        builder.build_store(field, *value)?;
    }
    Ok(())
}
