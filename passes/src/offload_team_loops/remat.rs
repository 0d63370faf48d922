//! Rematerialization: a value live across a meeting point that is cheap to
//! compute again from what every step has (constants, the environment
//! pointer, loads from the environment, which no thread writes during a
//! launch, the thread rank, which becomes the loop index, the team's
//! record and its fields, and the static shared arrays' addresses, the
//! same for the whole call: see `invariant`) is computed again before each use
//! after the point instead of taking a per-thread slot (`zext i32 %t to
//! i64`, the kernel's argument loads, their address arithmetic): no context
//! storage, and the loop stays free of loads and stores the vectorizer
//! would have to prove independent.

use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::values::FunctionValue;

use super::invariant::{is_current, is_fixed_static_shared, is_record_load};
use super::point::is_rank;
use crate::ir::{Block, Opcode, Value};

/// The most instructions one value's recomputation may take.
const MAX_INSTRUCTIONS: usize = 8;

fn pure(opcode: Opcode) -> bool {
    use Opcode::*;
    matches!(
        opcode,
        LLVMAdd
            | LLVMSub
            | LLVMMul
            | LLVMShl
            | LLVMLShr
            | LLVMAShr
            | LLVMAnd
            | LLVMOr
            | LLVMXor
            | LLVMUDiv
            | LLVMSDiv
            | LLVMURem
            | LLVMSRem
            | LLVMZExt
            | LLVMSExt
            | LLVMTrunc
            | LLVMBitCast
            | LLVMPtrToInt
            | LLVMIntToPtr
            | LLVMGetElementPtr
            | LLVMICmp
            | LLVMSelect
            | LLVMExtractValue
    )
}

/// A call of an integer intrinsic that only computes (`max(1)` of a
/// dimension becomes `llvm.umax`).
fn pure_intrinsic(value: Value<'_>) -> bool {
    ["llvm.umax", "llvm.umin", "llvm.smax", "llvm.smin"]
        .iter()
        .any(|name| crate::ir::calls::is_intrinsic_call(value, name))
}

/// Whether `pointer` is the environment (the team body's first parameter)
/// or an address into it made by `getelementptr`s of constant indices.
fn in_environment(team: FunctionValue<'_>, pointer: Value<'_>) -> bool {
    let env = team.get_first_param().map(Value::from);
    let mut p = pointer;
    for _ in 0..4 {
        if Some(p) == env {
            return true;
        }
        let constant_gep = p.opcode() == Some(Opcode::LLVMGetElementPtr)
            && (1..p.operand_count()).all(|i| p.operand(i).is_some_and(|o| o.is_constant()));
        if !constant_gep {
            return false;
        }
        match p.operand(0) {
            Some(base) => p = base,
            None => return false,
        }
    }
    false
}

/// The instructions computing `value` again, operands first; `None` when
/// it cannot be computed again (or not cheaply).
pub fn plan<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
    value: Value<'ctx>,
) -> Option<Vec<Value<'ctx>>> {
    let mut order = Vec::new();
    visit(module, team, value, &mut order)?;
    Some(order)
}

fn visit<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
    value: Value<'ctx>,
    order: &mut Vec<Value<'ctx>>,
) -> Option<()> {
    if !value.is_instruction() || order.contains(&value) {
        return Some(());
    }
    if order.len() >= MAX_INSTRUCTIONS {
        return None;
    }
    let opcode = value.opcode()?;
    let inst = value.as_instruction()?;
    let leaf = is_rank(value) || is_current(value) || is_fixed_static_shared(value);
    let ok = leaf
        || pure(opcode)
        || pure_intrinsic(value)
        || (opcode == Opcode::LLVMLoad
            && !inst.get_volatile().unwrap_or(true)
            && inst
                .get_atomic_ordering()
                .is_ok_and(|o| o == inkwell::AtomicOrdering::NotAtomic)
            && value.operand(0).is_some_and(|p| in_environment(team, p)))
        || is_record_load(module, value);
    if !ok {
        return None;
    }
    if !leaf {
        for i in 0..value.operand_count() {
            visit(module, team, value.operand(i)?, order)?;
        }
    }
    order.push(value);
    Some(())
}

/// Computes `plan` again at the builder's position; the copy of its last
/// instruction (the value).
pub fn build<'ctx>(builder: &Builder<'ctx>, plan: &[Value<'ctx>]) -> Option<Value<'ctx>> {
    let mut copies: Vec<(Value<'ctx>, Value<'ctx>)> = Vec::new();
    for &original in plan {
        let copy = original.as_instruction()?.explicit_clone();
        builder.insert_instruction(&copy, None);
        let copy = Value::from(copy);
        for i in 0..copy.operand_count() {
            if let Some(&(_, c)) = copies.iter().find(|(o, _)| copy.operand(i) == Some(*o)) {
                copy.set_operand(i, c);
            }
        }
        copies.push((original, copy));
    }
    copies.last().map(|&(_, c)| c)
}

/// Whether a divisor cannot be zero: a non-zero constant, or the unsigned
/// maximum with one (`max(1)` of a dimension).
fn nonzero(divisor: Value<'_>) -> bool {
    divisor.is_nonzero_int()
        || (crate::ir::calls::is_intrinsic_call(divisor, "llvm.umax")
            && (0..2).any(|i| divisor.operand(i).is_some_and(Value::is_nonzero_int)))
}

/// Whether `plan` may run anywhere its leaves are available, also where
/// the original did not run: no division that may trap (an unsigned one by
/// a value that may be zero, any signed one).
pub fn speculatable(plan: &[Value<'_>]) -> bool {
    plan.iter().all(|v| match v.opcode() {
        Some(Opcode::LLVMUDiv | Opcode::LLVMURem) => v.operand(1).is_some_and(nonzero),
        Some(Opcode::LLVMSDiv | Opcode::LLVMSRem) => false,
        _ => true,
    })
}

/// Positions the builder at the start of `block`, after its phis.
pub fn position_at_start<'ctx>(builder: &Builder<'ctx>, block: Block<'ctx>) -> Option<()> {
    let first = block
        .instructions()
        .into_iter()
        .find(|i| i.opcode() != Some(Opcode::LLVMPHI))?;
    builder.position_before(&first.as_instruction()?);
    Some(())
}

/// Where a use in `block` (a phi's: its incoming block) gets its copy.
pub fn position<'ctx>(
    builder: &Builder<'ctx>,
    user: Value<'ctx>,
    block: Block<'ctx>,
) -> Option<()> {
    if user.opcode() == Some(Opcode::LLVMPHI) {
        builder.position_before(&block.terminator()?.as_instruction()?);
    } else {
        builder.position_before(&user.as_instruction()?);
    }
    Some(())
}
