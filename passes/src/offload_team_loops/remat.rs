//! Rematerialization: a value live across a meeting point that is cheap to
//! compute again from what every step has (constants, the environment
//! pointer, loads from the environment, which no thread writes during a
//! launch, the thread rank, which becomes the loop index, and the team's
//! record, the same for the whole call) is computed again before each use
//! after the point instead of taking a per-thread slot (`zext i32 %t to
//! i64`, the kernel's argument loads, their address arithmetic): no context
//! storage, and the loop stays free of loads and stores the vectorizer
//! would have to prove independent.

use inkwell::builder::Builder;
use inkwell::values::FunctionValue;

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
pub fn plan<'ctx>(team: FunctionValue<'ctx>, value: Value<'ctx>) -> Option<Vec<Value<'ctx>>> {
    let mut order = Vec::new();
    visit(team, value, &mut order)?;
    Some(order)
}

fn visit<'ctx>(
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
    let leaf = is_rank(value) || is_current(value);
    let ok = leaf
        || pure(opcode)
        || (opcode == Opcode::LLVMLoad
            && !inst.get_volatile().unwrap_or(true)
            && inst
                .get_atomic_ordering()
                .is_ok_and(|o| o == inkwell::AtomicOrdering::NotAtomic)
            && value.operand(0).is_some_and(|p| in_environment(team, p)));
    if !ok {
        return None;
    }
    if !leaf {
        for i in 0..value.operand_count() {
            visit(team, value.operand(i)?, order)?;
        }
    }
    order.push(value);
    Some(())
}

/// A call of `__offload_cpu_current` (the team's record, the same for the
/// whole team body call).
fn is_current(value: Value<'_>) -> bool {
    value.opcode() == Some(Opcode::LLVMCall)
        && crate::ir::calls::arg_count(value) == 0
        && crate::ir::calls::called_function(value).is_some_and(|c| c.name() == super::CURRENT)
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
