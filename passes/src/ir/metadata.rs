//! Metadata: kinds, attachments of functions and instructions, and the
//! operands of plain (non-debug-info) nodes such as `!offload.aggregate.args`.

use inkwell::module::Module;
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMContextRef;

use super::ffi;
use super::handles::{Metadata, Value};

/// The kind id of `!dbg`, fixed in every context (`LLVMContext::MD_dbg`).
pub const DBG: u32 = 0;

fn context(module: &Module<'_>) -> LLVMContextRef {
    // SAFETY: the module is live.
    unsafe { llvm::LLVMGetModuleContext(module.as_mut_ptr()) }
}

/// The metadata kind id for `name` in the module's context.
pub fn kind(module: &Module<'_>, name: &str) -> u32 {
    // SAFETY: the context is live; the name is passed with its length.
    unsafe {
        llvm::LLVMGetMDKindIDInContext(context(module), name.as_ptr().cast(), name.len() as u32)
    }
}

/// The (first) attachment of kind id `kind` of a function, if any: for
/// per-kernel lookups, with the id from [`kind`] looked up once per run.
pub fn attachment_of_kind<'ctx>(
    function: FunctionValue<'ctx>,
    kind: u32,
) -> Option<Metadata<'ctx>> {
    // SAFETY: reads an attachment of a live function; the node is live
    // metadata of its context, or null.
    unsafe {
        Metadata::from_raw_opt(ffi::offload_ir_global_metadata(
            Value::from(function).as_raw(),
            kind,
        ))
    }
}

/// Attaches the empty node `!{}` as kind id `kind` to a function.
pub fn set_marker_of_kind(module: &Module<'_>, function: FunctionValue<'_>, kind: u32) {
    // SAFETY: an empty node of the module's live context.
    unsafe {
        let node = llvm::LLVMMDNodeInContext2(context(module), std::ptr::null_mut(), 0);
        llvm::LLVMGlobalSetMetadata(Value::from(function).as_raw(), kind, node);
    }
}

/// Attaches the empty node `!{}` as `!name` to an instruction (markers such
/// as `!invariant.load`).
pub fn set_instruction_marker(module: &Module<'_>, inst: Value<'_>, name: &str) {
    let kind = kind(module, name);
    // SAFETY: an empty node of the module's live context, attached to a
    // live instruction (LLVMSetMetadata ignores values that are none).
    unsafe {
        let node = llvm::LLVMMDNodeInContext2(context(module), std::ptr::null_mut(), 0);
        let node = llvm::LLVMMetadataAsValue(context(module), node);
        llvm::LLVMSetMetadata(inst.as_raw(), kind, node);
    }
}

/// Drops the attachments of kind id `kind` from a function.
pub fn remove_attachment_of_kind(function: FunctionValue<'_>, kind: u32) {
    // SAFETY: erasing an attachment of a live function.
    unsafe { llvm::LLVMGlobalEraseMetadata(Value::from(function).as_raw(), kind) }
}

/// The attachment `!name` of an instruction, if any.
pub fn instruction_attachment<'ctx>(
    module: &Module<'ctx>,
    inst: Value<'ctx>,
    name: &str,
) -> Option<Metadata<'ctx>> {
    if !inst.is_instruction() {
        return None;
    }
    // SAFETY: reads an attachment of a live instruction; the result is
    // metadata-as-value of a node, or null.
    unsafe {
        let value = llvm::LLVMGetMetadata(inst.as_raw(), kind(module, name));
        if value.is_null() {
            return None;
        }
        Metadata::from_raw_opt(llvm::LLVMValueAsMetadata(value))
    }
}

/// Removes attachment `!name` from an instruction.
pub fn drop_instruction_attachment(module: &Module<'_>, inst: Value<'_>, name: &str) {
    if inst.is_instruction() {
        // SAFETY: a null node removes the attachment.
        unsafe { llvm::LLVMSetMetadata(inst.as_raw(), kind(module, name), std::ptr::null_mut()) }
    }
}

/// Operands of an MDNode as values: a constant operand (`i32 3`) is the
/// constant, another node is wrapped as metadata-as-value; `None` for null
/// operands. Empty for anything that is not an MDNode.
pub fn operand_values<'ctx>(
    module: &Module<'ctx>,
    node: Metadata<'ctx>,
) -> Vec<Option<Value<'ctx>>> {
    // SAFETY: `node` is live metadata of this context; operands are copied
    // out and are live values or null.
    unsafe {
        let value = llvm::LLVMMetadataAsValue(context(module), node.as_raw());
        if llvm::LLVMIsAMDNode(value).is_null() {
            return Vec::new();
        }
        let count = llvm::LLVMGetMDNodeNumOperands(value) as usize;
        let mut operands = vec![std::ptr::null_mut(); count];
        llvm::LLVMGetMDNodeOperands(value, operands.as_mut_ptr());
        operands
            .into_iter()
            .map(|v| Value::from_raw_opt(v))
            .collect()
    }
}

/// Operands of an MDNode as metadata (`None` for null operands); empty for
/// anything that is not an MDNode.
pub fn operands(node: Metadata<'_>) -> Vec<Option<Metadata<'_>>> {
    // SAFETY: the accessors take any metadata (checking it is an MDNode)
    // and bound the index; operands are live nodes of the same context.
    unsafe {
        (0..ffi::offload_ir_md_operand_count(node.as_raw()))
            .map(|i| Metadata::from_raw_opt(ffi::offload_ir_md_operand(node.as_raw(), i)))
            .collect()
    }
}

/// An integer operand of an MDNode: its value zero-extended, `None` when
/// the operand is no integer constant or wider than 64 bits (a wider one
/// would be truncated).
pub fn integer(operand: Option<Value<'_>>) -> Option<u64> {
    let operand = operand?;
    // SAFETY: LLVMIsAConstantInt accepts any value and returns null otherwise.
    unsafe {
        let constant = llvm::LLVMIsAConstantInt(operand.as_raw());
        let fits =
            !constant.is_null() && llvm::LLVMGetIntTypeWidth(llvm::LLVMTypeOf(constant)) <= 64;
        fits.then(|| llvm::LLVMConstIntGetZExtValue(constant))
    }
}

/// The integers of an MDNode's operands (`!{i32 0, i64 16}`), as
/// [`integer`] reads each.
pub fn integers(node: Metadata<'_>) -> Vec<Option<u64>> {
    operands(node)
        .into_iter()
        .map(|operand| {
            let mut value = 0u64;
            // SAFETY: takes any metadata; writes `value` only on success.
            let ok = operand.is_some_and(
                |md| unsafe { ffi::offload_ir_md_integer(md.as_raw(), &mut value) } != 0,
            );
            ok.then_some(value)
        })
        .collect()
}

/// Copies every attachment of instruction `from` but the debug location,
/// and the debug location, to `to`.
pub fn copy_instruction_attachments(module: &Module<'_>, from: Value<'_>, to: Value<'_>) {
    // SAFETY: both are live instructions of one context; the entries array
    // is ours and disposed after copying out.
    unsafe {
        let mut count = 0usize;
        let entries =
            llvm::LLVMInstructionGetAllMetadataOtherThanDebugLoc(from.as_raw(), &mut count);
        for i in 0..count as u32 {
            let kind = llvm::LLVMValueMetadataEntriesGetKind(entries, i);
            let md = llvm::LLVMValueMetadataEntriesGetMetadata(entries, i);
            llvm::LLVMSetMetadata(
                to.as_raw(),
                kind,
                llvm::LLVMMetadataAsValue(context(module), md),
            );
        }
        if !entries.is_null() {
            llvm::LLVMDisposeValueMetadataEntries(entries);
        }
        llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(
            to.as_raw(),
            llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(from.as_raw()),
        );
    }
}
