//! Use classification: how one use of a pointer derived from a byref
//! parameter touches its memory.

use crate::ir::calls::mem_intrinsic;
use crate::ir::{Opcode as Op, Value, attributes, calls};

/// How one use of a derived pointer touches its memory.
#[derive(Debug, PartialEq, Eq)]
pub enum Access {
    /// The user is itself a pointer derived from the parameter: follow it.
    Derive,
    /// Reads the memory, or does not touch it (a comparison).
    Read,
    /// May write the memory, or lets the pointer escape where a write cannot
    /// be ruled out. The text says which.
    Write(&'static str),
}

/// True for a scalar pointer result (vectors of pointers are not followed).
pub fn yields_pointer(inst: Value<'_>) -> bool {
    inst.ty().pointer_address_space().is_some()
}

/// How `user` uses a derived pointer at operand `index`.
pub fn classify(user: Value<'_>, index: u32) -> Access {
    let Some(op) = user.opcode() else {
        return Access::Write("used by a non-instruction");
    };
    match op {
        Op::LLVMLoad => Access::Read,
        Op::LLVMStore if index == 1 => Access::Write("store through it"),
        Op::LLVMStore => Access::Write("the pointer itself is stored (escapes)"),
        Op::LLVMAtomicRMW if index == 0 => Access::Write("atomicrmw through it"),
        Op::LLVMAtomicCmpXchg if index == 0 => Access::Write("cmpxchg through it"),
        Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg => {
            Access::Write("the pointer itself is stored atomically (escapes)")
        }
        Op::LLVMGetElementPtr | Op::LLVMAddrSpaceCast | Op::LLVMBitCast | Op::LLVMFreeze
            if index == 0 && yields_pointer(user) =>
        {
            Access::Derive
        }
        Op::LLVMSelect if index > 0 && yields_pointer(user) => Access::Derive,
        Op::LLVMPHI if yields_pointer(user) => Access::Derive,
        Op::LLVMICmp => Access::Read,
        // The address alone carries no provenance to write through.
        Op::LLVMPtrToAddr => Access::Read,
        Op::LLVMPtrToInt => Access::Write("ptrtoint (the address escapes)"),
        Op::LLVMCall | Op::LLVMInvoke | Op::LLVMCallBr => classify_call(user, index),
        Op::LLVMRet => Access::Write("returned (escapes)"),
        _ => Access::Write("used by an instruction this pass does not follow (escapes)"),
    }
}

/// A call argument only reads when the call reads it (`readonly`/`readnone`
/// on the argument, or a call that writes no memory at all) and keeps no
/// writable copy of it (`captures` without full provenance, return included).
fn classify_call(call: Value<'_>, index: u32) -> Access {
    if index == calls::callee_operand_index(call) {
        return Access::Write("called as a function");
    }
    if index >= calls::arg_count(call) {
        // Bundle operands of llvm.assume only state facts about the pointer.
        return if calls::is_intrinsic_call(call, "llvm.assume") {
            Access::Read
        } else {
            Access::Write("operand bundle of a call")
        };
    }
    if index == 0 && mem_intrinsic(call).is_some() {
        return Access::Write("memset/memcpy/memmove destination");
    }
    let reads_only = attributes::call_param(call, index, "readonly").is_some()
        || attributes::call_param(call, index, "readnone").is_some()
        || attributes::call_function(call, "memory").is_some_and(memory_effects_read_only);
    let captured =
        attributes::call_param(call, index, "captures").is_none_or(captures_writable_provenance);
    match (reads_only, captured) {
        (true, false) => Access::Read,
        (false, _) => Access::Write("passed to a call that may write through it"),
        (true, true) => Access::Write("passed to a call that may capture it"),
    }
}

/// True if a `memory(...)` attribute value allows no write to any location.
/// Encoding (`llvm/Support/ModRef.h`): two bits per location, `Ref` = 1, `Mod` = 2.
fn memory_effects_read_only(memory: u64) -> bool {
    memory & 0xAAAA_AAAA_AAAA_AAAA == 0
}

/// True if a `captures(...)` attribute value lets the pointer's provenance
/// escape with write permission, in the return value or elsewhere. Encoding:
/// `other << 4 | ret`, each a `CaptureComponents` mask where bit 3 is set
/// only for full `provenance` (`read_provenance` alone cannot be written
/// through).
fn captures_writable_provenance(captures: u64) -> bool {
    captures & 0x88 != 0
}
