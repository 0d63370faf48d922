//! Calls: their callee, arguments and intrinsics.

use inkwell::module::Module;
use inkwell::values::{FunctionValue, InstructionValue};
use llvm_sys::LLVMOpcode;
use llvm_sys::core as llvm;

use super::handles::{Type, Value};

/// True for `call`, `invoke` and `callbr`.
pub fn is_call_like(value: Value<'_>) -> bool {
    matches!(
        value.opcode(),
        Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr)
    )
}

/// The function a call-like instruction calls directly; `None` for an
/// indirect call and for other values.
pub fn called_function(call: Value<'_>) -> Option<Value<'_>> {
    if !is_call_like(call) {
        return None;
    }
    // SAFETY: a call-like instruction has a called operand.
    let callee = unsafe { Value::from_raw_opt(llvm::LLVMGetCalledValue(call.as_raw())) }?;
    callee.is_function().then_some(callee)
}

/// The callee operand of a call-like instruction, direct or not.
pub fn called_value(call: Value<'_>) -> Option<Value<'_>> {
    if !is_call_like(call) {
        return None;
    }
    // SAFETY: a call-like instruction has a called operand.
    unsafe { Value::from_raw_opt(llvm::LLVMGetCalledValue(call.as_raw())) }
}

/// The number of argument operands of a call-like instruction (bundle
/// operands and the callee follow them); 0 for other values.
pub fn arg_count(call: Value<'_>) -> u32 {
    if !is_call_like(call) {
        return 0;
    }
    // SAFETY: a call-like instruction.
    unsafe { llvm::LLVMGetNumArgOperands(call.as_raw()) }
}

/// The argument operands of a call (without bundle operands and callee).
pub fn arguments(call: Value<'_>) -> Vec<Value<'_>> {
    (0..arg_count(call))
        .filter_map(|i| call.operand(i))
        .collect()
}

/// The operand number of a call's callee (always the last operand).
pub fn callee_operand_index(call: Value<'_>) -> u32 {
    call.operand_count().saturating_sub(1)
}

/// True for an `invoke` (as opposed to a `call`).
pub fn is_invoke(call: Value<'_>) -> bool {
    call.opcode() == Some(LLVMOpcode::LLVMInvoke)
}

/// Every call-like instruction of every defined function, in module order:
/// (caller, call). Indirect calls included.
pub fn all_calls<'ctx>(
    module: &Module<'ctx>,
) -> Vec<(FunctionValue<'ctx>, InstructionValue<'ctx>)> {
    let mut calls = Vec::new();
    for caller in module.get_functions() {
        for block in caller.get_basic_blocks() {
            for inst in block.get_instructions() {
                if is_call_like(Value::from(inst)) {
                    calls.push((caller, inst));
                }
            }
        }
    }
    calls
}

/// The intrinsic id of `name` (`llvm.memcpy`); 0 when LLVM has none.
pub fn intrinsic_id(name: &str) -> u32 {
    // SAFETY: the name is passed with its length.
    unsafe { llvm::LLVMLookupIntrinsicID(name.as_ptr().cast(), name.len()) }
}

/// True if `call` calls intrinsic `name` (any overload: `llvm.memcpy`
/// matches `llvm.memcpy.p0.p4.i64` but not `llvm.memcpy.inline.*`).
pub fn is_intrinsic_call(call: Value<'_>, name: &str) -> bool {
    let id = intrinsic_id(name);
    // SAFETY: reads the intrinsic id of a live function.
    id != 0
        && called_function(call)
            .is_some_and(|f| unsafe { llvm::LLVMGetIntrinsicID(f.as_raw()) } == id)
}

/// A member of the memcpy/memmove/memset family: its leading arguments are
/// pointers (overloaded on their address spaces), then comes the length
/// (overloaded on its width).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemIntrinsic {
    name: &'static str,
    pointers: u32,
}

const MEM_INTRINSICS: &[MemIntrinsic] = &[
    MemIntrinsic {
        name: "llvm.memcpy",
        pointers: 2,
    },
    MemIntrinsic {
        name: "llvm.memcpy.inline",
        pointers: 2,
    },
    MemIntrinsic {
        name: "llvm.memmove",
        pointers: 2,
    },
    MemIntrinsic {
        name: "llvm.memset",
        pointers: 1,
    },
    MemIntrinsic {
        name: "llvm.memset.inline",
        pointers: 1,
    },
];

/// The memcpy/memmove/memset family member `call` calls.
pub fn mem_intrinsic(call: Value<'_>) -> Option<MemIntrinsic> {
    MEM_INTRINSICS
        .iter()
        .copied()
        .find(|intrinsic| is_intrinsic_call(call, intrinsic.name))
}

impl MemIntrinsic {
    /// The number of leading pointer arguments.
    pub fn pointers(self) -> u32 {
        self.pointers
    }

    /// The declaration of this intrinsic for pointer arguments of types
    /// `pointers` (one per pointer argument) and a length of type `length`
    /// in `module`, with its function type; `None` when LLVM has no such
    /// intrinsic.
    pub fn declaration<'ctx>(
        self,
        module: &Module<'ctx>,
        pointers: &[Type<'ctx>],
        length: Type<'ctx>,
    ) -> Option<(Value<'ctx>, Type<'ctx>)> {
        assert_eq!(
            pointers.len(),
            self.pointers as usize,
            "one type per pointer argument"
        );
        let id = intrinsic_id(self.name);
        if id == 0 {
            return None;
        }
        let mut overloads: Vec<_> = pointers
            .iter()
            .chain([&length])
            .map(|t| t.as_raw())
            .collect();
        // SAFETY: the id is valid and the overload types are the ones this
        // family declares (each pointer, then the length); the declaration
        // is a live function of the module, its value type a live type.
        unsafe {
            let decl = Value::from_raw_opt(llvm::LLVMGetIntrinsicDeclaration(
                module.as_mut_ptr(),
                id,
                overloads.as_mut_ptr(),
                overloads.len(),
            ))?;
            Some((
                decl,
                Type::from_raw(llvm::LLVMGlobalGetValueType(decl.as_raw())),
            ))
        }
    }
}
