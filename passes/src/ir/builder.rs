//! Where new instructions go.

use inkwell::builder::Builder;
use inkwell::values::{FunctionValue, InstructionOpcode};

use super::handles::Value;

/// A builder at the top of `function`'s entry block, where allocas and
/// parameter replacements belong (static allocas, not repeated in loops):
/// after any phis an entry block may start with, and in front of the first
/// instruction's debug records, so a `#dbg_declare` of a replaced value
/// follows its replacement.
pub fn entry_builder<'ctx>(function: FunctionValue<'ctx>) -> Builder<'ctx> {
    let builder = function.get_type().get_context().create_builder();
    let Some(entry) = function.get_first_basic_block() else {
        return builder;
    };
    let first_non_phi = entry
        .get_instructions()
        .find(|i| i.get_opcode() != InstructionOpcode::Phi);
    match first_non_phi {
        Some(first) => {
            // (inkwell's own call first: it records that the builder is placed.)
            builder.position_before(&first);
            // SAFETY: positions a live builder before a live instruction.
            unsafe {
                llvm_sys::core::LLVMPositionBuilderBeforeInstrAndDbgRecords(
                    builder.as_mut_ptr(),
                    Value::from(first).as_raw(),
                )
            }
        }
        None => builder.position_at_end(entry),
    }
    builder
}
