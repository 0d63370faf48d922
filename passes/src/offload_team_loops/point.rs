//! What every stage of the team compiler shares: a meeting point of the
//! team body, the body's instructions and rank queries, and the error of an
//! instruction the builder could not make. A leaf of the pass's modules.

use inkwell::values::{BasicValueEnum, FunctionValue};

use super::{Kind, RANK, Refusal};
use crate::ir::{Block, Opcode, Value, calls};

/// One meeting point of the team body: its call (erased once rewritten),
/// the block it ends and the continuation after it.
pub struct Point<'ctx> {
    pub kind: Kind,
    pub site: Option<Value<'ctx>>,
    pub call: Value<'ctx>,
    pub block: Block<'ctx>,
    pub cont: Block<'ctx>,
    /// An exchange's result, re-defined at the top of the continuation.
    pub result: Option<Value<'ctx>>,
}

pub fn instructions<'ctx>(function: FunctionValue<'ctx>) -> Vec<Value<'ctx>> {
    function
        .get_basic_blocks()
        .into_iter()
        .flat_map(|b| Block::from(b).instructions())
        .collect()
}

pub fn is_rank(inst: Value<'_>) -> bool {
    inst.opcode() == Some(Opcode::LLVMCall)
        && calls::called_function(inst).is_some_and(|c| c.name() == RANK)
}

pub type BuildResult<T> = Result<T, Refusal>;

pub fn built<T>(r: Result<T, inkwell::builder::BuilderError>) -> BuildResult<T> {
    r.map_err(|_| Refusal::Internal("an instruction"))
}

pub fn param<'ctx>(team: FunctionValue<'ctx>, i: u32) -> BasicValueEnum<'ctx> {
    team.get_nth_param(i)
        .expect("the team body has eight parameters")
}
