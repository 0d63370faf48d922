//! Planning a data-region call: only its shape is checked; its operands
//! are read when it is lowered.

use inkwell::AddressSpace;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue, IntValue};

use super::{DataCall, DataOp};
use crate::ir::{Value, calls, naming};
use crate::offload_host::error::{DataCallProblem, Error};

/// Checks a data-region call: a plain call of the declaration, `(ptr in
/// address space 0, iN size, iN maptype)` with N at most 64, its result
/// unused.
pub fn plan<'ctx>(
    caller: FunctionValue<'ctx>,
    call: InstructionValue<'ctx>,
    callee: FunctionValue<'ctx>,
    op: DataOp,
) -> Result<DataCall<'ctx>, Error> {
    let error = |problem| Error::DataCall {
        callee: naming::name_of(callee),
        caller: naming::name_of(caller),
        problem,
    };
    if callee.count_basic_blocks() > 0 {
        return Err(error(DataCallProblem::HasBody));
    }
    if calls::is_invoke(Value::from(call)) {
        return Err(error(DataCallProblem::Invoke));
    }
    let args: Vec<Option<BasicValueEnum<'ctx>>> = calls::arguments(Value::from(call))
        .into_iter()
        .map(Value::as_basic)
        .collect();
    let narrow = |v: IntValue<'_>| v.get_type().get_bit_width() <= 64;
    match (args.as_slice(), call.get_first_use().is_some()) {
        (
            [
                Some(BasicValueEnum::PointerValue(p)),
                Some(BasicValueEnum::IntValue(size)),
                Some(BasicValueEnum::IntValue(map)),
            ],
            false,
        ) if narrow(*size) && narrow(*map) => {
            if p.get_type().get_address_space() != AddressSpace::default() {
                return Err(error(DataCallProblem::PointerAddressSpace));
            }
            Ok(DataCall { call, caller, op })
        }
        _ => Err(error(DataCallProblem::Shape)),
    }
}
