//! Lowering: each launch becomes its argument arrays, `__tgt_target_data_begin_mapper`,
//! a filled `KernelArgs`, `__tgt_target_kernel` and `__tgt_target_data_end_mapper`;
//! each data-region call becomes one mapper call.

use inkwell::IntPredicate;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::types::AnyType;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue, UnnamedAddress};

use super::contract::map_type;
use super::libomptarget::{KERNEL_ARGS_VERSION, Types};
use super::plan::{ArgPlan, DataCall, Launch, Size};
use super::registration::{Registration, constant};
use crate::ir::builder::entry_builder;
use crate::ir::{Value, calls};

/// Name of the emitted launch-result check.
pub const LAUNCH_CHECK: &str = "__offload_launch_check";

/// The arrays one mapper call takes: count, base pointers, pointers,
/// sizes and map types (names and mappers are null).
#[derive(Clone, Copy)]
struct MapperArgs<'ctx> {
    count: u32,
    baseptrs: PointerValue<'ctx>,
    ptrs: PointerValue<'ctx>,
    sizes: PointerValue<'ctx>,
}

pub struct Lowering<'a, 'ctx> {
    pub module: &'a Module<'ctx>,
    pub types: &'a Types<'ctx>,
    /// libomptarget device number.
    pub device: i64,
}

impl<'ctx> Lowering<'_, 'ctx> {
    /// `void @mapper(ptr null, i64 device, i32 n, baseptrs, ptrs, sizes, maptypes, ptr null, ptr null)`.
    fn call_mapper(
        &self,
        builder: &Builder<'ctx>,
        mapper: &str,
        args: MapperArgs<'ctx>,
        map_types: PointerValue<'ctx>,
    ) -> Result<(), BuilderError> {
        let c = self.types.context;
        let null = self.types.ptr().const_null();
        builder.build_call(
            self.types.function(self.module, mapper),
            &[
                null.into(),
                c.i64_type().const_int(self.device as u64, true).into(),
                c.i32_type().const_int(args.count.into(), false).into(),
                args.baseptrs.into(),
                args.ptrs.into(),
                args.sizes.into(),
                map_types.into(),
                null.into(),
                null.into(),
            ],
            "",
        )?;
        Ok(())
    }

    /// Replaces one launch call with the mapper/kernel sequence.
    pub fn lower_launch(
        &self,
        registration: &Registration<'ctx>,
        check: Option<FunctionValue<'ctx>>,
        launch: &Launch<'ctx>,
    ) -> Result<(), BuilderError> {
        // The call's arguments now: an earlier launch may have replaced one.
        let operands: Vec<BasicValueEnum<'ctx>> = calls::arguments(Value::from(launch.call))
            .into_iter()
            .map(|v| v.as_basic().expect("argument types were checked when planning"))
            .collect();
        let (region_id, name) = registration.kernels[&launch.kernel];
        // Allocas go to the entry block, in this order, through one builder.
        let entry = entry_builder(launch.caller);
        let builder = self.types.context.create_builder();
        builder.position_before(&launch.call);
        let mapper_args = self.fill_arguments(&builder, &entry, launch, &operands)?;
        let maps = |suffix: &str, f: fn(u64) -> u64| {
            let i64 = self.types.context.i64_type();
            let values: Vec<_> = launch.args.iter().map(|a| i64.const_int(f(a.map()), false)).collect();
            private_array(self.module, &format!(".offload_maptypes.{}{suffix}", launch.kernel), i64.const_array(&values))
        };
        // (begin, kernel, end) map types, rustc's three arrays.
        let map_arrays = mapper_args.map(|_| {
            (
                maps(".begin", map_type::begin),
                maps("", map_type::kernel),
                maps(".end", map_type::end),
            )
        });
        if let (Some(args), Some((begin, _, _))) = (mapper_args, map_arrays) {
            self.call_mapper(&builder, "__tgt_target_data_begin_mapper", args, begin)?;
        }
        let kernel_maps = map_arrays.map(|(_, kernel, _)| kernel);
        let kernel_args = entry.build_alloca(self.types.kernel_args, "kernel_args")?;
        let rc = self.launch_kernel(&builder, launch, kernel_args, mapper_args, kernel_maps, region_id.as_pointer_value())?;
        if let (Some(args), Some((_, _, end))) = (mapper_args, map_arrays) {
            self.call_mapper(&builder, "__tgt_target_data_end_mapper", args, end)?;
        }
        if launch.returns_code {
            Value::from(launch.call).replace_all_uses_with(rc.into());
        } else if let Some(check) = check {
            builder.build_call(check, &[rc.into(), name.as_pointer_value().into()], "")?;
        }
        launch.call.erase_from_basic_block();
        Ok(())
    }

    /// Entry-block arrays of base pointers, pointers and (when a size is
    /// only known at run time) sizes, filled before the call; `None` for a
    /// launch without arguments.
    fn fill_arguments(
        &self,
        builder: &Builder<'ctx>,
        entry: &Builder<'ctx>,
        launch: &Launch<'ctx>,
        operands: &[BasicValueEnum<'ctx>],
    ) -> Result<Option<MapperArgs<'ctx>>, BuilderError> {
        let n = launch.args.len() as u32;
        if n == 0 {
            return Ok(None);
        }
        let (ptr, i64) = (self.types.ptr(), self.types.context.i64_type());
        let baseptrs = entry.build_alloca(ptr.array_type(n), ".offload_baseptrs")?;
        let ptrs = entry.build_alloca(ptr.array_type(n), ".offload_ptrs")?;
        let runtime_sizes = launch.args.iter().any(|a| a.constant_size().is_none());
        let sizes_alloca = if runtime_sizes {
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
        for (i, (arg, &value)) in launch.args.iter().zip(operands).enumerate() {
            let slot = self.argument_slot(builder, arg, value, spills[i])?;
            let index = [i64.const_zero(), i64.const_int(i as u64, false)];
            // SAFETY: `i < n`, inside the [n x ptr] / [n x i64] arrays.
            unsafe {
                builder.build_store(builder.build_in_bounds_gep(ptr.array_type(n), baseptrs, &index, "")?, slot)?;
                builder.build_store(builder.build_in_bounds_gep(ptr.array_type(n), ptrs, &index, "")?, slot)?;
                if let Some(sizes) = sizes_alloca {
                    let size = self.argument_size(builder, arg, operands)?;
                    builder.build_store(builder.build_in_bounds_gep(i64.array_type(n), sizes, &index, "")?, size)?;
                }
            }
        }
        let sizes = match sizes_alloca {
            Some(alloca) => alloca,
            None => {
                let constant = launch.args.iter().map(|a| i64.const_int(a.constant_size().unwrap_or(0), false));
                private_array(
                    self.module,
                    &format!(".offload_sizes.{}", launch.kernel),
                    i64.const_array(&constant.collect::<Vec<_>>()),
                )
            }
        };
        Ok(Some(MapperArgs {
            count: n,
            baseptrs,
            ptrs,
            sizes,
        }))
    }

    /// Fills `KernelArgs` version 3 field by field and calls
    /// `__tgt_target_kernel`; returns its `i32` result.
    fn launch_kernel(
        &self,
        builder: &Builder<'ctx>,
        launch: &Launch<'ctx>,
        kernel_args: PointerValue<'ctx>,
        args: Option<MapperArgs<'ctx>>,
        kernel_maps: Option<PointerValue<'ctx>>,
        region_id: PointerValue<'ctx>,
    ) -> Result<IntValue<'ctx>, BuilderError> {
        let c = self.types.context;
        let (i32, i64) = (c.i32_type(), c.i64_type());
        let null = self.types.ptr().const_null();
        let dims = |d: [u32; 3]| i32.const_array(&d.map(|x| i32.const_int(x.into(), false)));
        let fields: [BasicValueEnum<'ctx>; 13] = [
            i32.const_int(KERNEL_ARGS_VERSION, false).into(),
            i32.const_int(args.map_or(0, |a| a.count).into(), false).into(),
            args.map_or(null, |a| a.baseptrs).into(),
            args.map_or(null, |a| a.ptrs).into(),
            args.map_or(null, |a| a.sizes).into(),
            kernel_maps.unwrap_or(null).into(),
            null.into(),             // ArgNames
            null.into(),             // ArgMappers
            i64.const_zero().into(), // Tripcount
            i64.const_zero().into(), // Flags
            dims(launch.teams).into(),
            dims(launch.threads).into(),
            i32.const_int(launch.dyn_cgroup_mem.into(), false).into(),
        ];
        for (i, value) in fields.iter().enumerate() {
            let field = builder.build_struct_gep(self.types.kernel_args, kernel_args, i as u32, "")?;
            builder.build_store(field, *value)?;
        }
        let rc = builder
            .build_call(
                self.types.function(self.module, "__tgt_target_kernel"),
                &[
                    null.into(),
                    i64.const_int(self.device as u64, true).into(),
                    i32.const_int(launch.teams[0].into(), false).into(),
                    i32.const_int(launch.threads[0].into(), false).into(),
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
                        let ty = f.get_type().as_any_type_enum();
                        let int = if ty == c.f16_type().as_any_type_enum() || ty == c.bf16_type().as_any_type_enum() {
                            c.i16_type()
                        } else if ty == c.f32_type().as_any_type_enum() {
                            c.i32_type()
                        } else {
                            c.i64_type()
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

    /// The size an argument maps, as an i64 (computed for slices).
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

    /// Lowers `__offload_data_{begin,end,update}(p, size, maptype)`.
    pub fn lower_data_call(&self, data: &DataCall<'ctx>) -> Result<(), BuilderError> {
        let (ptr, i64) = (self.types.ptr(), self.types.context.i64_type());
        let entry = entry_builder(data.caller);
        let args = MapperArgs {
            count: 1,
            baseptrs: entry.build_alloca(ptr.array_type(1), ".offload_baseptrs")?,
            ptrs: entry.build_alloca(ptr.array_type(1), ".offload_ptrs")?,
            sizes: entry.build_alloca(i64.array_type(1), ".offload_sizes")?,
        };
        let maps = entry.build_alloca(i64.array_type(1), ".offload_maptypes")?;
        let builder = self.types.context.create_builder();
        builder.position_before(&data.call);
        // Checked when planning: (ptr, iN, iN).
        let operands: Vec<BasicValueEnum<'ctx>> = calls::arguments(Value::from(data.call))
            .into_iter()
            .map(|v| v.as_basic().expect("argument types were checked when planning"))
            .collect();
        let (pointer, size, map) = (operands[0], operands[1].into_int_value(), operands[2].into_int_value());
        builder.build_store(args.baseptrs, pointer)?;
        builder.build_store(args.ptrs, pointer)?;
        builder.build_store(args.sizes, builder.build_int_z_extend_or_bit_cast(size, i64, "")?)?;
        builder.build_store(maps, builder.build_int_z_extend_or_bit_cast(map, i64, "")?)?;
        self.call_mapper(&builder, data.op.mapper(), args, maps)?;
        data.call.erase_from_basic_block();
        Ok(())
    }

    /// `internal void @__offload_launch_check(i32 %rc, ptr %kernel)`:
    /// aborts with `offload: kernel 'K' launch failed (code N)` when `rc`
    /// is not 0.
    pub fn emit_launch_check(&self) -> Result<FunctionValue<'ctx>, BuilderError> {
        let c = self.types.context;
        let ty = c.void_type().fn_type(&[c.i32_type().into(), self.types.ptr().into()], false);
        let check = self.module.add_function(LAUNCH_CHECK, ty, Some(Linkage::Internal));
        let (entry, fail, ok) = (
            c.append_basic_block(check, "entry"),
            c.append_basic_block(check, "fail"),
            c.append_basic_block(check, "ok"),
        );
        let rc = check.get_nth_param(0).expect("rc").into_int_value();
        let kernel = check.get_nth_param(1).expect("kernel");
        Value::from(rc).set_name("rc");
        Value::from(kernel).set_name("kernel");
        let builder = c.create_builder();
        builder.position_at_end(entry);
        let failed = builder.build_int_compare(IntPredicate::NE, rc, c.i32_type().const_zero(), "failed")?;
        builder.build_conditional_branch(failed, fail, ok)?;

        builder.position_at_end(fail);
        let stderr = match self.module.get_global("stderr") {
            Some(g) => g,
            None => {
                let g = self.module.add_global(self.types.ptr(), None, "stderr");
                g.set_linkage(Linkage::External);
                g
            }
        };
        let stream = builder.build_load(self.types.ptr(), stderr.as_pointer_value(), "stderr")?;
        let format = constant(
            self.module,
            ".offload.launch_failed",
            c.const_string(b"offload: kernel '%s' launch failed (code %d)\n", true),
            Linkage::Private,
        );
        format.set_unnamed_address(UnnamedAddress::Global);
        builder.build_call(
            self.types.function(self.module, "fprintf"),
            &[stream.into(), format.as_pointer_value().into(), kernel.into(), rc.into()],
            "",
        )?;
        builder.build_call(self.types.function(self.module, "abort"), &[], "")?;
        builder.build_unreachable()?;

        builder.position_at_end(ok);
        builder.build_return(None)?;
        Ok(check)
    }
}

/// A private constant `[n x i64]` array; returns its address.
fn private_array<'ctx>(module: &Module<'ctx>, name: &str, value: inkwell::values::ArrayValue<'ctx>) -> PointerValue<'ctx> {
    let global = constant(module, name, value, Linkage::Private);
    global.set_unnamed_address(UnnamedAddress::Global);
    global.as_pointer_value()
}
