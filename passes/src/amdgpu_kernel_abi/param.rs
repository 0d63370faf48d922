//! One kernel parameter's plan: what becomes of it ([`ParamPlan`],
//! [`Action`]), the limits a plan must keep, and the type tests every
//! planning step shares. A leaf: the planners (`hint`, `from_debug_info`,
//! `from_ir`, `plan`) and the rewrite build on it.

use std::ops::Range;

use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;

use crate::ir::types;

/// LLVM's verifier refuses `byref` types of 4 GiB or more.
pub const MAX_BYREF_SIZE: u64 = (1 << 32) - 1;

/// What becomes of one new parameter, and which old parameters it replaces.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamPlan<'ctx> {
    /// Old parameter indices this new parameter replaces (consecutive; a
    /// range, not a vector: plans for every kernel are held at once).
    pub old: Range<u32>,
    pub action: Action<'ctx>,
    /// Where the knowledge came from: "IR", "debug info" or "hint".
    pub source: &'static str,
    /// Why the choice may be wrong, for the user (a warning once the plan
    /// is final).
    pub doubt: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action<'ctx> {
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
    /// A pointer to a value that is one scalar or pointer (`pointer`): pass
    /// that element itself when the body allows (see the `wrapper` module),
    /// else as `Indirect`.
    IndirectWrapper {
        size: u64,
        align: u64,
        pointer: bool,
    },
    /// rustc's `PassMode::Pair`, the two scalars of one source aggregate, at
    /// these byte offsets: `byref([size x i8])`, each old parameter becomes
    /// a load at its offset. (A hint may describe more than two fields.)
    Pair {
        offsets: Vec<u64>,
        size: u64,
        align: u64,
    },
}

impl ParamPlan<'_> {
    pub fn changes(&self) -> bool {
        !matches!(self.action, Action::Keep)
    }

    /// The byref size this plan gives the parameter, if it becomes byref.
    pub fn byref_size(&self, layout: &TargetData) -> Option<u64> {
        match &self.action {
            Action::ByValueAggregate { ty } => Some(layout.get_abi_size(ty)),
            Action::Indirect { size, .. }
            | Action::IndirectWrapper { size, .. }
            | Action::Pair { size, .. } => Some(*size),
            Action::Keep | Action::ByValueWrapper { .. } => None,
        }
    }
}

pub fn keep(index: u32) -> ParamPlan<'static> {
    ParamPlan {
        old: index..index + 1,
        action: Action::Keep,
        source: "IR",
        doubt: None,
    }
}

/// The type of parameter `index` of a kernel the planner accepted (one
/// without parameters of types inkwell cannot wrap, see
/// `plan::plan_kernel`).
pub fn param_type<'ctx>(kernel: FunctionValue<'ctx>, index: u32) -> BasicTypeEnum<'ctx> {
    types::param_basic_type(kernel, index)
        .expect("plan_kernel keeps kernels with parameter types inkwell cannot wrap out")
}

pub fn is_pointer(ty: BasicTypeEnum<'_>) -> bool {
    matches!(ty, BasicTypeEnum::PointerType(_))
}

pub fn is_aggregate(ty: BasicTypeEnum<'_>) -> bool {
    matches!(
        ty,
        BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_)
    )
}

/// LLVM's largest alignment (`Value::MaximumAlignment`).
pub const MAX_ALIGN: u64 = 1 << 32;
