//! Attributes of parameters, call sites and functions, read by kind id.

use std::sync::OnceLock;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMAttributeRef;

use super::calls::called_function;
use super::handles::{Type, Value};

/// Attribute names the passes look up per parameter, whose kind ids
/// [`kind`] keeps (the ids are fixed for an LLVM build: the same in every
/// context and thread).
const CACHED: &[&str] = &[
    "align",
    "byref",
    "byval",
    "captures",
    "dead_on_return",
    "dereferenceable",
    "dereferenceable_or_null",
    "inalloca",
    "memory",
    "naked",
    "nest",
    "noalias",
    "nofree",
    "noundef",
    "preallocated",
    "readnone",
    "readonly",
    "sret",
    "swiftasync",
    "swifterror",
    "swiftself",
    "writeonly",
];

/// The kind id of an enum or type attribute by its IR spelling (`byref`,
/// `align`). LLVM's name lookup compares the name with every attribute name
/// in turn; the ids of [`CACHED`] are looked up once per process (a
/// `OnceLock`: safe when rustc runs passes on several threads).
pub fn kind(name: &str) -> u32 {
    static IDS: OnceLock<Vec<u32>> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        CACHED
            .iter()
            .map(|n| Attribute::get_named_enum_kind_id(n))
            .collect()
    });
    let kind = match CACHED.iter().position(|n| *n == name) {
        Some(i) => ids[i],
        None => Attribute::get_named_enum_kind_id(name),
    };
    debug_assert!(kind != 0, "unknown attribute name {name}");
    kind
}

/// The integer of an enum/int attribute; 0 for type attributes (inkwell's
/// getter asserts instead).
fn integer(attr: Attribute) -> u64 {
    if attr.is_type() {
        return 0;
    }
    // SAFETY: a live enum or int attribute carries an integer.
    unsafe { llvm::LLVMGetEnumAttributeValue(attr.as_mut_ptr()) }
}

/// True when parameter `index` carries attribute `name` (enum, int or type).
pub fn has_param(function: FunctionValue<'_>, index: u32, name: &str) -> bool {
    function
        .get_enum_attribute(AttributeLoc::Param(index), kind(name))
        .is_some()
}

/// The value of enum/int attribute `name` on parameter `index`, if present.
pub fn param_value(function: FunctionValue<'_>, index: u32, name: &str) -> Option<u64> {
    function
        .get_enum_attribute(AttributeLoc::Param(index), kind(name))
        .map(integer)
}

/// The type of type attribute `name` (`byref`, `byval`) on parameter
/// `index`; it may be a type inkwell cannot wrap (`target(...)`).
pub fn param_type<'ctx>(
    function: FunctionValue<'ctx>,
    index: u32,
    name: &str,
) -> Option<Type<'ctx>> {
    let attr = function.get_enum_attribute(AttributeLoc::Param(index), kind(name))?;
    if !attr.is_type() {
        return None;
    }
    // SAFETY: a type attribute's value is a live type of the function's context.
    unsafe { Type::from_raw_opt(llvm::LLVMGetTypeAttributeValue(attr.as_mut_ptr())) }
}

/// `align` of parameter `index` in bytes, if written.
pub fn param_align(function: FunctionValue<'_>, index: u32) -> Option<u64> {
    param_value(function, index, "align")
}

/// True when the function has function attribute `name`.
pub fn has_function(function: FunctionValue<'_>, name: &str) -> bool {
    function
        .get_enum_attribute(AttributeLoc::Function, kind(name))
        .is_some()
}

/// The attribute-list index of argument `arg` (LLVM counts parameters from 1).
fn param_index(arg: u32) -> u32 {
    arg + 1
}

/// Attribute `name` at `index` of a call site, else of its direct callee's
/// declaration (where front ends and intrinsics often put theirs).
fn on_call(call: Value<'_>, index: u32, name: &str) -> Option<LLVMAttributeRef> {
    let kind = kind(name);
    // SAFETY: attribute lookups on a live call-like instruction and function.
    unsafe {
        let mut attr = llvm::LLVMGetCallSiteEnumAttribute(call.as_raw(), index, kind);
        if attr.is_null()
            && let Some(callee) = called_function(call)
        {
            attr = llvm::LLVMGetEnumAttributeAtIndex(callee.as_raw(), index, kind);
        }
        (!attr.is_null()).then_some(attr)
    }
}

fn call_value(call: Value<'_>, index: u32, name: &str) -> Option<u64> {
    on_call(call, index, name).map(|attr| {
        // SAFETY: a live attribute; only non-type attributes carry an integer.
        unsafe {
            if llvm::LLVMIsTypeAttribute(attr) != 0 {
                0
            } else {
                llvm::LLVMGetEnumAttributeValue(attr)
            }
        }
    })
}

/// Attribute `name` of argument `arg` of a call (call site or callee): its
/// integer, 0 for flags and type attributes.
pub fn call_param(call: Value<'_>, arg: u32, name: &str) -> Option<u64> {
    call_value(call, param_index(arg), name)
}

/// The type of type attribute `name` (`byval(T)`) on argument `arg` of a
/// call (call site or callee).
pub fn call_param_type<'ctx>(call: Value<'ctx>, arg: u32, name: &str) -> Option<Type<'ctx>> {
    let attr = on_call(call, param_index(arg), name)?;
    // SAFETY: a live attribute of the call's context.
    unsafe {
        if llvm::LLVMIsTypeAttribute(attr) == 0 {
            return None;
        }
        Type::from_raw_opt(llvm::LLVMGetTypeAttributeValue(attr))
    }
}

/// Function attribute `name` of a call (call site or callee).
pub fn call_function(call: Value<'_>, name: &str) -> Option<u64> {
    call_value(call, llvm_sys::LLVMAttributeFunctionIndex, name)
}

/// Adds enum or integer attribute `name` (with integer `value`: bytes for
/// `align` and `dereferenceable`, 0 for flags) to a call site's return
/// value.
pub fn add_call_return(call: Value<'_>, name: &str, value: u64) {
    // SAFETY: an attribute of the call's live context, added to a live call
    // site (LLVMIsACallInst checks the kind first).
    unsafe {
        if llvm::LLVMIsACallInst(call.as_raw()).is_null() {
            return;
        }
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(call.as_raw()));
        let attr = llvm::LLVMCreateEnumAttribute(ctx, kind(name), value);
        llvm::LLVMAddCallSiteAttribute(call.as_raw(), llvm_sys::LLVMAttributeReturnIndex, attr);
    }
}

/// Adds enum or integer attribute `name` (integer `value`, 0 for flags) to
/// parameter `index` of a function.
pub fn add_param(function: FunctionValue<'_>, index: u32, name: &str, value: u64) {
    let attr = function
        .get_type()
        .get_context()
        .create_enum_attribute(kind(name), value);
    function.add_attribute(AttributeLoc::Param(index), attr);
}
