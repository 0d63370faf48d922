//! Metadata: kinds, attachments of functions and instructions, and the
//! operands of plain (non-debug-info) nodes such as `!offload.aggregate.args`.

use inkwell::module::Module;
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMContextRef;

use super::handles::{Metadata, Value};

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

/// Every attachment of a global or function: (kind id, node).
pub fn attachments<'ctx>(global: Value<'ctx>) -> Vec<(u32, Metadata<'ctx>)> {
    // SAFETY: the entries array is ours and disposed after copying out; its
    // nodes are live metadata of the global's context.
    unsafe {
        let mut count = 0usize;
        let entries = llvm::LLVMGlobalCopyAllMetadata(global.as_raw(), &mut count);
        let out = (0..count as u32)
            .filter_map(|i| {
                let md = llvm::LLVMValueMetadataEntriesGetMetadata(entries, i);
                Metadata::from_raw_opt(md)
                    .map(|md| (llvm::LLVMValueMetadataEntriesGetKind(entries, i), md))
            })
            .collect();
        if !entries.is_null() {
            llvm::LLVMDisposeValueMetadataEntries(entries);
        }
        out
    }
}

/// The attachment `!name` of a function, if any.
pub fn function_attachment<'ctx>(
    module: &Module<'ctx>,
    function: FunctionValue<'ctx>,
    name: &str,
) -> Option<Metadata<'ctx>> {
    let kind = kind(module, name);
    attachments(function.into())
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, md)| md)
}

/// True if the function carries `!name`, whatever its operands.
pub fn has_function_attachment<'ctx>(
    module: &Module<'ctx>,
    function: FunctionValue<'ctx>,
    name: &str,
) -> bool {
    function_attachment(module, function, name).is_some()
}

/// Attaches the empty node `!name !{}` to a function (a marker).
pub fn set_function_marker(module: &Module<'_>, function: FunctionValue<'_>, name: &str) {
    let kind = kind(module, name);
    // SAFETY: an empty node of the module's live context.
    unsafe {
        let node = llvm::LLVMMDNodeInContext2(context(module), std::ptr::null_mut(), 0);
        llvm::LLVMGlobalSetMetadata(Value::from(function).as_raw(), kind, node);
    }
}

/// Drops attachment `!name` from a function.
pub fn remove_function_attachment(module: &Module<'_>, function: FunctionValue<'_>, name: &str) {
    let kind = kind(module, name);
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

/// Operands of an MDNode as metadata (`None` for null operands).
pub fn operands<'ctx>(module: &Module<'ctx>, node: Metadata<'ctx>) -> Vec<Option<Metadata<'ctx>>> {
    operand_values(module, node)
        .into_iter()
        .map(|v| {
            // SAFETY: a live value as metadata (constants become ValueAsMetadata).
            v.and_then(|v| unsafe { Metadata::from_raw_opt(llvm::LLVMValueAsMetadata(v.as_raw())) })
        })
        .collect()
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

/// The integers of an MDNode's operands (`!{i32 0, i64 16}`).
pub fn integers<'ctx>(module: &Module<'ctx>, node: Metadata<'ctx>) -> Vec<Option<u64>> {
    operand_values(module, node)
        .into_iter()
        .map(integer)
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
