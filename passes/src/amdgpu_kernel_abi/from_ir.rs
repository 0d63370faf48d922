//! The plan of one parameter from its IR type and attributes alone: the
//! rule when neither a hint nor debug info says more, and what the other
//! planners fall back to.

use inkwell::AddressSpace;
use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;

use super::param::{Action, ParamPlan, is_aggregate, keep, param_type};
use crate::ir::{attributes, naming};

/// The rule for one parameter when only its IR type and attributes are known.
pub fn plan_from_ir<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    layout: &TargetData,
) -> ParamPlan<'ctx> {
    let ty = param_type(kernel, index);
    if attributes::has_param(kernel, index, "byref") {
        return keep(index);
    }
    if is_aggregate(ty) {
        let action = match single_element(ty, layout) {
            Some((element, path)) => Action::ByValueWrapper { element, path },
            None => Action::ByValueAggregate { ty },
        };
        return ParamPlan {
            old: index..index + 1,
            action,
            source: "IR",
            doubt: None,
        };
    }
    if let Some((size, align)) = rustc_indirect(kernel, index) {
        // An aggregate of one pointer (clang passes the pointer: a
        // `global_buffer` argument), shown by a body that only loads a
        // pointer from it; any other 8-byte aggregate stays bytes.
        let pointer_size = u64::from(layout.get_pointer_byte_size(None));
        let one_pointer = size == pointer_size
            && align == pointer_size
            && naming::param(kernel, index).is_some_and(super::wrapper::only_loads_pointers);
        let action = if one_pointer {
            Action::IndirectWrapper {
                size,
                align,
                pointer: true,
            }
        } else {
            Action::Indirect { size, align }
        };
        return ParamPlan {
            old: index..index + 1,
            action,
            source: "IR",
            doubt: None,
        };
    }
    keep(index)
}

/// rustc's indirect by-value aggregate: a generic pointer the callee owns
/// (`dead_on_return`) with a known size. Returns (size, align).
pub fn rustc_indirect(kernel: FunctionValue<'_>, index: u32) -> Option<(u64, u64)> {
    let ty = param_type(kernel, index);
    let generic = matches!(ty, BasicTypeEnum::PointerType(p) if p.get_address_space() == AddressSpace::default());
    if !generic || !attributes::has_param(kernel, index, "dead_on_return") {
        return None;
    }
    let size = attributes::param_value(kernel, index, "dereferenceable")?;
    let align = attributes::param_align(kernel, index).unwrap_or(1);
    Some((size, align))
}

/// The single scalar, vector or pointer an aggregate wraps (recursively),
/// with the index path to reach it; `None` when it holds anything else.
/// clang's single-element-struct rule: the element must fill the aggregate.
pub fn single_element<'ctx>(
    ty: BasicTypeEnum<'ctx>,
    layout: &TargetData,
) -> Option<(BasicTypeEnum<'ctx>, Vec<u32>)> {
    let mut path = Vec::new();
    let mut inner = ty;
    loop {
        inner = match inner {
            BasicTypeEnum::StructType(s) if s.count_fields() == 1 => {
                s.get_field_type_at_index(0)?
            }
            BasicTypeEnum::ArrayType(a) if a.len() == 1 => a.get_element_type(),
            BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_) => return None,
            _ => break,
        };
        path.push(0);
    }
    (layout.get_abi_size(&inner) == layout.get_abi_size(&ty)).then_some((inner, path))
}
