//! LLVM's `TransformUtils` the C API lacks: splitting a block, inlining a
//! call, cloning a function with more parameters, and running a function
//! pipeline on one function.

use inkwell::types::FunctionType;
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;

use super::ffi;
use super::handles::{Block, Type, Value};

/// Splits `inst`'s block right after it; the new block (the rest), which
/// the old block now branches to. `None` for a terminator.
pub fn split_block_after(inst: Value<'_>) -> Option<Block<'_>> {
    // SAFETY: a live handle; the helper checks its class.
    unsafe { Block::from_raw_opt(ffi::offload_ir_split_block_after(inst.as_raw())) }
}

/// Inlines direct call `call` of a defined function; whether it did.
pub fn inline_call(call: Value<'_>) -> bool {
    // SAFETY: a live handle; the helper checks its class.
    unsafe { ffi::offload_ir_inline_call(call.as_raw()) == 1 }
}

/// A clone of `function` of type `fn_type`, whose leading parameters are
/// `function`'s, internal, named `name`; `None` when the types disagree.
pub fn clone_function<'ctx>(
    function: FunctionValue<'ctx>,
    fn_type: FunctionType<'ctx>,
    name: &str,
) -> Option<FunctionValue<'ctx>> {
    let ty = Type::from(fn_type);
    // SAFETY: live handles and a valid string slice.
    let raw = unsafe {
        ffi::offload_ir_clone_function(
            Value::from(function).as_raw(),
            ty.as_raw(),
            name.as_ptr().cast(),
            name.len(),
        )
    };
    // SAFETY: a live handle or null.
    unsafe { Value::from_raw_opt(raw) }?.as_function()
}

/// Runs function pipeline `pipeline` (PassBuilder text, e.g.
/// `sroa,instcombine`) on `function` alone; whether it parsed and ran.
pub fn run_function_pipeline(function: FunctionValue<'_>, pipeline: &str) -> bool {
    // SAFETY: a live function handle and a valid string slice.
    unsafe {
        ffi::offload_ir_run_function_pipeline(
            Value::from(function).as_raw(),
            pipeline.as_ptr().cast(),
            pipeline.len(),
        ) == 1
    }
}

/// Whether `function` passes LLVM's verifier (nothing printed).
pub fn function_is_valid(function: FunctionValue<'_>) -> bool {
    // SAFETY: a live function; the verifier only reads it.
    unsafe {
        llvm_sys::analysis::LLVMVerifyFunction(
            Value::from(function).as_raw(),
            llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
        ) == 0
    }
}

/// The blocks `block` may branch to.
pub fn successors(block: Block<'_>) -> Vec<Block<'_>> {
    let Some(term) = block.terminator() else {
        return Vec::new();
    };
    // SAFETY: a live terminator; indices below its successor count.
    unsafe {
        let n = llvm::LLVMGetNumSuccessors(term.as_raw());
        (0..n)
            .filter_map(|i| Block::from_raw_opt(llvm::LLVMGetSuccessor(term.as_raw(), i)))
            .collect()
    }
}
