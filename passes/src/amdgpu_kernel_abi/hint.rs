//! Planning from the `!offload.aggregate.args` hint a front end (or a
//! person) attaches to a kernel:
//!
//! ```llvm
//! define amdgpu_kernel void @k(i64 %t.0, i32 %t.1, ptr %s) !offload.aggregate.args !0 { ... }
//! !0 = !{!1, !2}
//! !1 = !{i32 0, i32 2, i64 16, i64 8} ; params 0..1: fields of one 16-byte, 8-aligned aggregate
//! !2 = !{i32 2, i32 1, i64 12, i64 4} ; param 2: pointer to a 12-byte, 4-aligned aggregate
//! ```
//!
//! Each entry is `!{i32 first, i32 count, i64 size, i64 align}`. With
//! `count == 1` on a `ptr` parameter the pointer points at the aggregate;
//! otherwise the `count` parameters are its fields in order, each at the next
//! offset aligned to its ABI alignment. The hint wins over debug info.

use inkwell::targets::TargetData;
use inkwell::values::FunctionValue;

use super::error::{Error, HintProblem, HintShape};
use super::from_ir::plan_from_ir;
use super::param::{Action, MAX_ALIGN, ParamPlan, is_aggregate, is_pointer, param_type};
use super::{HINT, PASS};
use crate::ir::{Type, attributes, metadata, naming};

/// One parsed entry.
#[derive(Debug, Clone, Copy)]
struct Entry {
    first: u32,
    count: u32,
    size: u64,
    align: u64,
}

/// The plan from the kernel's hint (kind id `hint_kind`), `None` without
/// one. Malformed or contradictory hints are errors naming the kernel and
/// parameter.
pub fn plan<'ctx>(
    kernel: FunctionValue<'ctx>,
    hint_kind: u32,
    layout: &TargetData,
) -> Result<Option<Vec<ParamPlan<'ctx>>>, Error> {
    let Some(hint) = metadata::attachment_of_kind(kernel, hint_kind) else {
        return Ok(None);
    };
    let mut entries = parse(kernel, hint)?;
    entries.sort_by_key(|e| e.first);
    let mut plan = Vec::with_capacity(kernel.count_params() as usize);
    let mut next = 0u32;
    for entry in &entries {
        let offsets = check(kernel, entry, next, layout)?;
        plan.extend((next..entry.first).map(|i| plan_from_ir(kernel, i, layout)));
        plan.push(entry_plan(entry, offsets));
        next = entry.first + entry.count;
    }
    plan.extend((next..kernel.count_params()).map(|i| plan_from_ir(kernel, i, layout)));
    Ok(Some(plan))
}

fn parse<'ctx>(
    kernel: FunctionValue<'ctx>,
    hint: crate::ir::Metadata<'ctx>,
) -> Result<Vec<Entry>, Error> {
    let operands = metadata::operands(hint);
    if operands.is_empty() {
        log::debug!(
            "{PASS}: kernel '{}': !{HINT} has no entries: no split or indirect aggregates; IR types alone decide",
            naming::name_of(kernel)
        );
    }
    // (The name is demangled only for an error.)
    let shape_error = |entry, problem| Error::HintEntry {
        kernel: naming::name_of(kernel),
        entry,
        problem,
    };
    let mut entries = Vec::new();
    for (n, node) in operands.into_iter().enumerate() {
        let fields = node
            .map(|node| metadata::integers(node))
            .unwrap_or_default();
        let [Some(first), Some(count), Some(size), Some(align)] = fields[..] else {
            return Err(shape_error(n, HintShape::Malformed));
        };
        // Fields are read zero-extended: a negative or wider-than-i32 index
        // must not wrap around to a valid one.
        let index = |field: &'static str, value: u64| {
            u32::try_from(value)
                .ok()
                .filter(|&v| v <= i32::MAX as u32)
                .ok_or_else(|| shape_error(n, HintShape::NotAnIndex { field, value }))
        };
        entries.push(Entry {
            first: index("first", first)?,
            count: index("count", count)?,
            size,
            align,
        });
    }
    Ok(entries)
}

/// Checks an entry against the kernel; `Ok` holds the fields' offsets, or
/// `None` for a pointer to the aggregate.
fn check(
    kernel: FunctionValue<'_>,
    e: &Entry,
    next: u32,
    layout: &TargetData,
) -> Result<Option<Vec<u64>>, Error> {
    let params = kernel.count_params();
    let err = |problem| {
        Err(Error::Hint {
            kernel: naming::name_of(kernel),
            first: e.first,
            problem,
        })
    };
    if e.count == 0 {
        return err(HintProblem::ZeroCount);
    }
    let end = u64::from(e.first) + u64::from(e.count);
    if end > u64::from(params) {
        return err(HintProblem::OutOfRange {
            first: e.first,
            last: end - 1,
            params,
        });
    }
    if e.first < next {
        return err(HintProblem::Overlaps);
    }
    if !e.align.is_power_of_two() {
        return err(HintProblem::AlignNotPowerOfTwo { align: e.align });
    }
    if e.align > MAX_ALIGN {
        return err(HintProblem::AlignTooLarge { align: e.align });
    }
    if e.size == 0 {
        return err(HintProblem::ZeroSize);
    }
    for i in e.first..e.first + e.count {
        let ty = param_type(kernel, i);
        if is_aggregate(ty) || attributes::has_param(kernel, i, "byref") {
            return err(HintProblem::AlreadyAggregate { param: i });
        }
        if !Type::from(ty).has_fixed_size() {
            return err(HintProblem::NoFixedSize {
                param: i,
                ty: Type::from(ty).text(),
            });
        }
    }
    if e.count == 1 && is_pointer(param_type(kernel, e.first)) {
        if let Some(deref) = attributes::param_value(kernel, e.first, "dereferenceable")
            && deref != e.size
        {
            return err(HintProblem::DisagreesWithDereferenceable {
                size: e.size,
                dereferenceable: deref,
            });
        }
        return Ok(None);
    }
    let last = param_type(kernel, e.first + e.count - 1);
    let offsets = offsets(kernel, e, layout);
    let needed = offsets.last().copied().unwrap_or(0) + layout.get_store_size(&last);
    if needed > e.size {
        return err(HintProblem::FieldsTooLarge {
            needed,
            size: e.size,
        });
    }
    Ok(Some(offsets))
}

/// Offsets of hinted fields: each at the next offset aligned to its ABI alignment.
fn offsets(kernel: FunctionValue<'_>, e: &Entry, layout: &TargetData) -> Vec<u64> {
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

fn entry_plan(e: &Entry, offsets: Option<Vec<u64>>) -> ParamPlan<'static> {
    let action = match offsets {
        None => Action::Indirect {
            size: e.size,
            align: e.align,
        },
        Some(offsets) => Action::Pair {
            offsets,
            size: e.size,
            align: e.align,
        },
    };
    ParamPlan {
        old: e.first..e.first + e.count,
        action,
        source: "hint",
        doubt: None,
    }
}
