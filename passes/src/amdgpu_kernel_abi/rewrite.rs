//! Rewriting one planned kernel: the new signature, then at the top of the
//! entry block a replacement for each old parameter (a load of the byref
//! memory, a piece of a pair at its offset, a cast of the byref pointer).
//!
//! Instructions the rewrite makes dead are erased only after every
//! replacement is built: the entry builder sits before the entry block's
//! first instruction, which may be one of them (rustc -O3 puts the
//! `addrspacecast` of a kernel pointer first).

use inkwell::AddressSpace;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::{AnyType, BasicTypeEnum};
use inkwell::values::{
    AggregateValueEnum, BasicValue, BasicValueEnum, FunctionValue, PointerValue,
};

use super::PASS;
use super::error::Error;
use super::param::{Action, ParamPlan, param_type};
use super::wrapper::{self, WrapperUses};
use crate::ir::kernels::AMDGPU_CONSTANT_AS;
use crate::ir::signature::{
    NewParam, ParamAttributeSet, ParamAttributes, ParamName, Rewritable, SignatureRewrite,
};
use crate::ir::{Type, Value, attributes, builder, erase, metadata, naming, types};

/// What a new parameter is, before its attributes are looked up.
#[derive(Clone, Copy)]
enum Shape<'ctx> {
    /// Old parameter `index`, unchanged (type, attributes).
    Keep(u32),
    /// A scalar by value, without attributes.
    Scalar(BasicTypeEnum<'ctx>),
    /// `ptr addrspace(4) byref(pointee) align A` of `size` bytes.
    Byref {
        pointee: BasicTypeEnum<'ctx>,
        size: u64,
        align: u64,
    },
}

/// One run of the pass over a module's planned kernels: what every
/// kernel's rewrite reads, made once.
pub struct Run<'a, 'ctx> {
    module: &'a Module<'ctx>,
    layout: &'a TargetData,
    /// The kind id of [`super::HINT`].
    hint: u32,
    /// The attributes of each byref parameter shape (type, size, align):
    /// every kernel with the same shape gets the same (uniqued) set, so it
    /// is made once, not once per kernel.
    byref_attributes:
        HashMap<(Type<'ctx>, u64, u64), ParamAttributeSet<'ctx>, BuildHasherDefault<ShapeHasher>>,
}

/// A hasher for the shape keys (a type handle and two integers): they come
/// from the module being compiled, so there is nothing to defend against,
/// and SipHash cost more than the lookup it serves.
#[derive(Default)]
struct ShapeHasher(u64);

impl Hasher for ShapeHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl<'a, 'ctx> Run<'a, 'ctx> {
    pub fn new(module: &'a Module<'ctx>, layout: &'a TargetData, hint: u32) -> Self {
        Run {
            module,
            layout,
            hint,
            byref_attributes: HashMap::default(),
        }
    }

    pub fn rewrite_kernel(
        &mut self,
        kernel: Rewritable<'ctx>,
        plan: &[ParamPlan<'ctx>],
    ) -> Result<(), Error> {
        let (module, layout) = (self.module, self.layout);
        // (The kernel's name is demangled only for an error; after `begin`
        // the new function has it.)
        let internal = |function: FunctionValue<'ctx>, what: String| Error::Internal {
            kernel: naming::name_of(function),
            what,
        };
        let old = kernel.function();
        let wrappers: Vec<Option<WrapperUses<'ctx>>> = plan
            .iter()
            .map(|p| match p.action {
                Action::IndirectWrapper { size, pointer, .. } => wrapper::plan(
                    module,
                    rewrite_old_param(old, p.old.start),
                    size,
                    pointer,
                    layout,
                ),
                _ => None,
            })
            .collect();
        let shapes: Vec<Shape<'ctx>> = plan
            .iter()
            .zip(&wrappers)
            .map(|(p, w)| shape(module, p, w.as_ref(), layout))
            .collect();
        // Printed types are only for the debug log, and the old names are
        // gone after `begin`: the lines are made now, when logged.
        let log_lines: Vec<String> = if log::log_enabled!(log::Level::Debug) {
            plan.iter()
                .zip(&shapes)
                .filter_map(|(p, s)| log_line(old, p, *s))
                .collect()
        } else {
            Vec::new()
        };
        let byref_pointer = types::pointer(module, AMDGPU_CONSTANT_AS);
        let params: Vec<NewParam<'ctx, '_>> = plan
            .iter()
            .zip(&shapes)
            .map(|(p, s)| {
                let attributes = match *s {
                    Shape::Keep(index) => ParamAttributes::Of(index),
                    Shape::Scalar(_) => ParamAttributes::None,
                    Shape::Byref {
                        pointee,
                        size,
                        align,
                    } => ParamAttributes::Set(
                        *self
                            .byref_attributes
                            .entry((Type::from(pointee), size, align))
                            .or_insert_with(|| byref_attributes(module, pointee, size, align)),
                    ),
                };
                new_param(old, p, *s, byref_pointer, attributes)
            })
            .collect();
        let rewrite = SignatureRewrite::begin(kernel, &params).map_err(|e| internal(old, e))?;
        for line in log_lines {
            log::debug!("{PASS}: kernel '{}', {line}", naming::name_of(rewrite.new));
        }
        let builder = rewrite.entry_builder();
        let mut dead = Vec::new();
        for (new_index, (item, wrapper)) in plan.iter().zip(wrappers).enumerate() {
            let value = rewrite.new_param(new_index as u32);
            let binding = Binding {
                module,
                rewrite: &rewrite,
                builder: &builder,
                layout,
            };
            binding
                .bind(item, value, wrapper, &mut dead)
                .map_err(|e| internal(rewrite.new, e.to_string()))?;
        }
        // Each dead instruction lost its uses to the replacements (users
        // before definitions: loads first, then the chain backwards).
        for inst in dead {
            erase::erase_instruction(inst);
        }
        metadata::remove_attachment_of_kind(rewrite.new, self.hint);
        let new = rewrite.new;
        rewrite.finish().map_err(|e| internal(new, e))?;
        Ok(())
    }
}

fn rewrite_old_param(kernel: FunctionValue<'_>, index: u32) -> Value<'_> {
    naming::param(kernel, index).expect("planned parameter exists")
}

fn shape<'ctx>(
    module: &Module<'ctx>,
    plan: &ParamPlan<'ctx>,
    wrapper: Option<&WrapperUses<'ctx>>,
    layout: &TargetData,
) -> Shape<'ctx> {
    let byref = |pointee, size, align| Shape::Byref {
        pointee,
        size,
        align,
    };
    match &plan.action {
        Action::Keep => Shape::Keep(plan.old.start),
        Action::ByValueAggregate { ty } => byref(
            *ty,
            layout.get_abi_size(ty),
            u64::from(layout.get_abi_alignment(ty)),
        ),
        Action::ByValueWrapper { element, .. } => Shape::Scalar(*element),
        Action::IndirectWrapper { size, align, .. } => match wrapper {
            Some(uses) => Shape::Scalar(uses.scalar_type()),
            None => byref(types::byte_array(module, *size), *size, *align),
        },
        Action::Indirect { size, align } | Action::Pair { size, align, .. } => {
            byref(types::byte_array(module, *size), *size, *align)
        }
    }
}

fn new_param<'ctx>(
    kernel: FunctionValue<'ctx>,
    plan: &ParamPlan<'ctx>,
    shape: Shape<'ctx>,
    byref_pointer: Type<'ctx>,
    attributes: ParamAttributes<'ctx>,
) -> NewParam<'ctx, 'static> {
    let old = plan.old.start;
    // rustc names pair pieces `%x.0`, `%x.1`: the merged parameter is `%x`.
    // A parameter replacing one old parameter gets its name.
    let name = if plan.old.len() > 1 {
        let old_name = naming::param_name(kernel, old);
        ParamName::Text(
            old_name
                .strip_suffix(".0")
                .unwrap_or(&old_name)
                .to_owned()
                .into(),
        )
    } else {
        ParamName::Of(old)
    };
    let ty = match shape {
        Shape::Keep(index) => types::param_type(kernel, index).expect("a kept parameter exists"),
        Shape::Scalar(ty) => Type::from(ty),
        Shape::Byref { .. } => byref_pointer,
    };
    NewParam {
        ty,
        attributes,
        name,
    }
}

/// `noalias nofree noundef byref(T) align A captures(none) dereferenceable(size)`.
fn byref_attributes<'ctx>(
    module: &Module<'ctx>,
    pointee: BasicTypeEnum<'ctx>,
    size: u64,
    align: u64,
) -> ParamAttributeSet<'ctx> {
    let context = module.get_context();
    let enum_attr =
        |name: &str, value: u64| context.create_enum_attribute(attributes::kind(name), value);
    let mut out = vec![
        context.create_type_attribute(attributes::kind("byref"), pointee.as_any_type_enum()),
        enum_attr("align", align),
    ];
    out.extend(["noalias", "nofree", "noundef"].map(|flag| enum_attr(flag, 0)));
    // captures(none) is the `captures` attribute with an empty capture set.
    out.push(enum_attr("captures", 0));
    // dereferenceable(0) is not valid IR: an empty aggregate gets none.
    if size > 0 {
        out.push(enum_attr("dereferenceable", size));
    }
    ParamAttributeSet::new(context, &out)
}

/// The debug log's account of one changed parameter (without the kernel),
/// from the old function, before the rewrite.
fn log_line(kernel: FunctionValue<'_>, item: &ParamPlan<'_>, shape: Shape<'_>) -> Option<String> {
    if !item.changes() {
        return None;
    }
    let indices: Vec<String> = item.old.clone().map(|i| format!("#{i}")).collect();
    let labels: Vec<String> = item
        .old
        .clone()
        .map(|i| match naming::param_name(kernel, i) {
            name if name.is_empty() => "unnamed".to_owned(),
            name => format!("%{name}"),
        })
        .collect();
    let param_text = |i| {
        types::param_type(kernel, i)
            .map(Type::text)
            .unwrap_or_default()
    };
    let old: Vec<String> = item.old.clone().map(param_text).collect();
    let new = match shape {
        Shape::Byref { pointee, align, .. } => {
            format!(
                "ptr addrspace(4) byref({}) align {align}",
                Type::from(pointee).text()
            )
        }
        Shape::Scalar(ty) => Type::from(ty).text(),
        Shape::Keep(index) => param_text(index),
    };
    Some(format!(
        "parameter {} ({}): {} -> {new} (from {}; whether it is copied is byref-callee-copy's decision)",
        indices.join(", "),
        labels.join(", "),
        old.join(", "),
        item.source
    ))
}

/// What binding an old parameter needs.
struct Binding<'a, 'ctx> {
    module: &'a Module<'ctx>,
    rewrite: &'a SignatureRewrite<'ctx>,
    builder: &'a Builder<'ctx>,
    layout: &'a TargetData,
}

impl<'ctx> Binding<'_, 'ctx> {
    /// Builds what the old parameter(s) of `item` become; instructions left
    /// dead go to `dead`, erased by the caller once every binding is built.
    fn bind(
        &self,
        item: &ParamPlan<'ctx>,
        value: Value<'ctx>,
        wrapper: Option<WrapperUses<'ctx>>,
        dead: &mut Vec<Value<'ctx>>,
    ) -> Result<(), inkwell::builder::BuilderError> {
        let old = item.old.start;
        // A kept parameter may be of any type (`target(...)` included);
        // every other new parameter is a byref pointer or a scalar.
        let basic = || {
            value
                .as_basic()
                .expect("a byref pointer or a scalar parameter")
        };
        let pointer = || basic().into_pointer_value();
        match &item.action {
            Action::Keep => self.rewrite.replace_param(old, value),
            Action::ByValueAggregate { ty } => {
                let load = self.builder.build_load(*ty, pointer(), "")?;
                set_align(load, self.layout.get_abi_alignment(ty));
                self.rewrite.replace_param(old, load);
            }
            Action::ByValueWrapper { path, .. } => {
                let aggregate = param_type(self.rewrite.old, old);
                let rebuilt = build_wrapped_aggregate(self.builder, aggregate, basic(), path)?;
                self.rewrite.replace_param(old, rebuilt);
            }
            Action::Indirect { size, align } => {
                let generic = self.copy_or_cast(old, pointer(), *size, *align)?;
                self.rewrite.replace_param(old, generic);
            }
            Action::IndirectWrapper { size, align, .. } => {
                self.bind_wrapper(old, basic(), *size, *align, wrapper, dead)?
            }
            Action::Pair { offsets, align, .. } => {
                for (old_index, &offset) in item.old.clone().zip(offsets) {
                    let ty = param_type(self.rewrite.old, old_index);
                    let piece = self.load_at(pointer(), offset, ty)?;
                    set_align(
                        piece,
                        types::align_u32(types::common_alignment(*align, offset)),
                    );
                    self.rewrite.replace_param(old_index, piece);
                }
            }
        }
        Ok(())
    }

    fn bind_wrapper(
        &self,
        old: u32,
        param: BasicValueEnum<'ctx>,
        size: u64,
        align: u64,
        wrapper: Option<WrapperUses<'ctx>>,
        dead: &mut Vec<Value<'ctx>>,
    ) -> Result<(), inkwell::builder::BuilderError> {
        match wrapper {
            Some(WrapperUses::Loads { loads, chain, .. }) => {
                for load in &loads {
                    // A pointer read as an integer of its width: ptrtoint it.
                    let replacement = match load.ty().as_basic() {
                        Some(BasicTypeEnum::IntType(int)) if param.get_type() != int.into() => self
                            .builder
                            .build_ptr_to_int(param.into_pointer_value(), int, "")?
                            .into(),
                        _ => param,
                    };
                    load.replace_all_uses_with(replacement.into());
                }
                dead.extend(loads);
                dead.extend(chain.into_iter().rev());
                // Only metadata (debug records) can still refer to the old
                // pointer: they describe an address that no longer exists.
                let ptr = self.module.get_context().ptr_type(AddressSpace::default());
                self.rewrite.replace_param(old, ptr.get_poison());
            }
            Some(WrapperUses::Spill { ty }) => {
                let slot = self.builder.build_alloca(ty, "")?;
                set_align(slot, types::align_u32(align));
                let store = self.builder.build_store(slot, param)?;
                let _ = store.set_alignment(types::align_u32(align));
                let generic = self.generic_pointer(slot)?;
                self.rewrite.replace_param(old, generic);
            }
            None => {
                let generic = self.copy_or_cast(old, param.into_pointer_value(), size, align)?;
                self.rewrite.replace_param(old, generic);
            }
        }
        Ok(())
    }

    /// What the old pointer parameter `old` becomes: the byref memory cast to
    /// `ptr` when the body only reads through it, else a private copy of
    /// it (alloca + memcpy, cast to `ptr`). Writing through `byref` is
    /// undefined (AMDGPU alias analysis deletes such stores at -O2), and the
    /// old pointer was the kernel's own memory: rustc writes to by-value
    /// arguments. Only generic uses existed, so the copy serves them all;
    /// `byref-callee-copy` later sees a parameter that is only read.
    fn copy_or_cast(
        &self,
        old: u32,
        byref: PointerValue<'ctx>,
        size: u64,
        align: u64,
    ) -> Result<PointerValue<'ctx>, inkwell::builder::BuilderError> {
        let written = crate::byref_callee_copy::first_write(self.rewrite.old_param(old));
        let Some((why, _)) = written else {
            return self.generic_pointer(byref);
        };
        // (`byref`, the new parameter, has the old one's name.)
        let name = Value::from(byref).name();
        if log::log_enabled!(log::Level::Debug) {
            let param = naming::ParamRef {
                kernel: naming::name_of(self.rewrite.new),
                index: old,
                name: name.clone(),
            };
            log::debug!("{PASS}: {param}: may be written ({why}); the kernel gets a private copy");
        }
        let context = self.module.get_context();
        let copy = self
            .builder
            .build_alloca(types::byte_array(self.module, size), "")?;
        let align = types::align_u32(align);
        set_align(copy, align);
        let bytes = context.i64_type().const_int(size, false);
        self.builder
            .build_memcpy(copy, align, byref, align, bytes)?;
        let generic = self.generic_pointer(copy)?;
        if !name.is_empty() {
            Value::from(copy).set_name(&format!("{name}.copy"));
            Value::from(generic).set_name(&format!("{name}.copy.generic"));
        }
        Ok(generic)
    }

    /// `pointer` as a generic `ptr` (a cast unless it already is one).
    fn generic_pointer(
        &self,
        pointer: PointerValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, inkwell::builder::BuilderError> {
        let generic = self.module.get_context().ptr_type(AddressSpace::default());
        if pointer.get_type() == generic {
            return Ok(pointer);
        }
        self.builder.build_address_space_cast(pointer, generic, "")
    }

    /// `load ty, (gep i8, ptr, offset)`: a field of byte-addressed memory.
    fn load_at(
        &self,
        pointer: PointerValue<'ctx>,
        offset: u64,
        ty: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, inkwell::builder::BuilderError> {
        let address = if offset == 0 {
            pointer
        } else {
            // The offset lies inside the byref memory: planning checked
            // every piece ends within the aggregate's size.
            builder::build_byte_offset(self.builder, pointer, offset)?
        };
        self.builder.build_load(ty, address, "")
    }
}

/// Rebuilds an aggregate of type `aggregate` that wraps exactly `element` at
/// index `path` (one index per nesting level): `insertvalue` into `poison`
/// from the innermost level outwards.
fn build_wrapped_aggregate<'ctx>(
    builder: &Builder<'ctx>,
    aggregate: BasicTypeEnum<'ctx>,
    element: BasicValueEnum<'ctx>,
    path: &[u32],
) -> Result<BasicValueEnum<'ctx>, inkwell::builder::BuilderError> {
    // The aggregate type at each level, outermost first.
    let mut levels = vec![aggregate];
    for _ in 1..path.len() {
        let inner = match *levels.last().expect("starts non-empty") {
            BasicTypeEnum::StructType(s) => s.get_field_type_at_index(0),
            BasicTypeEnum::ArrayType(a) => Some(a.get_element_type()),
            _ => None,
        }
        .expect("single_element's path follows the type");
        levels.push(inner);
    }
    let mut inner = element;
    for (ty, &index) in levels.iter().zip(path).rev() {
        let poison: AggregateValueEnum<'ctx> = match *ty {
            BasicTypeEnum::StructType(s) => s.get_poison().into(),
            BasicTypeEnum::ArrayType(a) => a.get_poison().into(),
            _ => panic!("single_element's path follows aggregates"),
        };
        inner = builder
            .build_insert_value(poison, inner, index, "")?
            .as_basic_value_enum();
    }
    Ok(inner)
}

fn set_align<'ctx>(value: impl BasicValue<'ctx>, align: u32) {
    if let Some(inst) = value.as_instruction_value() {
        // Loads and allocas accept any power-of-two alignment.
        let _ = inst.set_alignment(align);
    }
}
