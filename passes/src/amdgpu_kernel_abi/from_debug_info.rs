//! Planning from debug info: matching IR parameters to the source
//! parameters the `DISubprogram` lists ([`super::debug_info`]).
//!
//! A source aggregate reaches the IR as one of: a first-class aggregate; a
//! pointer to it (rustc's indirect form, `dead_on_return` at -O1 and up, a
//! bare `ptr align A` at -O0); or rustc's `PassMode::Pair`, its two scalar
//! fields as two parameters. The IR types alone cannot tell a pair from two
//! scalars, so the whole parameter list is matched at once: a pair is taken
//! only when the rest of the list still matches (backtracking), and each
//! piece must agree with its field in size and kind (pointer, integer or
//! float).

use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;

use super::debug_info::{Leaf, LeafKind, Shape, SourceType, Sources};
use super::from_ir::{plan_from_ir, rustc_indirect};
use super::param::{Action, ParamPlan, is_aggregate, is_pointer, keep, param_type};
use crate::ir::{Type, attributes};

/// The plan matching `kernel`'s parameters to `sources`, `None` when no
/// assignment uses every IR parameter (the IR rules apply then).
pub fn plan<'ctx>(
    kernel: FunctionValue<'ctx>,
    sources: &Sources,
    layout: &TargetData,
) -> Option<Vec<ParamPlan<'ctx>>> {
    // Zero-sized source parameters get no IR parameter.
    let params: Vec<&SourceType> = sources.params.iter().filter(|s| s.size > 0).collect();
    let mut matcher = Matcher {
        kernel,
        layout,
        sources: &params,
        optimized: sources.optimized,
        dead: std::collections::HashSet::new(),
    };
    let mut plan = Vec::new();
    matcher.match_from(0, 0, &mut plan).then_some(plan)
}

struct Matcher<'a, 'ctx> {
    kernel: FunctionValue<'ctx>,
    layout: &'a TargetData,
    sources: &'a [&'a SourceType],
    optimized: bool,
    /// (source, IR parameter) positions known not to lead to a match.
    dead: std::collections::HashSet<(usize, u32)>,
}

impl<'ctx> Matcher<'_, 'ctx> {
    /// Extends `plan` with a match of sources `s..` to IR parameters `p..`.
    fn match_from(&mut self, s: usize, p: u32, plan: &mut Vec<ParamPlan<'ctx>>) -> bool {
        let count = self.kernel.count_params();
        if s == self.sources.len() {
            return p == count;
        }
        if p >= count || self.dead.contains(&(s, p)) {
            return false;
        }
        let source = self.sources[s];
        let options = [
            pair(self.kernel, p, source, self.layout),
            single(self.kernel, p, source, self.optimized, self.layout),
        ];
        for option in options.into_iter().flatten() {
            let used = option.old.len() as u32;
            plan.push(option);
            if self.match_from(s + 1, p + used, plan) {
                return true;
            }
            plan.pop();
        }
        self.dead.insert((s, p));
        false
    }
}

/// The plan for the one IR parameter at `index` that carries `source`;
/// `None` when the IR says it cannot (a size that disagrees).
fn single<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    source: &SourceType,
    optimized: bool,
    layout: &TargetData,
) -> Option<ParamPlan<'ctx>> {
    let ty = param_type(kernel, index);
    let from_di = |action| ParamPlan {
        old: index..index + 1,
        action,
        source: "debug info",
        doubt: None,
    };
    if attributes::has_param(kernel, index, "byref") {
        // An existing byref must hold as many bytes as the source aggregate,
        // as `dereferenceable` must below: otherwise the pass's own output
        // (a byref made from `dereferenceable(N)` while the debug info was
        // ignored) would match in a second run and be decided differently.
        let fits = !source.is_aggregate()
            || attributes::param_type(kernel, index, "byref")
                .and_then(Type::fixed_size)
                .is_some_and(|t| layout.get_abi_size(&t) == source.size);
        return fits.then(|| plan_from_ir(kernel, index, layout));
    }
    if is_aggregate(ty) || !source.is_aggregate() {
        return Some(plan_from_ir(kernel, index, layout));
    }
    if source.shape == Shape::PointerNiche {
        // rustc's Scalar ABI: the pointer itself, never a pointer to the enum.
        return (is_pointer(ty) && rustc_indirect(kernel, index).is_none()).then(|| keep(index));
    }
    if let Some((size, align)) = rustc_indirect(kernel, index) {
        if size != source.size {
            // `dereferenceable` and debug info disagree: no match here.
            return None;
        }
        let action = match single_leaf(source) {
            // clang passes a struct of one scalar or pointer as that element.
            Some(leaf) => Action::IndirectWrapper {
                size,
                align,
                pointer: leaf.kind == LeafKind::Pointer,
            },
            None => Action::Indirect {
                size,
                align: align.max(source.align),
            },
        };
        return Some(from_di(action));
    }
    if !is_pointer(ty) || optimized {
        // A Rust-repr struct around one scalar, or a SIMD vector, is already by
        // value; so is any pointer when optimizing (rustc marks indirect
        // by-value arguments dead_on_return then): a struct of one pointer.
        // A source of several fields is never one IR scalar: no match.
        let one_value = match single_leaf(source) {
            Some(leaf) => {
                layout.get_store_size(&ty) == leaf.size
                    && (leaf.kind == LeafKind::Pointer) == is_pointer(ty)
            }
            None => matches!(ty, BasicTypeEnum::VectorType(_)),
        };
        return one_value.then(|| keep(index));
    }
    // rustc -O0: a pointer with only `align`, to the value (indirect) or the
    // value itself when the source is a struct of one pointer.
    let align_attr = attributes::param_align(kernel, index);
    let align = align_attr.unwrap_or(1).max(source.align);
    let action = match single_leaf(source) {
        // Only a struct may be repr(Rust) and passed as its one pointer; an
        // array is always passed indirectly.
        Some(leaf) if leaf.kind == LeafKind::Pointer && source.shape == Shape::Struct => {
            return Some(pointer_wrapper(kernel, index, source, leaf, align_attr));
        }
        Some(leaf) if leaf.kind == LeafKind::Pointer => Action::IndirectWrapper {
            size: source.size,
            align,
            pointer: true,
        },
        Some(_) => Action::IndirectWrapper {
            size: source.size,
            align,
            pointer: false,
        },
        None => Action::Indirect {
            size: source.size,
            align,
        },
    };
    Some(from_di(action))
}

/// A struct of exactly one pointer behind a bare `ptr align A` (rustc -O0).
/// rustc passes a `#[repr(C)]` one indirectly and a `repr(Rust)`/
/// `repr(transparent)` one as the pointer itself; debug info does not record
/// the repr. rustc -O0 tells them apart in two ways: the variable's
/// `#dbg_declare` names the parameter itself for an indirect one (the
/// parameter is its address) and an alloca the parameter is stored to for a
/// pointer; and `align` is the struct's or the pointee's. Where neither
/// tells, it is taken as the pointer itself, with a warning.
fn pointer_wrapper(
    kernel: FunctionValue<'_>,
    index: u32,
    source: &SourceType,
    leaf: &Leaf,
    align_attr: Option<u64>,
) -> ParamPlan<'static> {
    let plan = |action, doubt| ParamPlan {
        old: index..index + 1,
        action,
        source: "debug info",
        doubt,
    };
    let indirect = Action::IndirectWrapper {
        size: source.size,
        align: align_attr.unwrap_or(1).max(source.align),
        pointer: true,
    };
    match super::debug_info::declared_at_parameter(kernel, index) {
        Some(true) => return plan(indirect, None),
        Some(false) => return keep(index),
        None => {}
    }
    match align_attr {
        Some(a) if a == source.align && a != leaf.pointee_align => plan(
            Action::IndirectWrapper {
                size: source.size,
                align: a,
                pointer: true,
            },
            None,
        ),
        Some(a) if a == leaf.pointee_align && a != source.align => keep(index),
        _ => plan(
            Action::Keep,
            Some(
                "a struct of one pointer at -O0: rustc passes a #[repr(C)] one as a pointer to the struct, a repr(Rust) or repr(transparent) one as the pointer itself, and here the IR cannot tell which (the struct and what it points at have the same alignment); it is taken as the pointer itself. If it is #[repr(C)], compile with -Copt-level=1 or more, or describe it with an !offload.aggregate.args hint",
            ),
        ),
    }
}

/// The one scalar or pointer filling the whole source type (clang's
/// single-element struct: no over-alignment padding).
pub fn single_leaf(source: &SourceType) -> Option<&Leaf> {
    match source.leaves.as_deref() {
        Some([leaf]) if leaf.offset == 0 && leaf.size == source.size => Some(leaf),
        _ => None,
    }
}

/// rustc's `PassMode::Pair`: a two-field source aggregate passed as the two
/// IR scalars at `index`, when their sizes and kinds match the fields.
fn pair<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    source: &SourceType,
    layout: &TargetData,
) -> Option<ParamPlan<'ctx>> {
    if !source.is_aggregate() {
        return None;
    }
    let Some([first, second]) = source.leaves.as_deref() else {
        return None;
    };
    if index + 1 >= kernel.count_params() {
        return None;
    }
    if !piece_fits(kernel, index, first, layout) || !piece_fits(kernel, index + 1, second, layout) {
        return None;
    }
    let natural = first.size.max(second.size).max(1);
    Some(ParamPlan {
        old: index..index + 2,
        action: Action::Pair {
            offsets: vec![first.offset, second.offset],
            size: source.size,
            align: if source.align > 0 {
                source.align
            } else {
                natural
            },
        },
        source: "debug info",
        doubt: None,
    })
}

/// IR parameter `index` can carry field `leaf` of a pair.
fn piece_fits(kernel: FunctionValue<'_>, index: u32, leaf: &Leaf, layout: &TargetData) -> bool {
    let ty = param_type(kernel, index);
    let kind_matches = match ty {
        BasicTypeEnum::PointerType(_) => leaf.kind == LeafKind::Pointer,
        BasicTypeEnum::IntType(_) => leaf.kind == LeafKind::Integer,
        BasicTypeEnum::FloatType(_) => leaf.kind == LeafKind::Float,
        _ => false,
    };
    // rustc puts `align` on a pointer piece only for a reference, and then
    // it is the pointee's alignment: a piece whose `align` is something else
    // (an -O0 indirect aggregate is `align` of the aggregate) is no field.
    let align_matches = match (leaf.kind, attributes::param_align(kernel, index)) {
        (LeafKind::Pointer, Some(align)) => leaf.pointee_align == 0 || leaf.pointee_align == align,
        _ => true,
    };
    kind_matches
        && align_matches
        && Type::from(ty).has_fixed_size()
        && !attributes::has_param(kernel, index, "byref")
        && !attributes::has_param(kernel, index, "dead_on_return")
        && layout.get_store_size(&ty) == leaf.size
}
