//! Lowering: each launch becomes clang's one-call form — its argument
//! arrays and one `__tgt_target_kernel` whose `KernelArgs` carry the map
//! arrays, so the runtime maps, launches and unmaps in that one call (inside
//! a data region it finds the data present and copies nothing). A v1 launch
//! fills `KernelArgs` inline from compile-time values; a v2 launch calls the
//! module's `__offload_run_launch2` ([`helpers`]) with its config. Each
//! data-region call becomes one mapper call.

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue, UnnamedAddress};
use inkwell::IntPredicate;

use super::contract::map_type;
use super::contract_v2::config;
use super::helpers::Helpers;
use super::libomptarget::{KERNEL_ARGS_VERSION, Types};
use super::plan::{ArgPlan, DataCall, Grid, Launch, Size};
use super::registration::{Registration, constant};
use crate::ir::builder::entry_builder;
use crate::ir::{Type, Value, calls};
use crate::kernel_manifest::FloatKind;

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
    fn values(arrays: Option<KernelArrays<'ctx>>, null: PointerValue<'ctx>) -> [PointerValue<'ctx>; 4] {
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

pub struct Lowering<'a, 'ctx> {
    pub module: &'a Module<'ctx>,
    pub types: &'a Types<'ctx>,
    /// libomptarget device number (v1 launches and data calls).
    pub device: i64,
    pub helpers: Helpers<'ctx>,
}

impl<'ctx> Lowering<'_, 'ctx> {
    /// Replaces one launch call with the one-call sequence.
    pub fn lower_launch(&self, registration: &Registration<'ctx>, launch: &Launch<'ctx>) -> Result<(), BuilderError> {
        // The call's operands now: an earlier launch may have replaced one.
        let operands: Vec<BasicValueEnum<'ctx>> = calls::arguments(Value::from(launch.call))
            .into_iter()
            .map(|v| v.as_basic().expect("argument types were checked when planning"))
            .collect();
        let (region_id, name) = registration.kernels[&launch.kernel];
        let region_id = region_id.as_pointer_value();
        // Allocas go to the entry block, in this order, through one builder.
        let entry = entry_builder(launch.caller);
        let builder = self.types.context.create_builder();
        builder.position_before(&launch.call);
        let config = match launch.grid {
            Grid::Config => Some(operands[1].into_pointer_value()),
            Grid::Static { .. } => None,
        };
        let arrays = self.fill_arguments(&builder, &entry, launch, &operands[launch.first_arg as usize..], config)?;
        let rc = match (launch.grid, config) {
            (Grid::Static { .. }, _) => self.launch_static(&builder, &entry, launch, arrays, region_id)?,
            (Grid::Config, Some(config)) => {
                let helper = self.helpers.launch2.expect("emitted when a v2 launch exists");
                let null = self.types.ptr().const_null();
                let zero = self.types.context.i32_type().const_zero();
                let known = self.types.context.bool_type().const_all_ones();
                let [baseptrs, ptrs, sizes, map_types] = KernelArrays::values(arrays.map(|a| a.arrays), null);
                let args = [
                    config.into(),
                    region_id.into(),
                    arrays.map_or(zero, |a| self.types.context.i32_type().const_int(a.count.into(), false)).into(),
                    baseptrs.into(),
                    ptrs.into(),
                    sizes.into(),
                    map_types.into(),
                    arrays.map_or(known, |a| a.sizes_known).into(),
                ];
                let call = builder.build_call(helper, &args, &format!("{}.rc", launch.kernel))?;
                call.try_as_basic_value().basic().expect("the helper returns i32").into_int_value()
            }
            (Grid::Config, None) => unreachable!("a v2 launch has its config"),
        };
        if launch.returns_code {
            Value::from(launch.call).replace_all_uses_with(rc.into());
        } else {
            let check = self.helpers.check.expect("emitted when a launch ignores its result");
            builder.build_call(check, &[rc.into(), name.as_pointer_value().into()], "")?;
        }
        launch.call.erase_from_basic_block();
        Ok(())
    }

    /// Entry-block arrays of base pointers, pointers and (when a size is
    /// only known at run time) sizes, filled before the call, and the map
    /// types; `None` for a launch without arguments.
    fn fill_arguments(
        &self,
        builder: &Builder<'ctx>,
        entry: &Builder<'ctx>,
        launch: &Launch<'ctx>,
        operands: &[BasicValueEnum<'ctx>],
        config: Option<PointerValue<'ctx>>,
    ) -> Result<Option<Arrays<'ctx>>, BuilderError> {
        let n = launch.args.len() as u32;
        if n == 0 {
            return Ok(None);
        }
        let (ptr, i64) = (self.types.ptr(), self.types.context.i64_type());
        let baseptrs = entry.build_alloca(ptr.array_type(n), ".offload_baseptrs")?;
        let ptrs = entry.build_alloca(ptr.array_type(n), ".offload_ptrs")?;
        // v2: every pointer's size may come from the config at run time.
        let run_time = |a: &ArgPlan| a.constant_size().is_none() || (config.is_some() && matches!(a, ArgPlan::Mapped { .. }));
        let sizes_alloca = if launch.args.iter().any(run_time) {
            Some(entry.build_alloca(i64.array_type(n), ".offload_sizes")?)
        } else {
            None
        };
        // Spills of by-value aggregates, after the arrays.
        let spills = launch
            .args
            .iter()
            .zip(operands)
            .map(|(arg, value)| match arg {
                ArgPlan::Spilled { .. } => entry.build_alloca(value.get_type(), ".offload_byval").map(Some),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Constant sizes: the array itself, or (v2) what the config's sizes override.
        let constant_sizes = (sizes_alloca.is_none() || config.is_some()).then(|| {
            let sizes: Vec<_> = launch.args.iter().map(|a| i64.const_int(a.constant_size().unwrap_or(0), false)).collect();
            private_array(self.module, &format!(".offload_sizes.{}", launch.kernel), i64.const_array(&sizes))
        });
        let config_sizes = match (config, sizes_alloca, constant_sizes) {
            (Some(config), Some(_), Some(constant)) => Some(self.config_sizes(builder, config, constant)?),
            _ => None,
        };
        let mut sizes_known = self.types.context.bool_type().const_all_ones();
        for (i, (arg, &value)) in launch.args.iter().zip(operands).enumerate() {
            let slot = self.argument_slot(builder, arg, value, spills[i])?;
            let index = [i64.const_zero(), i64.const_int(i as u64, false)];
            // SAFETY: `i < n`, inside the [n x ptr] / [n x i64] arrays.
            unsafe {
                builder.build_store(builder.build_in_bounds_gep(ptr.array_type(n), baseptrs, &index, "")?, slot)?;
                builder.build_store(builder.build_in_bounds_gep(ptr.array_type(n), ptrs, &index, "")?, slot)?;
            }
            if let Some(sizes) = sizes_alloca {
                let mut size = self.argument_size(builder, arg, operands)?;
                if let (Some(source), ArgPlan::Mapped { .. }) = (config_sizes, arg) {
                    size = self.config_size(builder, source, i as u32, n, size)?;
                    if matches!(arg, ArgPlan::Mapped { size: Size::RunTime, .. }) {
                        let known = builder.build_int_compare(IntPredicate::NE, size, i64.const_zero(), "")?;
                        sizes_known = builder.build_and(sizes_known, known, "")?;
                    }
                }
                // SAFETY: as above.
                let at = unsafe { builder.build_in_bounds_gep(i64.array_type(n), sizes, &index, "")? };
                builder.build_store(at, size)?;
            }
        }
        let map_types: Vec<_> = launch.args.iter().map(|a| i64.const_int(map_type::kernel(a.map()), false)).collect();
        Ok(Some(Arrays {
            count: n,
            arrays: KernelArrays {
                baseptrs,
                ptrs,
                sizes: sizes_alloca.or(constant_sizes).expect("an array or a constant"),
                map_types: private_array(self.module, &format!(".offload_maptypes.{}", launch.kernel), i64.const_array(&map_types)),
            },
            sizes_known,
        }))
    }

    /// The array a v2 launch reads run-time sizes from: the config's
    /// `sizes`, or (when it or the config is null) the constant sizes,
    /// which override nothing. A null config reads no field: the launch
    /// then fails in `__offload_run_launch2`.
    fn config_sizes(
        &self,
        builder: &Builder<'ctx>,
        config: PointerValue<'ctx>,
        constant_sizes: PointerValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, BuilderError> {
        let ptr = self.types.ptr();
        let no_config = builder.build_is_null(config, "")?;
        let field = builder.build_struct_gep(self.types.launch_config, config, config::SIZES_FIELD, "")?;
        // A null config reads the constant array's first word instead
        // (an address, never read as one: the select below takes the constant).
        let field = builder.build_select(no_config, constant_sizes, field, "")?.into_pointer_value();
        let sizes = builder.build_load(ptr, field, "config.sizes")?.into_pointer_value();
        let null = builder.build_is_null(sizes, "")?;
        let none = builder.build_or(null, no_config, "")?;
        Ok(builder
            .build_select(none, constant_sizes, sizes, "")?
            .into_pointer_value())
    }

    /// `source[i]` when non-zero, else `size`.
    fn config_size(
        &self,
        builder: &Builder<'ctx>,
        source: PointerValue<'ctx>,
        i: u32,
        n: u32,
        size: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, BuilderError> {
        let i64 = self.types.context.i64_type();
        let index = [i64.const_zero(), i64.const_int(i.into(), false)];
        // SAFETY: `i < n`; the config holds n sizes (the contract), the
        // constant array too.
        let at = unsafe { builder.build_in_bounds_gep(i64.array_type(n), source, &index, "")? };
        let given = builder.build_load(i64, at, "")?.into_int_value();
        let zero = builder.build_int_compare(IntPredicate::EQ, given, i64.const_zero(), "")?;
        Ok(builder.build_select(zero, size, given, "")?.into_int_value())
    }

    /// Fills `KernelArgs` version 3 field by field from compile-time values
    /// and calls `__tgt_target_kernel`; returns its `i32` result.
    fn launch_static(
        &self,
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
        let c = self.types.context;
        let (i32, i64) = (c.i32_type(), c.i64_type());
        let dims = |d: [u32; 3]| i32.const_array(&d.map(|x| i32.const_int(x.into(), false)));
        let kernel_args = entry.build_alloca(self.types.kernel_args, "kernel_args")?;
        let grid = [
            dims(teams).into(),
            dims(threads).into(),
            i32.const_int(dyn_cgroup_mem.into(), false).into(),
        ];
        let count = i32.const_int(arrays.map_or(0, |a| a.count).into(), false);
        self.fill_kernel_args(builder, kernel_args, count, arrays.map(|a| a.arrays), grid)?;
        let rc = builder
            .build_call(
                self.types.function(self.module, "__tgt_target_kernel"),
                &[
                    self.types.ptr().const_null().into(),
                    i64.const_int(self.device as u64, true).into(),
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

    /// Stores every field of `KernelArgs` version 3: the argument count and
    /// arrays (null without arguments), no names, mappers, trip count or
    /// flags, and the grid (`[NumTeams, ThreadLimit, DynCGroupMem]`).
    pub fn fill_kernel_args(
        &self,
        builder: &Builder<'ctx>,
        kernel_args: PointerValue<'ctx>,
        count: IntValue<'ctx>,
        arrays: Option<KernelArrays<'ctx>>,
        grid: [BasicValueEnum<'ctx>; 3],
    ) -> Result<(), BuilderError> {
        let (i32, i64) = (self.types.context.i32_type(), self.types.context.i64_type());
        let null = self.types.ptr().const_null();
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
            let field = builder.build_struct_gep(self.types.kernel_args, kernel_args, i as u32, "")?;
            builder.build_store(field, *value)?;
        }
        Ok(())
    }

    /// The base-pointer/pointer slot value of an argument: the pointer, a
    /// spilled copy of a by-value aggregate, or a scalar's bits
    /// zero-extended to 64 as a pointer.
    fn argument_slot(
        &self,
        builder: &Builder<'ctx>,
        arg: &ArgPlan,
        value: BasicValueEnum<'ctx>,
        spill: Option<PointerValue<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>, BuilderError> {
        let c = self.types.context;
        Ok(match (*arg, value) {
            (ArgPlan::Mapped { .. }, pointer) => pointer,
            (ArgPlan::Spilled { .. }, aggregate) => {
                let spill = spill.expect("a spilled argument has its alloca");
                builder.build_store(spill, aggregate)?;
                spill.into()
            }
            (ArgPlan::Literal { .. }, BasicValueEnum::PointerValue(p)) => p.into(),
            (ArgPlan::Literal { .. }, scalar) => {
                let bits = match scalar {
                    BasicValueEnum::FloatValue(f) => {
                        // (Planning let only slot-sized floats through.)
                        let kind = FloatKind::of(Type::from(BasicTypeEnum::from(f.get_type())));
                        let int = match kind.map_or(64, FloatKind::bits) {
                            16 => c.i16_type(),
                            32 => c.i32_type(),
                            _ => c.i64_type(),
                        };
                        builder.build_bit_cast(f, int, "")?.into_int_value()
                    }
                    other => other.into_int_value(),
                };
                let wide = builder.build_int_z_extend_or_bit_cast(bits, c.i64_type(), "")?;
                builder.build_int_to_ptr(wide, self.types.ptr(), "")?.into()
            }
        })
    }

    /// The size an argument maps, as an i64 (computed for v1 slices; 0 for
    /// a size the v2 config gives).
    fn argument_size(
        &self,
        builder: &Builder<'ctx>,
        arg: &ArgPlan,
        operands: &[BasicValueEnum<'ctx>],
    ) -> Result<IntValue<'ctx>, BuilderError> {
        let i64 = self.types.context.i64_type();
        match *arg {
            ArgPlan::Mapped {
                size: Size::Elements { len_arg, element },
                ..
            } => {
                let len = operands[len_arg as usize].into_int_value();
                let len = builder.build_int_z_extend_or_bit_cast(len, i64, "")?;
                builder.build_int_mul(len, i64.const_int(element, false), "")
            }
            _ => Ok(i64.const_int(arg.constant_size().unwrap_or(0), false)),
        }
    }

    /// Lowers `__offload_data_{begin,end,update}(p, size, maptype)` to
    /// `void @mapper(ptr null, i64 device, i32 1, baseptrs, ptrs, sizes,
    /// maptypes, ptr null, ptr null)`.
    pub fn lower_data_call(&self, data: &DataCall<'ctx>) -> Result<(), BuilderError> {
        let c = self.types.context;
        let (ptr, i64) = (self.types.ptr(), c.i64_type());
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
            .map(|v| v.as_basic().expect("argument types were checked when planning"))
            .collect();
        let (pointer, size, map) = (operands[0], operands[1].into_int_value(), operands[2].into_int_value());
        builder.build_store(baseptrs, pointer)?;
        builder.build_store(ptrs, pointer)?;
        builder.build_store(sizes, builder.build_int_z_extend_or_bit_cast(size, i64, "")?)?;
        builder.build_store(maps, builder.build_int_z_extend_or_bit_cast(map, i64, "")?)?;
        let null = ptr.const_null();
        builder.build_call(
            self.types.function(self.module, data.op.mapper()),
            &[
                null.into(),
                i64.const_int(self.device as u64, true).into(),
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
}

/// A private constant `[n x i64]` array; returns its address.
fn private_array<'ctx>(module: &Module<'ctx>, name: &str, value: inkwell::values::ArrayValue<'ctx>) -> PointerValue<'ctx> {
    let global = constant(module, name, value, Linkage::Private);
    global.set_unnamed_address(UnnamedAddress::Global);
    global.as_pointer_value()
}
