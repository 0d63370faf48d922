//! Lowering one launch, whatever its form, to clang's one-call form: its
//! argument arrays and one `__tgt_target_kernel` whose `KernelArgs` carry
//! the map types, so the runtime maps, launches and unmaps in that one call
//! (inside a data region it finds the data present and copies nothing). A
//! v1 launch fills `KernelArgs` inline from compile-time values
//! ([`super::launch_v1::lower`]); a v2 launch calls the module's
//! `__offload_run_launch2` with its config ([`super::launch_v2::lower`]).

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{ArrayValue, BasicValueEnum, IntValue, PointerValue, UnnamedAddress};

use super::descriptor::map_type;
use super::kernel_args::{Arrays, KernelArrays, Lowering};
use super::launch_plan::{ArgPlan, Grid, Launch, Size};
use super::registration::{Registration, constant};
use super::{launch_v1, launch_v2};
use crate::ir::builder::entry_builder;
use crate::ir::{Type, Value, calls, gep};
use crate::kernel_manifest::FloatKind;

impl<'ctx> Lowering<'_, 'ctx> {
    /// Replaces one launch call with the one-call sequence:
    ///
    /// ```c
    /// void *baseptrs[N], *ptrs[N];         // entry-block allocas
    /// int64_t sizes[N];                    // or a constant array
    /// baseptrs[i] = ptrs[i] = arg_i;       // or &spill_i, or (void *)(uint64_t)bits_i
    /// sizes[i] = size_i;                   // when one is computed
    /// int32_t rc = <v1: __tgt_target_kernel(...), v2: __offload_run_launch2(...)>;
    /// // the call's result is rc, or:
    /// __offload_launch_check(rc, "K");
    /// ```
    pub fn lower_launch(
        &self,
        registration: &Registration<'ctx>,
        launch: &Launch<'ctx>,
    ) -> Result<(), BuilderError> {
        // The call's operands now: an earlier launch may have replaced one.
        let operands: Vec<BasicValueEnum<'ctx>> = calls::arguments(Value::from(launch.call))
            .into_iter()
            .map(|v| {
                v.as_basic()
                    .expect("argument types were checked when planning")
            })
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
        let arrays = self.fill_arguments(
            &builder,
            &entry,
            launch,
            &operands[launch.first_arg as usize..],
            config,
        )?;
        let rc = match (launch.grid, config) {
            (Grid::Static { .. }, _) => {
                launch_v1::lower::launch(self, &builder, &entry, launch, arrays, region_id)?
            }
            (Grid::Config, Some(config)) => {
                launch_v2::lower::launch(self, &builder, launch, config, arrays, region_id)?
            }
            (Grid::Config, None) => unreachable!("a v2 launch has its config"),
        };
        if launch.returns_code {
            Value::from(launch.call).replace_all_uses_with(rc.into());
        } else {
            let check = self
                .functions
                .launch_check
                .expect("emitted when a launch ignores its result");
            builder.build_call(check, &[rc.into(), name.as_pointer_value().into()], "")?;
        }
        launch.call.erase_from_basic_block();
        Ok(())
    }

    /// Entry-block arrays of base pointers, pointers and (when a size is
    /// only known at run time) sizes, filled before the call, and the map
    /// types; `None` for a launch without arguments:
    ///
    /// ```c
    /// void *.offload_baseptrs[N], *.offload_ptrs[N];      // entry-block allocas
    /// int64_t .offload_sizes[N];                          // when a size is computed
    /// T .offload_byval;                                   // per spilled aggregate
    /// static const int64_t .offload_sizes.K[N] = {...};   // else (v2: also)
    /// static const int64_t .offload_maptypes.K[N] = {map_i | TARGET_PARAM, ...};
    /// .offload_baseptrs[i] = .offload_ptrs[i] = slot_i;
    /// .offload_sizes[i] = size_i;                         // v2: config sizes first
    /// ```
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
        let slots = self.allocate_slots(entry, launch, operands, config)?;
        // Constant sizes: the array itself, or (v2) what the config's sizes override.
        let constant_sizes =
            (slots.sizes.is_none() || config.is_some()).then(|| self.constant_sizes(launch));
        let config_sizes = match (config, slots.sizes, constant_sizes) {
            (Some(config), Some(_), Some(constant)) => Some(launch_v2::lower::config_sizes(
                self, builder, config, constant,
            )?),
            _ => None,
        };
        let sizes_known = self.store_slots(builder, launch, operands, &slots, config_sizes)?;
        let i64 = self.types.context.i64_type();
        let map_types: Vec<_> = launch
            .args
            .iter()
            .map(|a| i64.const_int(map_type::kernel(a.map()), false))
            .collect();
        Ok(Some(Arrays {
            count: n,
            arrays: KernelArrays {
                baseptrs: slots.baseptrs,
                ptrs: slots.ptrs,
                sizes: slots
                    .sizes
                    .or(constant_sizes)
                    .expect("an array or a constant"),
                map_types: private_array(
                    self.module,
                    &format!(".offload_maptypes.{}", launch.kernel),
                    i64.const_array(&map_types),
                ),
            },
            sizes_known,
        }))
    }

    /// The entry-block allocas of a launch with arguments: the base-pointer
    /// and pointer arrays, the sizes array when a size is computed (v2:
    /// every mapped pointer's size may come from the config at run time),
    /// then one spill per by-value aggregate.
    fn allocate_slots(
        &self,
        entry: &Builder<'ctx>,
        launch: &Launch<'ctx>,
        operands: &[BasicValueEnum<'ctx>],
        config: Option<PointerValue<'ctx>>,
    ) -> Result<Slots<'ctx>, BuilderError> {
        let n = launch.args.len() as u32;
        let (ptr, i64) = (self.types.ptr(), self.types.context.i64_type());
        let baseptrs = entry.build_alloca(ptr.array_type(n), ".offload_baseptrs")?;
        let ptrs = entry.build_alloca(ptr.array_type(n), ".offload_ptrs")?;
        let run_time = |a: &ArgPlan| {
            a.constant_size().is_none() || (config.is_some() && matches!(a, ArgPlan::Mapped { .. }))
        };
        let sizes = if launch.args.iter().any(run_time) {
            Some(entry.build_alloca(i64.array_type(n), ".offload_sizes")?)
        } else {
            None
        };
        let spills = launch
            .args
            .iter()
            .zip(operands)
            .map(|(arg, value)| match arg {
                ArgPlan::Spilled { .. } => entry
                    .build_alloca(value.get_type(), ".offload_byval")
                    .map(Some),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Slots {
            baseptrs,
            ptrs,
            sizes,
            spills,
        })
    }

    /// `.offload_sizes.K`: each argument's compile-time size (0 where it is
    /// only known at run time).
    fn constant_sizes(&self, launch: &Launch<'ctx>) -> PointerValue<'ctx> {
        let i64 = self.types.context.i64_type();
        let sizes: Vec<_> = launch
            .args
            .iter()
            .map(|a| i64.const_int(a.constant_size().unwrap_or(0), false))
            .collect();
        private_array(
            self.module,
            &format!(".offload_sizes.{}", launch.kernel),
            i64.const_array(&sizes),
        )
    }

    /// Stores each argument's slot (and its size, where the sizes are an
    /// array) before the call; returns whether every size known only at run
    /// time was given by the config (true in v1).
    fn store_slots(
        &self,
        builder: &Builder<'ctx>,
        launch: &Launch<'ctx>,
        operands: &[BasicValueEnum<'ctx>],
        slots: &Slots<'ctx>,
        config_sizes: Option<launch_v2::lower::ConfigSizes<'ctx>>,
    ) -> Result<IntValue<'ctx>, BuilderError> {
        let n = launch.args.len() as u32;
        let (ptr, i64) = (self.types.ptr(), self.types.context.i64_type());
        let mut sizes_known = self.types.context.bool_type().const_all_ones();
        for (i, (arg, &value)) in launch.args.iter().zip(operands).enumerate() {
            let slot = self.argument_slot(builder, arg, value, slots.spills[i])?;
            let i = i as u32;
            for array in [slots.baseptrs, slots.ptrs] {
                let at = gep::array_element(builder, ptr.array_type(n), array, i)?;
                builder.build_store(at, slot)?;
            }
            let Some(sizes) = slots.sizes else {
                continue;
            };
            let mut size = self.argument_size(builder, arg, operands)?;
            if let (Some(source), ArgPlan::Mapped { size: planned, .. }) = (config_sizes, arg) {
                let given;
                (size, given) = launch_v2::lower::config_size(self, builder, source, i, n, size)?;
                if matches!(planned, Size::RunTime) {
                    sizes_known = builder.build_and(sizes_known, given, "")?;
                }
            }
            let at = gep::array_element(builder, i64.array_type(n), sizes, i)?;
            builder.build_store(at, size)?;
        }
        Ok(sizes_known)
    }

    /// The base-pointer/pointer slot value of an argument: the pointer, a
    /// spilled copy of a by-value aggregate, or a scalar's bits
    /// zero-extended to 64 as a pointer:
    ///
    /// ```c
    /// p                                         // a pointer
    /// (.offload_byval = v, &.offload_byval)     // an aggregate
    /// (void *)(uint64_t)bits_of(x)              // a scalar
    /// ```
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
    /// a size the v2 config gives):
    ///
    /// ```c
    /// (uint64_t)len_arg * element_size          // a v1 slice
    /// SIZE                                      // otherwise, a constant
    /// ```
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
}

/// A private constant `[n x i64]` array; returns its address:
///
/// ```c
/// static const int64_t name[n] = {...};     // private unnamed_addr
/// ```
fn private_array<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    value: ArrayValue<'ctx>,
) -> PointerValue<'ctx> {
    let global = constant(module, name, value, Linkage::Private);
    global.set_unnamed_address(UnnamedAddress::Global);
    global.as_pointer_value()
}

/// A launch's entry-block allocas ([`Lowering::allocate_slots`]).
struct Slots<'ctx> {
    baseptrs: PointerValue<'ctx>,
    ptrs: PointerValue<'ctx>,
    /// The sizes array, when a size is computed before the call.
    sizes: Option<PointerValue<'ctx>>,
    /// Per argument, its by-value aggregate's spill.
    spills: Vec<Option<PointerValue<'ctx>>>,
}
