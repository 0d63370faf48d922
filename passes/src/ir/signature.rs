//! Changing a function's parameters: [`SignatureRewrite`], shared by the
//! passes that give kernels a new signature (`amdgpu-kernel-abi`,
//! `offload-wrap-kernels`), and the checks that say when that is possible.
//!
//! LLVM cannot change a function's parameter list in place: like LLVM's own
//! ArgumentPromotion, the rewrite creates the new function next to the old
//! one, moves the body over and retargets the uses of each old parameter.

use inkwell::attributes::Attribute;
use inkwell::builder::Builder;
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMAttributeRef, LLVMTypeRef, LLVMValueRef};

use super::handles::{Type, Value};
use super::{attributes, calls, naming};

unsafe extern "C" {
    /// In `llvm_ext.cpp`.
    fn offload_ir_replace_function(
        old: LLVMValueRef,
        fn_type: LLVMTypeRef,
        attrs: *const LLVMAttributeRef,
        counts: *const u32,
        num_params: u32,
    ) -> LLVMValueRef;
}

/// Why a function's signature cannot change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unrewritable {
    /// No body: nothing to rewrite.
    Declaration,
    /// Called from IR: the call would no longer match.
    CalledFromIr,
    /// Variadic: `va_start` needs the variadic signature.
    Variadic,
    /// `naked`: the body may not use parameters, and the rewrite must.
    Naked,
    /// A `musttail` call must pass the caller's parameters unchanged.
    MustTail { call: String },
}

impl std::fmt::Display for Unrewritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unrewritable::Declaration => write!(f, "is a declaration; it has no body to rewrite"),
            Unrewritable::CalledFromIr => write!(
                f,
                "is called from IR; a kernel's signature can only change when the runtime alone launches it"
            ),
            Unrewritable::Variadic => {
                write!(f, "is variadic; a launch passes a fixed argument list")
            }
            Unrewritable::Naked => write!(
                f,
                "is 'naked': its body cannot use parameters, so its signature cannot change"
            ),
            Unrewritable::MustTail { call } => write!(
                f,
                "makes a musttail call, which must keep the kernel's signature: `{call}`"
            ),
        }
    }
}

/// True if `function` is the callee of a call, invoke or callbr anywhere.
pub fn has_call_uses(function: FunctionValue<'_>) -> bool {
    let f = Value::from(function);
    f.users()
        .into_iter()
        .any(|user| calls::called_value(user) == Some(f))
}

/// Whether the signature of `function` can change: `Err` says why not.
pub fn check_rewritable(function: FunctionValue<'_>) -> Result<(), Unrewritable> {
    if function.count_basic_blocks() == 0 {
        return Err(Unrewritable::Declaration);
    }
    if has_call_uses(function) {
        return Err(Unrewritable::CalledFromIr);
    }
    if function.get_type().is_var_arg() {
        return Err(Unrewritable::Variadic);
    }
    if attributes::has_function(function, "naked") {
        return Err(Unrewritable::Naked);
    }
    for block in function.get_basic_blocks() {
        for inst in block.get_instructions() {
            let value = Value::from(inst);
            // SAFETY: LLVMIsMustTailCall reads a flag of a live call.
            let must_tail = value.opcode() == Some(llvm_sys::LLVMOpcode::LLVMCall)
                && unsafe { llvm::LLVMGetTailCallKind(value.as_raw()) }
                    == llvm_sys::LLVMTailCallKind::LLVMTailCallKindMustTail;
            if must_tail {
                return Err(Unrewritable::MustTail { call: value.text() });
            }
        }
    }
    Ok(())
}

/// One parameter of the new signature.
#[derive(Clone)]
pub struct NewParam<'ctx> {
    pub ty: Type<'ctx>,
    pub attributes: Vec<Attribute>,
    pub name: String,
}

/// A function being given new parameters.
///
/// [`SignatureRewrite::begin`] creates the new function in the old one's
/// place with everything but the parameters copied (see `llvm_ext.cpp`),
/// and moves the body over. The caller then builds, at the top of the entry
/// block ([`super::builder::entry_builder`] of [`SignatureRewrite::new`]), a
/// replacement for each old parameter and calls
/// [`SignatureRewrite::replace_param`]; [`SignatureRewrite::finish`]
/// redirects other uses of the old function (`llvm.used`, aliases) and
/// erases it.
pub struct SignatureRewrite<'ctx> {
    pub old: FunctionValue<'ctx>,
    pub new: FunctionValue<'ctx>,
}

impl<'ctx> SignatureRewrite<'ctx> {
    /// Needs [`check_rewritable`] to have passed; `Err` is an internal error.
    pub fn begin(old: FunctionValue<'ctx>, params: &[NewParam<'ctx>]) -> Result<Self, String> {
        check_rewritable(old).map_err(|why| {
            format!(
                "internal error: rewriting '{}', which {why}",
                naming::name_of(old)
            )
        })?;
        let types: Vec<Type<'ctx>> = params.iter().map(|p| p.ty).collect();
        let fn_type = super::types::with_params(old, &types);
        let attrs: Vec<LLVMAttributeRef> = params
            .iter()
            .flat_map(|p| p.attributes.iter().map(|a| a.as_mut_ptr()))
            .collect();
        let counts: Vec<u32> = params.iter().map(|p| p.attributes.len() as u32).collect();
        // SAFETY: `old` is a live defined function of a module, the type and
        // attributes belong to its context, and the arrays hold
        // `params.len()` counts and their sum of attributes.
        let new = unsafe {
            offload_ir_replace_function(
                Value::from(old).as_raw(),
                Type::from(fn_type).as_raw(),
                attrs.as_ptr(),
                counts.as_ptr(),
                params.len() as u32,
            )
        };
        // SAFETY: a non-null result is the new function, live in the module.
        let new = unsafe { Value::from_raw_opt(new) }
            .and_then(Value::as_function)
            .ok_or_else(|| {
                format!(
                    "internal error: LLVM refused the new signature of '{}'",
                    naming::name_of(old)
                )
            })?;
        for (index, param) in params.iter().enumerate() {
            if let Some(value) = naming::param(new, index as u32) {
                value.set_name(&param.name);
            }
        }
        Ok(SignatureRewrite { old, new })
    }

    /// A builder at the top of the new entry block.
    pub fn entry_builder(&self) -> Builder<'ctx> {
        super::builder::entry_builder(self.new)
    }

    /// Parameter `index` of the new function.
    pub fn new_param(&self, index: u32) -> Value<'ctx> {
        naming::param(self.new, index).expect("the new function has the planned parameters")
    }

    /// Parameter `index` of the old function.
    pub fn old_param(&self, index: u32) -> Value<'ctx> {
        naming::param(self.old, index).expect("the old function has its parameters")
    }

    /// Makes every use of old parameter `index` use `value` (same type).
    pub fn replace_param(&self, index: u32, value: Value<'ctx>) {
        self.old_param(index).replace_all_uses_with(value);
    }

    /// Gives the new function the old one's uses, and erases the old one.
    /// An old parameter the caller left in use is an internal error (the
    /// use gets `poison` so that erasing the old function stays sound, but
    /// the module is reported, never silently changed in meaning).
    pub fn finish(self) -> Result<FunctionValue<'ctx>, String> {
        let mut left = Vec::new();
        for index in 0..self.old.count_params() {
            let param = self.old_param(index);
            if param.has_uses() {
                left.push(format!("#{index}"));
                // SAFETY: poison of the parameter's own type.
                let poison = unsafe { Value::from_raw(llvm::LLVMGetPoison(param.ty().as_raw())) };
                param.replace_all_uses_with(poison);
            }
        }
        Value::from(self.old).replace_all_uses_with(Value::from(self.new));
        // SAFETY: the old function has no body, no name and no uses left.
        unsafe { llvm::LLVMDeleteFunction(Value::from(self.old).as_raw()) };
        if left.is_empty() {
            Ok(self.new)
        } else {
            Err(format!(
                "internal error: kernel '{}': uses of old parameter {} were not retargeted",
                naming::name_of(self.new),
                left.join(", ")
            ))
        }
    }
}
