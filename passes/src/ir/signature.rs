//! Changing a function's parameters: [`SignatureRewrite`], shared by the
//! passes that give kernels a new signature (`amdgpu-kernel-abi`,
//! `offload-wrap-kernels`), and the checks that say when that is possible.
//!
//! LLVM cannot change a function's parameter list in place: like LLVM's own
//! ArgumentPromotion, the rewrite creates the new function next to the old
//! one, moves the body over and retargets the uses of each old parameter.

use std::borrow::Cow;
use std::ffi::c_void;
use std::marker::PhantomData;

use inkwell::attributes::Attribute;
use inkwell::builder::Builder;
use inkwell::context::{AsContextRef, ContextRef};
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;

use super::ffi::{self, RawParam};
use super::handles::{Type, Value};
use super::{attributes, calls, naming};

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
    f.user_iter()
        .any(|user| calls::called_value(user) == Some(f))
}

/// Proof that [`check_rewritable`] passed for a function: what
/// [`SignatureRewrite::begin`] takes (consumed: one rewrite per check).
/// Rewriting other functions cannot make it stale: a rewrite only changes
/// its own function and the uses of it.
pub struct Rewritable<'ctx>(FunctionValue<'ctx>);

impl<'ctx> Rewritable<'ctx> {
    pub fn function(&self) -> FunctionValue<'ctx> {
        self.0
    }
}

/// Whether the signature of `function` can change: `Err` says why not.
pub fn check_rewritable(function: FunctionValue<'_>) -> Result<Rewritable<'_>, Unrewritable> {
    if function.get_first_basic_block().is_none() {
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
    if let Some(call) = musttail_call(function) {
        return Err(Unrewritable::MustTail { call: call.text() });
    }
    Ok(Rewritable(function))
}

/// A `musttail` call of the function, if it makes one. The verifier only
/// accepts one right before a `ret` (or before a `bitcast` the `ret`
/// returns), so the instructions before each `ret` are all there is to
/// look at: the rest of the body is never walked.
fn musttail_call(function: FunctionValue<'_>) -> Option<Value<'_>> {
    let is_musttail = |value: Value<'_>| {
        // SAFETY: LLVMGetTailCallKind reads a flag of a live call.
        value.opcode() == Some(llvm_sys::LLVMOpcode::LLVMCall)
            && unsafe { llvm::LLVMGetTailCallKind(value.as_raw()) }
                == llvm_sys::LLVMTailCallKind::LLVMTailCallKindMustTail
    };
    let mut block = function.get_first_basic_block();
    while let Some(b) = block {
        block = b.get_next_basic_block();
        let Some(ret) = crate::ir::Block::from(b).terminator() else {
            continue;
        };
        if ret.opcode() != Some(llvm_sys::LLVMOpcode::LLVMRet) {
            continue;
        }
        let mut before = ret.previous_instruction();
        if let Some(cast) = before
            && cast.opcode() == Some(llvm_sys::LLVMOpcode::LLVMBitCast)
        {
            before = cast.previous_instruction();
        }
        if let Some(call) = before.filter(|&v| is_musttail(v)) {
            return Some(call);
        }
    }
    None
}

/// A set of parameter attributes, made once and given to any number of
/// new parameters: building a set sorts and uniques its attributes, which
/// costs more than the rest of a parameter's rewrite. It lives as long as
/// its context (LLVM uniques sets there).
#[derive(Clone, Copy)]
pub struct ParamAttributeSet<'ctx> {
    raw: *mut c_void,
    _context: PhantomData<&'ctx ()>,
}

impl<'ctx> ParamAttributeSet<'ctx> {
    pub fn new(context: ContextRef<'ctx>, attributes: &[Attribute]) -> Self {
        // SAFETY: the attributes belong to the live context (inkwell's
        // Attribute is a transparent LLVMAttributeRef); the array is read
        // during the call only.
        let raw = unsafe {
            ffi::offload_ir_param_attribute_set(
                context.as_ctx_ref(),
                attributes.as_ptr().cast(),
                attributes.len() as u32,
            )
        };
        ParamAttributeSet {
            raw,
            _context: PhantomData,
        }
    }
}

/// Where a new parameter's attributes come from.
#[derive(Clone, Copy)]
pub enum ParamAttributes<'ctx> {
    /// None.
    None,
    /// Those of old parameter `index` (same type, same contract).
    Of(u32),
    Set(ParamAttributeSet<'ctx>),
}

/// What a new parameter is called.
#[derive(Clone)]
pub enum ParamName<'a> {
    /// The name of old parameter `index` (read and set in C++, without
    /// a Rust string).
    Of(u32),
    /// This name (empty: unnamed).
    Text(Cow<'a, str>),
}

/// One parameter of the new signature.
#[derive(Clone)]
pub struct NewParam<'ctx, 'a> {
    pub ty: Type<'ctx>,
    pub attributes: ParamAttributes<'ctx>,
    pub name: ParamName<'a>,
}

/// A function being given new parameters.
///
/// [`SignatureRewrite::begin`] creates the new function in the old one's
/// place with everything but the parameters copied, gives the parameters
/// their attributes and names (see `llvm_ext.cpp`), and moves the body
/// over. The caller then builds, at the top of the entry block
/// ([`super::builder::entry_builder`] of [`SignatureRewrite::new`]), a
/// replacement for each old parameter and calls
/// [`SignatureRewrite::replace_param`]; [`SignatureRewrite::finish`]
/// redirects other uses of the old function (`llvm.used`, aliases) and
/// erases it.
pub struct SignatureRewrite<'ctx> {
    pub old: FunctionValue<'ctx>,
    pub new: FunctionValue<'ctx>,
}

impl<'ctx> SignatureRewrite<'ctx> {
    /// `Err` is an internal error (LLVM refused the signature).
    pub fn begin(old: Rewritable<'ctx>, params: &[NewParam<'ctx, '_>]) -> Result<Self, String> {
        let old = old.0;
        let mut types: Vec<llvm_sys::prelude::LLVMTypeRef> =
            params.iter().map(|p| p.ty.as_raw()).collect();
        let index = |i: u32| i32::try_from(i).unwrap_or(i32::MAX);
        let raw: Vec<RawParam> = params
            .iter()
            .map(|p| {
                let (attrs_of, attr_set) = match p.attributes {
                    ParamAttributes::None => (-1, std::ptr::null_mut()),
                    ParamAttributes::Of(i) => (index(i), std::ptr::null_mut()),
                    ParamAttributes::Set(set) => (-1, set.raw),
                };
                let (name_of, name): (i32, &str) = match &p.name {
                    ParamName::Of(i) => (index(*i), ""),
                    ParamName::Text(text) => (-1, text),
                };
                RawParam {
                    attrs_of,
                    attr_set,
                    name_of,
                    name: name.as_ptr().cast(),
                    name_len: name.len(),
                }
            })
            .collect();
        // SAFETY: `old` is a live defined function of a module; the types
        // and attribute sets belong to its context; `raw` holds
        // `params.len()` entries whose names outlive the call.
        let new = unsafe {
            let ret = llvm::LLVMGetReturnType(Type::from(old.get_type()).as_raw());
            let fn_type = llvm::LLVMFunctionType(ret, types.as_mut_ptr(), types.len() as u32, 0);
            ffi::offload_ir_replace_function(
                Value::from(old).as_raw(),
                fn_type,
                raw.as_ptr(),
                raw.len() as u32,
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
    pub fn replace_param(&self, index: u32, value: impl Into<Value<'ctx>>) {
        self.old_param(index).replace_all_uses_with(value.into());
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
