//! Erasing instructions and declarations. Like inkwell's, a handle of an
//! erased object is stale: callers never use one after erasing it.

use llvm_sys::core as llvm;

use super::handles::Value;

/// Erases instruction `inst`, which has no uses left.
pub fn erase_instruction(inst: Value<'_>) {
    assert!(
        inst.is_instruction(),
        "only an instruction can be erased from its block"
    );
    // SAFETY: a live instruction; its uses are gone (the caller's contract;
    // LLVM asserts it in debug builds).
    unsafe { llvm::LLVMInstructionEraseFromParent(inst.as_raw()) }
}

/// Erases instructions that may use each other (cycles of phis included):
/// first every use of them becomes `poison`, then they go. Only for
/// instructions whose real uses were all retargeted (what is left is the
/// dead chain itself).
pub fn erase_instructions(insts: &[Value<'_>]) {
    for &inst in insts {
        // SAFETY: a live value; poison of its own type replaces its uses.
        unsafe {
            llvm::LLVMReplaceAllUsesWith(inst.as_raw(), llvm::LLVMGetPoison(inst.ty().as_raw()))
        }
    }
    for &inst in insts {
        erase_instruction(inst);
    }
}

/// Deletes function declaration `function` if nothing uses it any more (an
/// intrinsic overload left behind by a rebuilt call).
pub fn delete_if_unused_declaration(function: Value<'_>) {
    if !function.is_function() || function.has_uses() {
        return;
    }
    // SAFETY: `function` is a live function without uses; it is deleted
    // only when it has no body.
    unsafe {
        if llvm::LLVMCountBasicBlocks(function.as_raw()) == 0 {
            llvm::LLVMDeleteFunction(function.as_raw());
        }
    }
}

/// Deletes global variable `global` if nothing uses it any more and no
/// other module can (internal or private linkage): a marker left behind
/// once its uses were rewritten.
pub fn delete_if_unused_local_global(global: Value<'_>) {
    let Some(variable) = global.as_global_variable() else {
        return;
    };
    let local = matches!(
        variable.get_linkage(),
        inkwell::module::Linkage::Internal | inkwell::module::Linkage::Private
    );
    if !local || global.has_uses() {
        return;
    }
    // SAFETY: `global` is a live global variable without uses that no other
    // module references; nothing refers to it after this.
    unsafe { llvm::LLVMDeleteGlobal(global.as_raw()) }
}

/// Deletes function `function` (its body too), which nothing uses.
pub fn erase_function(function: inkwell::values::FunctionValue<'_>) {
    let value = Value::from(function);
    assert!(!value.has_uses(), "only an unused function can be deleted");
    // SAFETY: a live function without uses (checked above); the caller
    // drops every handle into it.
    unsafe { llvm::LLVMDeleteFunction(value.as_raw()) }
}
