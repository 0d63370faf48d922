//! The data-region calls: `@__offload_data_begin/update/end(ptr, i64 size,
//! i64 maptype)`, declared by the host program, each lowered to one
//! `__tgt_target_data_{begin,update,end}_mapper` call of one argument, so
//! that launches inside the region find the data present.

pub mod lower;
pub mod plan;

use inkwell::values::{FunctionValue, InstructionValue};

/// The explicit data-region calls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DataOp {
    Begin,
    End,
    Update,
}

impl DataOp {
    pub fn from_name(name: &str) -> Option<DataOp> {
        match name {
            "__offload_data_begin" => Some(DataOp::Begin),
            "__offload_data_end" => Some(DataOp::End),
            "__offload_data_update" => Some(DataOp::Update),
            _ => None,
        }
    }

    /// The libomptarget function it becomes.
    pub fn mapper(self) -> &'static str {
        match self {
            DataOp::Begin => "__tgt_target_data_begin_mapper",
            DataOp::End => "__tgt_target_data_end_mapper",
            DataOp::Update => "__tgt_target_data_update_mapper",
        }
    }
}

/// One explicit data-region call; its (pointer, size, map type) arguments
/// are read when it is lowered, for the same reason as a launch's.
pub struct DataCall<'ctx> {
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub op: DataOp,
}

#[cfg(test)]
mod tests;
