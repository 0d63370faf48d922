//! `amdgpu-kernel-abi`: pass aggregate kernel arguments the way clang does.
//!
//! **What it does.** For each `amdgpu_kernel` with a body, rewrites parameters
//! that carry a source-level aggregate to `ptr addrspace(4) byref(T) align A`
//! (plus `noalias nofree noundef captures(none) dereferenceable(size)`), the
//! AMDGPU kernel ABI clang uses and the fixed rustc adopts: the host writes the
//! aggregate's bytes into the kernarg segment at `alignTo(offset, A)`. An
//! aggregate that wraps exactly one scalar, vector or pointer (recursively) is
//! passed as that element by value instead, as clang does.
//!
//! **Input it expects.** Parameters in any of these forms:
//! - a first-class aggregate by value (`%S %s`, `[3 x i32] %a`), as clang at
//!   -O0 or hand-written IR has them → `byref(%S)`, or the element;
//! - rustc ≤ 1.95's indirect form, a generic `ptr dead_on_return
//!   dereferenceable(N) align A` → `byref([N x i8]) align A`;
//! - rustc's split pairs (`ptr, i64` for a slice; `i64, i32` for
//!   `{u64, u32}`) and its -O0 form (a bare `ptr align A`): the IR types alone
//!   cannot tell these from real pointers and scalars, so they are recovered
//!   from debug info (the `DISubprogram`'s subroutine type lists every source
//!   parameter's type; see `debug_info`) or from an explicit hint, function
//!   metadata `!offload.aggregate.args`:
//!
//!   ```llvm
//!   define amdgpu_kernel void @k(i64 %t.0, i32 %t.1, ptr %s) !offload.aggregate.args !0 { ... }
//!   !0 = !{!1, !2}
//!   !1 = !{i32 0, i32 2, i64 16, i64 8} ; params 0..1: fields of one 16-byte, 8-aligned aggregate
//!   !2 = !{i32 2, i32 1, i64 12, i64 4} ; param 2: pointer to a 12-byte, 4-aligned aggregate
//!   ```
//!
//!   Each entry is `!{i32 first, i32 count, i64 size, i64 align}`. With
//!   `count == 1` on a `ptr` parameter, the pointer points at the aggregate;
//!   otherwise the `count` parameters are its fields in order, each at the
//!   next offset aligned to its ABI alignment. The hint wins over debug info
//!   and is removed once applied. Without debug info or a hint such parameters
//!   are left alone (logged at debug level).
//!
//! **What it guarantees.** The body keeps its meaning: uses of a by-value
//! aggregate read a `load` of the byref memory, split pieces are loaded from
//! their offsets, a former `dead_on_return` pointer becomes an `addrspacecast`
//! of the byref pointer to `ptr`. The kernel keeps its name, linkage,
//! visibility, comdat, section, function attributes and metadata (`!dbg`
//! included). Nothing here writes through a byref pointer; a kernel that
//! writes to its argument needs `byref-callee-copy` after this pass (the
//! parameter is left without `readonly` for that pass to decide). A second run
//! changes nothing. Kernels called from IR are an error: their type cannot
//! change.
//!
//! **How to run it.**
//! `opt-22 -load-pass-plugin=liboffload_passes.so -passes=amdgpu-kernel-abi,byref-callee-copy in.ll`,
//! or in rustc: `-Zllvm-plugins=liboffload_passes.so -Cpasses=amdgpu-kernel-abi,byref-callee-copy`.
//! `RUST_LOG=offload_passes=debug` logs every rewrite.

use std::ops::Range;

use inkwell::AddressSpace;
use inkwell::attributes::AttributeLoc;
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::{AnyType, BasicTypeEnum};
use inkwell::values::{
    AsValueRef, BasicValue, BasicValueEnum, FunctionValue, InstructionOpcode, InstructionValue,
    PointerValue,
};

use crate::debug_info::{self, LeafKind, SourceType};
use crate::ir::{self, SignatureRewrite};

pub const PASS_NAME: &str = "amdgpu-kernel-abi";

/// Function metadata naming parameters that form one source aggregate.
pub const HINT_KIND: &str = "offload.aggregate.args";

pub fn check_params(params: &str) -> Result<(), String> {
    crate::params::parse(params, &[]).map(drop)
}

pub fn run(module: &Module<'_>, params: &str) -> Result<bool, String> {
    check_params(params)?;
    let layout = ir::target_data(module);
    ir::log_skipped_declarations(module, PASS_NAME);
    // Plan every kernel before changing any, so a bad hint or a kernel that
    // cannot change leaves the module untouched.
    let mut plans = Vec::new();
    for kernel in ir::amdgpu_kernels(module) {
        let plan = plan_kernel(module, kernel, &layout)?;
        check_byref_sizes(kernel, &plan, &layout)?;
        if plan.iter().any(|p| !matches!(p.action, Action::Keep)) {
            if ir::has_call_uses(kernel) {
                return Err(ir::called_kernel_error(kernel));
            }
            plans.push((kernel, plan));
        }
    }
    let changed = !plans.is_empty();
    let alloca_as = ir::alloca_address_space(module);
    if changed && alloca_as == ir::AMDGPU_CONSTANT_AS {
        // The verifier refuses a kernel `byref` in the stack's address space.
        return Err(format!(
            "kernel '{}': the data layout puts allocas in address space {alloca_as} (A{alloca_as}), where byref kernel arguments go; is this an amdgcn module?",
            ir::name_of(plans[0].0)
        ));
    }
    for (kernel, plan) in plans {
        rewrite_kernel(module, kernel, &plan, &layout)?;
    }
    Ok(changed)
}

/// LLVM's verifier refuses `byref` types of 4 GiB or more.
const MAX_BYREF_SIZE: u64 = (1 << 32) - 1;

/// Every planned byref type must be one the verifier accepts.
fn check_byref_sizes(
    kernel: FunctionValue<'_>,
    plan: &[ParamPlan<'_>],
    layout: &TargetData,
) -> Result<(), String> {
    for item in plan {
        let size = match &item.action {
            Action::ByValueAggregate { ty } => layout.get_abi_size(ty),
            Action::Indirect { size, .. }
            | Action::IndirectWrapper { size, .. }
            | Action::Split { size, .. } => *size,
            Action::Keep | Action::ByValueWrapper { .. } => continue,
        };
        if size > MAX_BYREF_SIZE {
            let index = item.old.start;
            return Err(ir::param_error(
                kernel,
                index,
                &ir::type_text(param_type(kernel, index)),
                &format!(
                    "a {size}-byte aggregate is too large for a byref kernel argument (at most {MAX_BYREF_SIZE} bytes)"
                ),
            ));
        }
    }
    Ok(())
}

/// What becomes of one new parameter, and which old parameters it replaces.
#[derive(Debug, Clone, PartialEq)]
struct ParamPlan<'ctx> {
    /// Old parameter indices this new parameter replaces (consecutive; a
    /// range, not a vector: plans for every kernel are held at once).
    old: Range<u32>,
    action: Action<'ctx>,
    /// Where the knowledge came from: "IR", "debug info" or "hint".
    source: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
enum Action<'ctx> {
    /// Already in its final form.
    Keep,
    /// A first-class aggregate: `byref(T)`, uses read a load of it.
    ByValueAggregate { ty: BasicTypeEnum<'ctx> },
    /// A first-class aggregate wrapping one element: pass the element,
    /// rebuild the aggregate with `insertvalue` at `path`.
    ByValueWrapper {
        element: BasicTypeEnum<'ctx>,
        path: Vec<u32>,
    },
    /// A pointer to the value: `byref([size x i8])`, uses see it cast to `ptr`.
    Indirect { size: u64, align: u64 },
    /// A pointer to a value that is one scalar: pass the scalar itself when
    /// the body allows (see `plan_indirect_wrapper`), else as `Indirect`.
    IndirectWrapper { size: u64, align: u64 },
    /// Split fields at these byte offsets: `byref([size x i8])`, each old
    /// parameter becomes a load at its offset.
    Split {
        offsets: Vec<u64>,
        size: u64,
        align: u64,
    },
}

fn keep(index: u32) -> ParamPlan<'static> {
    ParamPlan {
        old: index..index + 1,
        action: Action::Keep,
        source: "IR",
    }
}

fn param_type<'ctx>(kernel: FunctionValue<'ctx>, index: u32) -> BasicTypeEnum<'ctx> {
    ir::param_basic_type(kernel, index)
        .expect("plan_kernel keeps kernels with parameter types inkwell cannot wrap out")
}

fn is_pointer(ty: BasicTypeEnum<'_>) -> bool {
    matches!(ty, BasicTypeEnum::PointerType(_))
}

/// The kernel's parameter plan: from the hint if present, else debug info,
/// else the IR types alone.
fn plan_kernel<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    layout: &TargetData,
) -> Result<Vec<ParamPlan<'ctx>>, String> {
    for index in 0..kernel.count_params() {
        if let Some(ty) = ir::param_basic_type(kernel, index)
            && ir::is_aggregate(ty)
            && !ir::has_fixed_size(ty)
        {
            return Err(ir::param_error(
                kernel,
                index,
                &ir::type_text(ty),
                "an aggregate without a fixed size (it holds scalable vectors) cannot be passed in the kernel argument segment",
            ));
        }
    }
    if let Some((index, ty)) = ir::first_opaque_param_type(kernel) {
        return plan_opaque_kernel(module, kernel, index, &ty, layout);
    }
    if let Some(plan) = plan_from_hint(module, kernel, layout)? {
        return Ok(plan);
    }
    if let Some(sources) = debug_info::source_parameter_types(module, kernel) {
        match plan_from_debug_info(kernel, &sources, layout) {
            Some(plan) => return Ok(plan),
            None => log::debug!(
                "{PASS_NAME}: kernel '{}': debug info lists {} source parameters that do not match the {} IR parameters; using IR types alone",
                ir::name_of(kernel),
                sources.len(),
                kernel.count_params()
            ),
        }
    }
    let plan: Vec<ParamPlan<'ctx>> = (0..kernel.count_params())
        .map(|i| plan_from_ir(kernel, i, layout))
        .collect();
    log_undecidable(kernel, &plan);
    Ok(plan)
}

/// Says which kept parameters might be aggregates the IR alone cannot show:
/// rustc's -O0 by-value aggregates are a bare `ptr align A`.
fn log_undecidable(kernel: FunctionValue<'_>, plan: &[ParamPlan<'_>]) {
    if !log::log_enabled!(log::Level::Debug) {
        return;
    }
    for item in plan.iter().filter(|p| matches!(p.action, Action::Keep)) {
        let index = item.old.start;
        if is_pointer(param_type(kernel, index)) && ir::has_param_attr(kernel, index, "align") {
            log::debug!(
                "{PASS_NAME}: kernel '{}', parameter #{index} ({}): a bare 'ptr align A' may be a by-value aggregate (rustc -O0) or a pointer; without debug info or an !{HINT_KIND} hint it is left alone",
                ir::name_of(kernel),
                param_label(kernel, index)
            );
        }
    }
}

/// `%name` of a parameter, or `unnamed` (names vanish unless IR is text).
fn param_label(kernel: FunctionValue<'_>, index: u32) -> String {
    match ir::param_name(kernel, index) {
        name if name.is_empty() => "unnamed".to_owned(),
        name => format!("%{name}"),
    }
}

/// A kernel with a parameter of a type this pass cannot rebuild a signature
/// around (`target(...)`, `x86_amx`): left alone when nothing else in it
/// needs a rewrite (by the IR rules; debug info is not consulted), an error
/// naming that parameter otherwise, or when it carries a hint.
fn plan_opaque_kernel<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    index: u32,
    ty: &str,
    layout: &TargetData,
) -> Result<Vec<ParamPlan<'ctx>>, String> {
    let plan: Vec<ParamPlan<'ctx>> = (0..kernel.count_params())
        .map(|i| match ir::param_basic_type(kernel, i) {
            Some(_) => plan_from_ir(kernel, i, layout),
            None => keep(i),
        })
        .collect();
    let hinted = ir::function_metadata(kernel, ir::md_kind(module, HINT_KIND)).is_some();
    if hinted || plan.iter().any(|p| !matches!(p.action, Action::Keep)) {
        return Err(ir::param_error(
            kernel,
            index,
            ty,
            "the kernel's other parameters need a new signature, which cannot be built with a parameter of this type",
        ));
    }
    log::debug!(
        "{PASS_NAME}: kernel '{}', parameter #{index}: type '{ty}'; nothing else to rewrite, kernel left alone",
        ir::name_of(kernel)
    );
    Ok(plan)
}

/// The rule for one parameter when only its IR type and attributes are known.
fn plan_from_ir<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    layout: &TargetData,
) -> ParamPlan<'ctx> {
    let ty = param_type(kernel, index);
    if ir::has_param_attr(kernel, index, "byref") {
        return keep(index);
    }
    if ir::is_aggregate(ty) {
        let action = match ir::single_element(ty, layout) {
            Some((element, path)) => Action::ByValueWrapper { element, path },
            None => Action::ByValueAggregate { ty },
        };
        return ParamPlan {
            old: index..index + 1,
            action,
            source: "IR",
        };
    }
    if let Some((size, align)) = rustc_indirect(kernel, index) {
        return ParamPlan {
            old: index..index + 1,
            action: Action::Indirect { size, align },
            source: "IR",
        };
    }
    keep(index)
}

/// rustc's indirect by-value aggregate: a generic pointer the callee owns
/// (`dead_on_return`) with a known size. Returns (size, align).
fn rustc_indirect(kernel: FunctionValue<'_>, index: u32) -> Option<(u64, u64)> {
    let ty = param_type(kernel, index);
    let generic = matches!(ty, BasicTypeEnum::PointerType(p) if p.get_address_space() == AddressSpace::default());
    if !generic || !ir::has_param_attr(kernel, index, "dead_on_return") {
        return None;
    }
    let size = ir::param_enum_attr(kernel, index, "dereferenceable")?;
    Some((size, ir::param_align(kernel, index).unwrap_or(1)))
}

/// Matches IR parameters to the source parameters debug info lists; `None`
/// when they do not line up (then the IR rules apply).
fn plan_from_debug_info<'ctx>(
    kernel: FunctionValue<'ctx>,
    sources: &[SourceType],
    layout: &TargetData,
) -> Option<Vec<ParamPlan<'ctx>>> {
    let count = kernel.count_params();
    let mut plan = Vec::new();
    let mut index = 0u32;
    // Zero-sized source parameters get no IR parameter.
    for source in sources.iter().filter(|s| s.size > 0) {
        if index >= count {
            return None;
        }
        let (item, used) = plan_source_param(kernel, index, source, layout);
        plan.push(item);
        index += used;
    }
    (index == count).then_some(plan)
}

/// The plan for the IR parameter(s) at `index` that carry `source`, and how
/// many IR parameters that takes.
fn plan_source_param<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    source: &SourceType,
    layout: &TargetData,
) -> (ParamPlan<'ctx>, u32) {
    let ty = param_type(kernel, index);
    let from_di = |action| ParamPlan {
        old: index..index + 1,
        action,
        source: "debug info",
    };
    if ir::has_param_attr(kernel, index, "byref") || ir::is_aggregate(ty) || !source.is_aggregate {
        return (plan_from_ir(kernel, index, layout), 1);
    }
    if let Some((size, align)) = rustc_indirect(kernel, index) {
        let action = match single_value_leaf(source) {
            true => Action::IndirectWrapper { size, align },
            false => Action::Indirect {
                size,
                align: align.max(source.align),
            },
        };
        return (from_di(action), 1);
    }
    if let Some(split) = split_pair(kernel, index, source, layout) {
        return (split, 2);
    }
    if !is_pointer(ty) {
        // A Rust-repr struct around one scalar, or a SIMD vector: already by value.
        return (keep(index), 1);
    }
    let align = ir::param_align(kernel, index)
        .unwrap_or(1)
        .max(source.align);
    let action = match source.leaves.as_deref() {
        // A struct around one pointer is passed as that pointer (Scalar ABI);
        // an indirect one would be indistinguishable here, so leave it.
        Some([leaf]) if leaf.kind == LeafKind::Pointer => return (keep(index), 1),
        _ if single_value_leaf(source) => Action::IndirectWrapper {
            size: source.size,
            align,
        },
        _ => Action::Indirect {
            size: source.size,
            align,
        },
    };
    (from_di(action), 1)
}

/// The source type is one non-pointer scalar filling the whole type
/// (clang's single-element struct: no over-alignment padding).
fn single_value_leaf(source: &SourceType) -> bool {
    matches!(source.leaves.as_deref(), Some([leaf]) if leaf.kind == LeafKind::Value && leaf.offset == 0 && leaf.size == source.size)
}

/// rustc's ScalarPair: a two-field source aggregate passed as two IR scalars
/// whose sizes and kinds match the fields.
fn split_pair<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    source: &SourceType,
    layout: &TargetData,
) -> Option<ParamPlan<'ctx>> {
    let Some([first, second]) = source.leaves.as_deref() else {
        return None;
    };
    if index + 1 >= kernel.count_params() {
        return None;
    }
    let fits = |i: u32, leaf: &debug_info::Leaf| {
        let ty = param_type(kernel, i);
        !ir::is_aggregate(ty)
            && ir::has_fixed_size(ty)
            && !ir::has_param_attr(kernel, i, "byref")
            && !ir::has_param_attr(kernel, i, "dead_on_return")
            && is_pointer(ty) == (leaf.kind == LeafKind::Pointer)
            && layout.get_store_size(&ty) == leaf.size
    };
    if !fits(index, first) || !fits(index + 1, second) {
        return None;
    }
    let natural = first.size.max(second.size).max(1);
    Some(ParamPlan {
        old: index..index + 2,
        action: Action::Split {
            offsets: vec![first.offset, second.offset],
            size: source.size,
            align: if source.align > 0 {
                source.align
            } else {
                natural
            },
        },
        source: "debug info",
    })
}

/// LLVM's largest alignment (`Value::MaximumAlignment`).
const MAX_ALIGN: u64 = 1 << 32;

/// One parsed `!offload.aggregate.args` entry.
#[derive(Debug, Clone, Copy)]
struct HintEntry {
    first: u32,
    count: u32,
    size: u64,
    align: u64,
}

/// The plan from the kernel's hint metadata, `None` without one. Malformed
/// or contradictory hints are errors naming the kernel and parameter.
fn plan_from_hint<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    layout: &TargetData,
) -> Result<Option<Vec<ParamPlan<'ctx>>>, String> {
    let Some(hint) = ir::function_metadata(kernel, ir::md_kind(module, HINT_KIND)) else {
        return Ok(None);
    };
    let name = ir::name_of(kernel);
    let mut entries = Vec::new();
    let operands = ir::md_operands(module, hint);
    if operands.is_empty() {
        log::debug!(
            "{PASS_NAME}: kernel '{name}': !{HINT_KIND} has no entries: no split or indirect aggregates; IR types alone decide"
        );
    }
    for (n, node) in operands.into_iter().enumerate() {
        let fields = ir::md_integers(module, node);
        let [Some(first), Some(count), Some(size), Some(align)] = fields[..] else {
            return Err(format!(
                "kernel '{name}': !{HINT_KIND} entry {n} is malformed: expected !{{i32 first, i32 count, i64 size, i64 align}}"
            ));
        };
        // Fields are read zero-extended: a negative or wider-than-i32 index
        // must not wrap around to a valid one.
        let index_field = |what: &str, value: u64| {
            u32::try_from(value)
                .ok()
                .filter(|&v| v <= i32::MAX as u32)
                .ok_or_else(|| {
                    format!(
                        "kernel '{name}': !{HINT_KIND} entry {n}: {what} {value} is not a parameter index or count (expected a non-negative i32)"
                    )
                })
        };
        let (first, count) = (index_field("first", first)?, index_field("count", count)?);
        entries.push(HintEntry {
            first,
            count,
            size,
            align,
        });
    }
    entries.sort_by_key(|e| e.first);
    let mut plan = Vec::new();
    let mut next = 0u32;
    for entry in &entries {
        check_hint_entry(kernel, entry, next, layout)?;
        plan.extend((next..entry.first).map(|i| plan_from_ir(kernel, i, layout)));
        plan.push(hint_plan(kernel, entry, layout));
        next = entry.first + entry.count;
    }
    plan.extend((next..kernel.count_params()).map(|i| plan_from_ir(kernel, i, layout)));
    Ok(Some(plan))
}

fn check_hint_entry(
    kernel: FunctionValue<'_>,
    e: &HintEntry,
    next: u32,
    layout: &TargetData,
) -> Result<(), String> {
    let params = kernel.count_params();
    let err = |what: String| {
        Err(format!(
            "kernel '{}': !{HINT_KIND} entry for parameter {}: {what}",
            ir::name_of(kernel),
            e.first
        ))
    };
    if e.count == 0 {
        return err("names no parameters (count is 0)".into());
    }
    if u64::from(e.first) + u64::from(e.count) > u64::from(params) {
        return err(format!(
            "names parameters {}..{} but the kernel has {params}",
            e.first,
            u64::from(e.first) + u64::from(e.count) - 1
        ));
    }
    if e.first < next {
        return err("overlaps another entry".into());
    }
    if !e.align.is_power_of_two() {
        return err(format!("alignment {} is not a power of two", e.align));
    }
    if e.align > MAX_ALIGN {
        return err(format!(
            "alignment {} is larger than LLVM allows ({MAX_ALIGN})",
            e.align
        ));
    }
    if e.size == 0 {
        return err("size is 0".into());
    }
    for i in e.first..e.first + e.count {
        let ty = param_type(kernel, i);
        if ir::is_aggregate(ty) || ir::has_param_attr(kernel, i, "byref") {
            return err(format!("parameter {i} is already an aggregate or byref"));
        }
        if !ir::has_fixed_size(ty) {
            return err(format!(
                "parameter {i} has type '{}', which has no fixed size",
                ir::type_text(ty)
            ));
        }
    }
    if e.count == 1 && is_pointer(param_type(kernel, e.first)) {
        if let Some(deref) = ir::param_enum_attr(kernel, e.first, "dereferenceable")
            && deref != e.size
        {
            return err(format!(
                "size {} disagrees with dereferenceable({deref})",
                e.size
            ));
        }
        return Ok(());
    }
    let end = hint_offsets(kernel, e, layout).last().copied().unwrap_or(0)
        + layout.get_store_size(&param_type(kernel, e.first + e.count - 1));
    if end > e.size {
        return err(format!(
            "its fields need {end} bytes but the size is {}",
            e.size
        ));
    }
    Ok(())
}

/// Offsets of hinted fields: each at the next offset aligned to its ABI alignment.
fn hint_offsets(kernel: FunctionValue<'_>, e: &HintEntry, layout: &TargetData) -> Vec<u64> {
    let mut offset = 0u64;
    (e.first..e.first + e.count)
        .map(|i| {
            let ty = param_type(kernel, i);
            let align = u64::from(layout.get_abi_alignment(&ty)).max(1);
            let at = offset.div_ceil(align) * align;
            offset = at + layout.get_abi_size(&ty);
            at
        })
        .collect()
}

fn hint_plan<'ctx>(
    kernel: FunctionValue<'ctx>,
    e: &HintEntry,
    layout: &TargetData,
) -> ParamPlan<'ctx> {
    let old = e.first..e.first + e.count;
    let action = if e.count == 1 && is_pointer(param_type(kernel, e.first)) {
        Action::Indirect {
            size: e.size,
            align: e.align,
        }
    } else {
        Action::Split {
            offsets: hint_offsets(kernel, e, layout),
            size: e.size,
            align: e.align,
        }
    };
    ParamPlan {
        old,
        action,
        source: "hint",
    }
}

// ---------------------------------------------------------------------------
// Rewriting

/// How an `IndirectWrapper` parameter's uses are served once the scalar is
/// passed by value.
enum WrapperUses<'ctx> {
    /// Every use is a whole-value load (through casts and zero GEPs): the
    /// loads become the parameter; `chain` is left dead and erased.
    Loads {
        ty: BasicTypeEnum<'ctx>,
        loads: Vec<InstructionValue<'ctx>>,
        chain: Vec<InstructionValue<'ctx>>,
    },
    /// Other uses, all through generic pointers: spill the scalar to a
    /// private alloca and hand out its generic address.
    Spill { ty: BasicTypeEnum<'ctx> },
}

/// The users of a pointer parameter reached through `addrspacecast` and
/// all-zero GEPs, split into loads, the chain itself and anything else.
struct PointerUses<'ctx> {
    loads: Vec<InstructionValue<'ctx>>,
    chain: Vec<InstructionValue<'ctx>>,
    other: bool,
    /// Some cast in the chain leaves the generic address space (rustc -O3
    /// casts kernel pointers to `ptr addrspace(1)`): a private spill would
    /// make that cast invalid.
    leaves_generic: bool,
}

fn pointer_uses<'ctx>(pointer: BasicValueEnum<'ctx>) -> PointerUses<'ctx> {
    let mut uses = PointerUses {
        loads: Vec::new(),
        chain: Vec::new(),
        other: false,
        leaves_generic: false,
    };
    let mut work = vec![pointer.as_value_ref()];
    while let Some(value) = work.pop() {
        for user in ir::users(value) {
            let Some(inst) = ir::as_instruction(user) else {
                uses.other = true;
                continue;
            };
            match inst.get_opcode() {
                InstructionOpcode::Load => uses.loads.push(inst),
                InstructionOpcode::AddrSpaceCast => {
                    uses.leaves_generic |= ir::result_address_space(inst) != Some(0);
                    uses.chain.push(inst);
                    work.push(inst.as_value_ref());
                }
                InstructionOpcode::GetElementPtr if ir::gep_is_zero_offset(inst) => {
                    uses.chain.push(inst);
                    work.push(inst.as_value_ref());
                }
                _ => uses.other = true,
            }
        }
    }
    uses
}

/// Decides how an indirect single-scalar parameter becomes the scalar, or
/// `None` to keep the memory form (same kernarg layout either way).
fn plan_indirect_wrapper<'ctx>(
    module: &Module<'ctx>,
    param: BasicValueEnum<'ctx>,
    size: u64,
    layout: &TargetData,
) -> Option<WrapperUses<'ctx>> {
    let uses = pointer_uses(param);
    let whole = |load: &InstructionValue<'ctx>| {
        ir::loaded_type(*load)
            .filter(|ty| layout.get_store_size(ty) == size && !ir::is_aggregate(*ty))
    };
    let load_types: Vec<BasicTypeEnum<'ctx>> = uses.loads.iter().filter_map(whole).collect();
    let all_whole = load_types.len() == uses.loads.len() && !load_types.is_empty();
    if !uses.other && all_whole && load_types.iter().all(|t| *t == load_types[0]) {
        return Some(WrapperUses::Loads {
            ty: load_types[0],
            loads: uses.loads,
            chain: uses.chain,
        });
    }
    if uses.leaves_generic {
        return None;
    }
    let ty = load_types
        .first()
        .copied()
        .unwrap_or_else(|| ir::int_type_of_size(module, size));
    Some(WrapperUses::Spill { ty })
}

fn constant_ptr<'ctx>(module: &Module<'ctx>) -> BasicTypeEnum<'ctx> {
    module
        .get_context()
        .ptr_type(AddressSpace::from(ir::AMDGPU_CONSTANT_AS as u16))
        .into()
}

/// The new parameter's type and, for byref parameters, (byref type, size, align).
struct NewParam<'ctx> {
    ty: BasicTypeEnum<'ctx>,
    byref: Option<(BasicTypeEnum<'ctx>, u64, u64)>,
}

fn new_param<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    plan: &ParamPlan<'ctx>,
    wrapper: Option<&WrapperUses<'ctx>>,
    layout: &TargetData,
) -> NewParam<'ctx> {
    let memory = |pointee: BasicTypeEnum<'ctx>, size: u64, align: u64| NewParam {
        ty: constant_ptr(module),
        byref: Some((pointee, size, align)),
    };
    match &plan.action {
        Action::Keep => NewParam {
            ty: param_type(kernel, plan.old.start),
            byref: None,
        },
        Action::ByValueAggregate { ty } => memory(
            *ty,
            layout.get_abi_size(ty),
            u64::from(layout.get_abi_alignment(ty)),
        ),
        Action::ByValueWrapper { element, .. } => NewParam {
            ty: *element,
            byref: None,
        },
        Action::IndirectWrapper { size, align } => match wrapper {
            Some(WrapperUses::Loads { ty, .. } | WrapperUses::Spill { ty }) => NewParam {
                ty: *ty,
                byref: None,
            },
            None => memory(ir::byte_array_type(module, *size), *size, *align),
        },
        Action::Indirect { size, align } | Action::Split { size, align, .. } => {
            memory(ir::byte_array_type(module, *size), *size, *align)
        }
    }
}

fn add_byref_attributes(
    module: &Module<'_>,
    function: FunctionValue<'_>,
    index: u32,
    pointee: BasicTypeEnum<'_>,
    size: u64,
    align: u64,
) {
    let context = module.get_context();
    let loc = AttributeLoc::Param(index);
    function.add_attribute(
        loc,
        context.create_type_attribute(ir::attr_kind("byref"), pointee.as_any_type_enum()),
    );
    function.add_attribute(
        loc,
        context.create_enum_attribute(ir::attr_kind("align"), align),
    );
    for flag in ["noalias", "nofree", "noundef"] {
        function.add_attribute(loc, context.create_enum_attribute(ir::attr_kind(flag), 0));
    }
    // captures(none) is the `captures` attribute with an empty capture set.
    function.add_attribute(
        loc,
        context.create_enum_attribute(ir::attr_kind("captures"), 0),
    );
    function.add_attribute(
        loc,
        context.create_enum_attribute(ir::attr_kind("dereferenceable"), size),
    );
}

fn rewrite_kernel<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    plan: &[ParamPlan<'ctx>],
    layout: &TargetData,
) -> Result<(), String> {
    let wrappers: Vec<Option<WrapperUses<'ctx>>> = plan
        .iter()
        .map(|p| match p.action {
            Action::IndirectWrapper { size, .. } => plan_indirect_wrapper(
                module,
                kernel
                    .get_nth_param(p.old.start)
                    .expect("planned parameter"),
                size,
                layout,
            ),
            _ => None,
        })
        .collect();
    let new_params: Vec<NewParam<'ctx>> = plan
        .iter()
        .zip(&wrappers)
        .map(|(p, w)| new_param(module, kernel, p, w.as_ref(), layout))
        .collect();
    let types: Vec<_> = new_params.iter().map(|p| p.ty.into()).collect();
    let fn_type = ir::with_params(kernel, &types);

    let rewrite = SignatureRewrite::begin(module, kernel, fn_type)?;
    let builder = rewrite.entry_builder();
    for (new_index, ((item, param), wrapper)) in
        plan.iter().zip(&new_params).zip(wrappers).enumerate()
    {
        let new_index = new_index as u32;
        let value = rewrite
            .new
            .get_nth_param(new_index)
            .expect("new parameter exists");
        name_new_param(&rewrite, item, value);
        if let Some((pointee, size, align)) = param.byref {
            add_byref_attributes(module, rewrite.new, new_index, pointee, size, align);
        }
        log_rewrite(item, param, &rewrite);
        bind_old_params(module, &rewrite, &builder, item, value, wrapper, layout)
            .map_err(|e| format!("kernel '{}': {e}", ir::name_of(rewrite.new)))?;
    }
    ir::remove_function_metadata(rewrite.new, ir::md_kind(module, HINT_KIND));
    rewrite.finish();
    Ok(())
}

fn name_new_param(rewrite: &SignatureRewrite<'_>, item: &ParamPlan<'_>, value: BasicValueEnum<'_>) {
    let old = rewrite
        .old
        .get_nth_param(item.old.start)
        .expect("old parameter exists");
    let name = ir::value_name(old);
    // rustc names split pieces `%x.0`, `%x.1`: the merged parameter is `%x`.
    let name = if item.old.len() > 1 {
        name.strip_suffix(".0").unwrap_or(&name).to_owned()
    } else {
        name
    };
    ir::set_value_name(value, &name);
}

fn log_rewrite(item: &ParamPlan<'_>, param: &NewParam<'_>, rewrite: &SignatureRewrite<'_>) {
    // Printing types costs more than the rewrite itself: only when logged.
    if matches!(item.action, Action::Keep) || !log::log_enabled!(log::Level::Debug) {
        return;
    }
    let indices: Vec<String> = item.old.clone().map(|i| format!("#{i}")).collect();
    let labels: Vec<String> = item
        .old
        .clone()
        .map(|i| param_label(rewrite.old, i))
        .collect();
    let old: Vec<String> = item
        .old
        .clone()
        .map(|i| ir::type_text(param_type(rewrite.old, i)))
        .collect();
    let new = match param.byref {
        Some((pointee, _, align)) => format!(
            "ptr addrspace(4) byref({}) align {align}",
            ir::type_text(pointee)
        ),
        None => ir::type_text(param.ty),
    };
    log::debug!(
        "{PASS_NAME}: kernel '{}', parameter {} ({}): {} -> {new} (from {}; whether it is copied is byref-callee-copy's decision)",
        ir::name_of(rewrite.new),
        indices.join(", "),
        labels.join(", "),
        old.join(", "),
        item.source
    );
}

/// Builds, at the top of the entry block, what each old parameter becomes.
fn bind_old_params<'ctx>(
    module: &Module<'ctx>,
    rewrite: &SignatureRewrite<'ctx>,
    builder: &Builder<'ctx>,
    item: &ParamPlan<'ctx>,
    value: BasicValueEnum<'ctx>,
    wrapper: Option<WrapperUses<'ctx>>,
    layout: &TargetData,
) -> Result<(), String> {
    let old = item.old.start;
    let fail = |e: inkwell::builder::BuilderError| e.to_string();
    match &item.action {
        Action::Keep => {
            rewrite.copy_param_attributes(old, value_index(rewrite, value));
            rewrite.replace_param(old, value);
        }
        Action::ByValueAggregate { ty } => {
            let load = builder
                .build_load(*ty, value.into_pointer_value(), "")
                .map_err(fail)?;
            set_align(load, layout.get_abi_alignment(ty));
            rewrite.replace_param(old, load);
        }
        Action::ByValueWrapper { path, .. } => {
            let aggregate_ty = param_type(rewrite.old, old);
            let rebuilt = ir::build_wrapped_aggregate(builder, aggregate_ty, value, path)?;
            rewrite.replace_param(old, rebuilt);
        }
        Action::Indirect { .. } => {
            let generic = generic_pointer(module, builder, value.into_pointer_value())?;
            rewrite.replace_param(old, generic);
        }
        Action::IndirectWrapper { align, .. } => match wrapper {
            Some(WrapperUses::Loads { loads, chain, .. }) => {
                for load in loads {
                    ir::replace_all_uses(load, value);
                    load.erase_from_basic_block();
                }
                for inst in chain.into_iter().rev() {
                    inst.erase_from_basic_block();
                }
                // Only metadata (debug records) can still refer to the old pointer.
                rewrite.replace_param(
                    old,
                    module
                        .get_context()
                        .ptr_type(AddressSpace::default())
                        .get_poison(),
                );
            }
            Some(WrapperUses::Spill { ty }) => {
                let slot = builder.build_alloca(ty, "").map_err(fail)?;
                set_align(slot, ir::align_u32(*align));
                let store = builder.build_store(slot, value).map_err(fail)?;
                store
                    .set_alignment(ir::align_u32(*align))
                    .map_err(|e| e.to_string())?;
                let generic = generic_pointer(module, builder, slot)?;
                rewrite.replace_param(old, generic);
            }
            None => {
                let generic = generic_pointer(module, builder, value.into_pointer_value())?;
                rewrite.replace_param(old, generic);
            }
        },
        Action::Split { offsets, align, .. } => {
            for (old_index, &offset) in item.old.clone().zip(offsets) {
                let ty = param_type(rewrite.old, old_index);
                let piece =
                    ir::build_load_at(module, builder, value.into_pointer_value(), offset, ty)?;
                set_align(piece, ir::align_u32(ir::common_alignment(*align, offset)));
                rewrite.replace_param(old_index, piece);
            }
        }
    }
    Ok(())
}

fn value_index(rewrite: &SignatureRewrite<'_>, value: BasicValueEnum<'_>) -> u32 {
    rewrite
        .new
        .get_param_iter()
        .position(|p| p == value)
        .expect("value is a parameter of the new function") as u32
}

fn set_align<'ctx>(value: impl BasicValue<'ctx>, align: u32) {
    if let Some(inst) = value.as_instruction_value() {
        // Loads and allocas accept any power-of-two alignment.
        let _ = inst.set_alignment(align);
    }
}

/// `pointer` as a generic `ptr` (a cast unless it already is one).
fn generic_pointer<'ctx>(
    module: &Module<'ctx>,
    builder: &Builder<'ctx>,
    pointer: PointerValue<'ctx>,
) -> Result<PointerValue<'ctx>, String> {
    let generic = module.get_context().ptr_type(AddressSpace::default());
    if pointer.get_type() == generic {
        return Ok(pointer);
    }
    builder
        .build_address_space_cast(pointer, generic, "")
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use crate::test_support::run_pass;

    fn run(ir: &str) -> (bool, String) {
        run_pass(super::run, "", ir).unwrap()
    }

    const DL: &str = "target datalayout = \"e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n";

    #[test]
    fn first_class_struct_becomes_byref_and_is_loaded() {
        let ir = format!(
            "{DL}%S = type {{ i32, i32, i32 }}\ndefine amdgpu_kernel void @k(%S %s, ptr %out) {{\n  %b = extractvalue %S %s, 1\n  store i32 %b, ptr %out\n  ret void\n}}\n"
        );
        let (changed, out) = run(&ir);
        assert!(changed);
        assert!(out.contains(
            "define amdgpu_kernel void @k(ptr addrspace(4) noalias nofree noundef byref(%S) align 4 captures(none) dereferenceable(12) %s, ptr %out)"
        ), "{out}");
        assert!(
            out.contains("load %S, ptr addrspace(4) %s, align 4"),
            "{out}"
        );
    }

    #[test]
    fn single_element_struct_is_passed_as_its_element() {
        let ir = format!(
            "{DL}%W = type {{ [1 x float] }}\ndefine amdgpu_kernel void @k(%W %w, ptr %out) {{\n  %f = extractvalue %W %w, 0, 0\n  store float %f, ptr %out\n  ret void\n}}\n"
        );
        let (_, out) = run(&ir);
        assert!(
            out.contains("define amdgpu_kernel void @k(float %w, ptr %out)"),
            "{out}"
        );
        assert!(
            out.contains("insertvalue [1 x float] poison, float %w, 0"),
            "{out}"
        );
        assert!(
            out.contains("insertvalue %W poison, [1 x float] %1, 0"),
            "{out}"
        );
    }

    #[test]
    fn rustc_dead_on_return_pointer_becomes_byte_array_byref() {
        let ir = format!(
            "{DL}define amdgpu_kernel void @k(ptr dead_on_return noalias noundef readonly align 8 captures(none) dereferenceable(16) %s, ptr %out) {{\n  %v = load i64, ptr %s\n  store i64 %v, ptr %out\n  ret void\n}}\n"
        );
        let (_, out) = run(&ir);
        assert!(out.contains("ptr addrspace(4) noalias nofree noundef byref([16 x i8]) align 8 captures(none) dereferenceable(16) %s"), "{out}");
        assert!(
            out.contains("addrspacecast ptr addrspace(4) %s to ptr"),
            "{out}"
        );
    }

    #[test]
    fn second_run_changes_nothing() {
        let ir = format!(
            "{DL}%S = type {{ i8, double }}\ndefine amdgpu_kernel void @k(%S %s, i32 %n) {{\n  ret void\n}}\n"
        );
        let (changed_once, once) = run(&ir);
        assert!(changed_once && once.contains("byref(%S) align 8"), "{once}");
        let (changed, twice) = run(&once);
        assert!(!changed);
        assert_eq!(once, twice);
    }

    #[test]
    fn hint_merges_split_fields_with_natural_offsets() {
        let ir = format!(
            "{DL}define amdgpu_kernel void @k(i64 %t.0, i32 %t.1, i8 %k) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{!1}}\n!1 = !{{i32 0, i32 2, i64 16, i64 8}}\n"
        );
        let (_, out) = run(&ir);
        assert!(
            out.contains("byref([16 x i8]) align 8 captures(none) dereferenceable(16) %t, i8 %k)"),
            "{out}"
        );
        assert!(
            !out.contains("!offload.aggregate.args"),
            "hint is consumed: {out}"
        );
    }

    #[test]
    fn contradictory_hint_is_an_error_and_changes_nothing() {
        let ir = format!(
            "{DL}define amdgpu_kernel void @k(ptr dereferenceable(8) %p) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{!1}}\n!1 = !{{i32 0, i32 1, i64 12, i64 4}}\n"
        );
        let err = run_pass(super::run, "", &ir).unwrap_err();
        assert_eq!(
            err,
            "kernel 'k': !offload.aggregate.args entry for parameter 0: size 12 disagrees with dereferenceable(8)"
        );
        let ir = format!(
            "{DL}define amdgpu_kernel void @k(i32 %a) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{!1}}\n!1 = !{{i32 0, i32 2, i64 8, i64 4}}\n"
        );
        let err = run_pass(super::run, "", &ir).unwrap_err();
        assert_eq!(
            err,
            "kernel 'k': !offload.aggregate.args entry for parameter 0: names parameters 0..1 but the kernel has 1"
        );
    }

    #[test]
    fn hint_fields_never_wrap_around_and_null_entries_are_malformed() {
        let hint = |entry: &str| {
            format!(
                "{DL}define amdgpu_kernel void @k(ptr %a, i32 %b) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{{entry}}}\n!1 = !{{i64 4294967296, i32 1, i64 12, i64 4}}\n!2 = !{{i32 1, i32 1, i64 4, i64 4}}\n"
            )
        };
        let err = run_pass(super::run, "", &hint("!1")).unwrap_err();
        assert_eq!(
            err,
            "kernel 'k': !offload.aggregate.args entry 0: first 4294967296 is not a parameter index or count (expected a non-negative i32)"
        );
        // (A lone `!{null}` reads as `!{}` through the C API: no entries.)
        let err = run_pass(super::run, "", &hint("!2, null")).unwrap_err();
        assert!(err.contains("entry 1 is malformed"), "{err}");
    }

    #[test]
    fn kernel_with_a_target_type_parameter_is_left_alone_or_refused() {
        let ir = format!(
            "{DL}define amdgpu_kernel void @k(target(\"amdgcn.named.barrier\", 0) %t, i32 %a) {{\n  ret void\n}}\n"
        );
        let (changed, _) = run(&ir);
        assert!(!changed);
        let ir = format!(
            "{DL}define amdgpu_kernel void @k(target(\"amdgcn.named.barrier\", 0) %t, {{ i32, i32 }} %s) {{\n  ret void\n}}\n"
        );
        let err = run_pass(super::run, "", &ir).unwrap_err();
        assert!(
            err.starts_with(
                "kernel 'k', parameter #0 (%t) of type 'target(\"amdgcn.named.barrier\", 0)': "
            ),
            "{err}"
        );
    }

    #[test]
    fn a_called_kernel_fails_before_any_kernel_changes() {
        use crate::test_support::parse;
        use inkwell::context::Context;
        // @a would be rewritten first; @b is called, so nothing may change.
        let ir = format!(
            "{DL}define amdgpu_kernel void @a({{ i32, i32 }} %s) {{\n  ret void\n}}\ndefine amdgpu_kernel void @b({{ i32, i32 }} %s) {{\n  ret void\n}}\ndefine void @f() {{\n  call amdgpu_kernel void @b({{ i32, i32 }} zeroinitializer)\n  ret void\n}}\n"
        );
        let context = Context::create();
        let module = parse(&context, &ir);
        let before = module.print_to_string().to_string();
        let err = super::run(&module, "").unwrap_err();
        assert!(err.contains("kernel 'b' is called from IR"), "{err}");
        assert_eq!(module.print_to_string().to_string(), before);
    }
}
