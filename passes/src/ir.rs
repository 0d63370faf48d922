//! IR helpers shared by the passes, and every raw `llvm-sys` call they need,
//! so the passes read as IR transformations, not FFI. In order: kernel
//! discovery and parameter attributes; metadata access; signature surgery
//! ([`SignatureRewrite`]: new function, moved body, copied properties);
//! def-use walks, operands and a raw instruction builder (`RawBuilder`) for
//! rebuilding pointer chains in another address space; call-site and callee
//! attributes; constants (reading their bytes, byte arrays, `llvm.global_ctors`
//! and `llvm.compiler.used`, module flags). inkwell 0.11 wraps none of these
//! (or panics on types it cannot wrap, such as `target(...)`).
//!
//! Helpers that take raw handles (`LLVMValueRef`, `LLVMTypeRef`,
//! `LLVMMetadataRef`) are safe functions with one contract, the same one
//! inkwell's value handles rely on: the handle comes from a live object of the
//! module being transformed. Hence the module-wide allow below.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::CStr;
use std::sync::OnceLock;

use inkwell::AddressSpace;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::{AnyTypeEnum, AsTypeRef, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicValueEnum, FunctionValue, InstructionValue};
use llvm_sys::LLVMTypeKind;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMContextRef, LLVMMetadataRef, LLVMTypeRef, LLVMValueRef};

/// `CallingConv::AMDGPU_KERNEL`.
pub const AMDGPU_KERNEL_CC: u32 = 91;
/// `CallingConv::PTX_Kernel`.
pub const PTX_KERNEL_CC: u32 = 71;
/// The AMDGPU constant address space, where kernel arguments live.
pub const AMDGPU_CONSTANT_AS: u32 = 4;
/// The AMDGPU private (stack) address space.
pub const AMDGPU_PRIVATE_AS: u32 = 5;

/// Defined `amdgpu_kernel` functions of `module`, in module order.
pub fn amdgpu_kernels<'ctx>(module: &Module<'ctx>) -> Vec<FunctionValue<'ctx>> {
    module
        .get_functions()
        .filter(|f| f.get_call_conventions() == AMDGPU_KERNEL_CC && f.count_basic_blocks() > 0)
        .collect()
}

/// The function's name as text (for messages and logs).
pub fn name_of(function: FunctionValue<'_>) -> String {
    function.get_name().to_string_lossy().into_owned()
}

/// Attribute names the passes look up per parameter, whose kind ids
/// [`attr_kind`] keeps (the ids are fixed for an LLVM build: the same in
/// every context and thread).
const CACHED_ATTRS: &[&str] = &[
    "align",
    "byref",
    "byval",
    "captures",
    "dead_on_return",
    "dereferenceable",
    "inalloca",
    "memory",
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

/// The kind id of an enum or type attribute by its IR spelling (`byref`, `align`).
///
/// LLVM's name lookup (`getAttrKindFromName`) compares the name with every
/// attribute name in turn; the passes ask for a handful of names per
/// parameter, so the ids of [`CACHED_ATTRS`] are looked up once per process
/// (a `OnceLock`: safe when rustc runs passes on several threads).
pub fn attr_kind(name: &str) -> u32 {
    static IDS: OnceLock<Vec<u32>> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        CACHED_ATTRS
            .iter()
            .map(|n| Attribute::get_named_enum_kind_id(n))
            .collect()
    });
    let kind = match CACHED_ATTRS.iter().position(|n| *n == name) {
        Some(i) => ids[i],
        None => Attribute::get_named_enum_kind_id(name),
    };
    debug_assert!(kind != 0, "unknown attribute name {name}");
    kind
}

/// True when parameter `index` carries attribute `name` (enum, int or type).
pub fn has_param_attr(function: FunctionValue<'_>, index: u32, name: &str) -> bool {
    function
        .get_enum_attribute(AttributeLoc::Param(index), attr_kind(name))
        .is_some()
}

/// The value of enum attribute `name` on parameter `index`, if present.
pub fn param_enum_attr(function: FunctionValue<'_>, index: u32, name: &str) -> Option<u64> {
    function
        .get_enum_attribute(AttributeLoc::Param(index), attr_kind(name))
        // SAFETY: reads the integer of a live attribute; type attributes
        // (`byref`) have none and read as 0 (inkwell's getter asserts instead).
        .map(|a| {
            if a.is_type() {
                0
            } else {
                unsafe { llvm::LLVMGetEnumAttributeValue(a.as_mut_ptr()) }
            }
        })
}

/// The type of type attribute `name` (`byref`, `byval`, ...) on parameter
/// `index`, as a raw handle: it may be a type inkwell cannot wrap
/// (`target(...)`); see [`fixed_size_type`].
pub fn param_type_attr(function: FunctionValue<'_>, index: u32, name: &str) -> Option<LLVMTypeRef> {
    function
        .get_enum_attribute(AttributeLoc::Param(index), attr_kind(name))
        // SAFETY: a type attribute's value is a type of the function's context.
        .map(|a| unsafe { llvm::LLVMGetTypeAttributeValue(a.as_mut_ptr()) })
}

/// `ty` as an inkwell type if it has a fixed size (see [`has_fixed_size`]).
pub fn fixed_size_type<'ctx>(ty: LLVMTypeRef) -> Option<BasicTypeEnum<'ctx>> {
    // SAFETY: a live type; fixed-size types are of kinds BasicTypeEnum wraps.
    fixed_size_raw(ty).then(|| unsafe { BasicTypeEnum::new(ty) })
}

/// `align` of parameter `index` in bytes, if written.
pub fn param_align(function: FunctionValue<'_>, index: u32) -> Option<u64> {
    param_enum_attr(function, index, "align")
}

/// The module's data layout as a `TargetData` (sizes and ABI alignments).
pub fn target_data(module: &Module<'_>) -> TargetData {
    let layout = module.get_data_layout();
    TargetData::create(layout.as_str().to_str().unwrap_or(""))
}

/// True for struct and array types (first-class aggregates).
pub fn is_aggregate(ty: BasicTypeEnum<'_>) -> bool {
    matches!(
        ty,
        BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_)
    )
}

/// The single scalar, vector or pointer an aggregate wraps (recursively), with
/// the index path to reach it; `None` when it holds anything else. Mirrors
/// clang's single-element-struct rule: the element must fill the aggregate.
pub fn single_element<'ctx>(
    ty: BasicTypeEnum<'ctx>,
    layout: &TargetData,
) -> Option<(BasicTypeEnum<'ctx>, Vec<u32>)> {
    let mut path = Vec::new();
    let mut inner = ty;
    loop {
        inner = match inner {
            BasicTypeEnum::StructType(s) if s.count_fields() == 1 => {
                s.get_field_type_at_index(0)?
            }
            BasicTypeEnum::ArrayType(a) if a.len() == 1 => a.get_element_type(),
            BasicTypeEnum::StructType(_) | BasicTypeEnum::ArrayType(_) => return None,
            _ => break,
        };
        path.push(0);
    }
    (layout.get_abi_size(&inner) == layout.get_abi_size(&ty)).then_some((inner, path))
}

/// Replaces every use of `old` (instructions, constants, metadata) with `new`.
pub fn replace_all_uses(old: impl AsValueRef, new: impl AsValueRef) {
    // SAFETY: both are live values of the same type in one context.
    unsafe { llvm::LLVMReplaceAllUsesWith(old.as_value_ref(), new.as_value_ref()) }
}

/// Every metadata attachment of a global or function: (kind id, node).
pub fn global_metadata(global: impl AsValueRef) -> Vec<(u32, LLVMMetadataRef)> {
    // SAFETY: the entries array is owned by us and disposed after copying out.
    unsafe {
        let mut count = 0usize;
        let entries = llvm::LLVMGlobalCopyAllMetadata(global.as_value_ref(), &mut count);
        let out = (0..count as u32)
            .map(|i| {
                (
                    llvm::LLVMValueMetadataEntriesGetKind(entries, i),
                    llvm::LLVMValueMetadataEntriesGetMetadata(entries, i),
                )
            })
            .collect();
        if !entries.is_null() {
            llvm::LLVMDisposeValueMetadataEntries(entries);
        }
        out
    }
}

/// The raw context of a module.
pub fn context_ref(module: &Module<'_>) -> LLVMContextRef {
    // SAFETY: the module is live.
    unsafe { llvm::LLVMGetModuleContext(module.as_mut_ptr()) }
}

/// The metadata kind id for `name` in the module's context.
pub fn md_kind(module: &Module<'_>, name: &str) -> u32 {
    // SAFETY: the context is live; the name is passed with its length.
    unsafe {
        llvm::LLVMGetMDKindIDInContext(context_ref(module), name.as_ptr().cast(), name.len() as u32)
    }
}

/// The attachment of kind `kind` on a function, if any.
pub fn function_metadata(function: FunctionValue<'_>, kind: u32) -> Option<LLVMMetadataRef> {
    global_metadata(function)
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, md)| md)
}

/// Operands of an MDNode as metadata (null entries for null operands).
pub fn md_operands(module: &Module<'_>, node: LLVMMetadataRef) -> Vec<LLVMMetadataRef> {
    md_operand_values(module, node)
        .into_iter()
        // SAFETY: each operand is a live value or null.
        .map(|v| {
            if v.is_null() {
                std::ptr::null_mut()
            } else {
                unsafe { llvm::LLVMValueAsMetadata(v) }
            }
        })
        .collect()
}

/// Prints a type as IR text (for messages and logs).
pub fn type_text(ty: impl AsTypeRef) -> String {
    type_text_raw(ty.as_type_ref())
}

/// [`type_text`] for a raw type.
pub fn type_text_raw(ty: LLVMTypeRef) -> String {
    // SAFETY: LLVMPrintTypeToString returns an owned C string we free; a
    // named struct's name is owned by the type.
    unsafe {
        // A named struct prints as its whole definition (`%S = type {...}`).
        if llvm::LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMStructTypeKind {
            let name = llvm::LLVMGetStructName(ty);
            if !name.is_null() {
                return format!("%{}", CStr::from_ptr(name).to_string_lossy());
            }
        }
        let raw = llvm::LLVMPrintTypeToString(ty);
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        llvm::LLVMDisposeMessage(raw);
        text
    }
}

/// The text of an instruction's or value's name (empty when unnamed).
pub fn value_name(value: impl AsValueRef) -> String {
    raw_value_name(value.as_value_ref())
}

/// [`value_name`] for a raw value.
pub fn raw_value_name(value: LLVMValueRef) -> String {
    // SAFETY: the returned pointer is valid for `len` bytes while the value lives.
    unsafe {
        let mut len = 0usize;
        let ptr = llvm::LLVMGetValueName2(value, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(ptr.cast::<u8>(), len)).into_owned()
    }
}

/// Renames a value (an empty name makes it unnamed).
pub fn set_value_name(value: impl AsValueRef, name: &str) {
    set_raw_value_name(value.as_value_ref(), name)
}

/// [`set_value_name`] for a raw value.
pub fn set_raw_value_name(value: LLVMValueRef, name: &str) {
    // SAFETY: the name is passed with its length.
    unsafe { llvm::LLVMSetValueName2(value, name.as_ptr().cast(), name.len()) }
}

/// True if `function` is the callee of a call or invoke anywhere (kernels are
/// launched by the runtime, never called from IR).
pub fn has_call_uses(function: FunctionValue<'_>) -> bool {
    let f = function.as_value_ref();
    // SAFETY: walks the use list of a live function.
    unsafe {
        let mut use_ = llvm::LLVMGetFirstUse(f);
        while !use_.is_null() {
            let user = llvm::LLVMGetUser(use_);
            let is_call = !llvm::LLVMIsACallInst(user).is_null()
                || !llvm::LLVMIsAInvokeInst(user).is_null()
                || !llvm::LLVMIsACallBrInst(user).is_null();
            if is_call && llvm::LLVMGetCalledValue(user) == f {
                return true;
            }
            use_ = llvm::LLVMGetNextUse(use_);
        }
    }
    false
}

/// `function`'s type with parameters `params` instead: same return type
/// (read raw: inkwell panics on return types it cannot wrap, `target(...)`),
/// not variadic.
pub fn with_params<'ctx>(
    function: FunctionValue<'ctx>,
    params: &[inkwell::types::BasicMetadataTypeEnum<'ctx>],
) -> inkwell::types::FunctionType<'ctx> {
    let mut raw: Vec<LLVMTypeRef> = params.iter().map(|p| p.as_type_ref()).collect();
    // SAFETY: the return type and parameter types are live types of one context.
    unsafe {
        let ret = llvm::LLVMGetReturnType(function.get_type().as_type_ref());
        inkwell::types::FunctionType::new(llvm::LLVMFunctionType(
            ret,
            raw.as_mut_ptr(),
            raw.len() as u32,
            0,
        ))
    }
}

/// The error for a kernel whose signature must change but that IR calls.
pub fn called_kernel_error(kernel: FunctionValue<'_>) -> String {
    format!(
        "kernel '{}' is called from IR; a kernel's signature can only change when the runtime alone launches it",
        name_of(kernel)
    )
}

/// Signature surgery shared by the passes that change a kernel's parameters
/// (`amdgpu-kernel-abi`, `offload-wrap-kernels`).
///
/// [`SignatureRewrite::begin`] creates a function with the new parameter types
/// and the old one's calling convention, linkage, visibility, DLL storage,
/// unnamed_addr, section, alignment, comdat, GC, personality, function and
/// return attributes and every metadata attachment (`!dbg` included), and
/// moves the body into it. The caller then builds, at the top of the entry
/// block, a replacement for each old parameter and calls
/// [`SignatureRewrite::replace_param`]; [`SignatureRewrite::finish`]
/// redirects other uses of the old function (`llvm.used`, aliases) and
/// erases it. The new function has the old one's name from `begin` on; the
/// old one is unnamed in between.
pub struct SignatureRewrite<'ctx> {
    pub old: FunctionValue<'ctx>,
    pub new: FunctionValue<'ctx>,
}

impl<'ctx> SignatureRewrite<'ctx> {
    /// Fails when the function is called from IR (changing its type would
    /// break the call) or has no body.
    pub fn begin(
        module: &Module<'ctx>,
        old: FunctionValue<'ctx>,
        new_type: inkwell::types::FunctionType<'ctx>,
    ) -> Result<Self, String> {
        let name = name_of(old);
        if old.count_basic_blocks() == 0 {
            return Err(format!(
                "kernel '{name}' is a declaration; it has no body to rewrite"
            ));
        }
        if has_call_uses(old) {
            return Err(called_kernel_error(old));
        }
        // The new function takes the name right away (the old one goes
        // unnamed until it is erased): one symbol-table rename per kernel
        // instead of a temporary `name.offload.new` renamed twice in finish().
        set_value_name(old, "");
        let new = module.add_function(&name, new_type, Some(old.get_linkage()));
        copy_function_properties(old, new);
        for block in old.get_basic_blocks() {
            // SAFETY: the block moves from one live function to another of the module.
            unsafe {
                llvm::LLVMRemoveBasicBlockFromParent(block.as_mut_ptr());
                llvm::LLVMAppendExistingBasicBlock(new.as_value_ref(), block.as_mut_ptr());
            }
        }
        Ok(SignatureRewrite { old, new })
    }

    /// A builder at the top of the new entry block (see [`entry_builder`]),
    /// where parameter replacements go.
    pub fn entry_builder(&self) -> inkwell::builder::Builder<'ctx> {
        entry_builder(self.new)
    }

    /// Makes every use of old parameter `index` use `value` (same type).
    pub fn replace_param(&self, index: u32, value: impl AsValueRef) {
        let old = self.old.get_nth_param(index).expect("old parameter exists");
        replace_all_uses(old, value);
    }

    /// Copies the attributes of old parameter `old_index` to new parameter `new_index`.
    pub fn copy_param_attributes(&self, old_index: u32, new_index: u32) {
        for attr in self.old.attributes(AttributeLoc::Param(old_index)) {
            self.new.add_attribute(AttributeLoc::Param(new_index), attr);
        }
        let old = self
            .old
            .get_nth_param(old_index)
            .expect("old parameter exists");
        let new = self
            .new
            .get_nth_param(new_index)
            .expect("new parameter exists");
        set_value_name(new, &value_name(old));
    }

    /// Gives the new function the old one's uses, and erases the old one.
    pub fn finish(self) -> FunctionValue<'ctx> {
        replace_all_uses(self.old, self.new);
        // SAFETY: the old function has no body and no uses left.
        unsafe { llvm::LLVMDeleteFunction(self.old.as_value_ref()) };
        self.new
    }
}

fn copy_function_properties(old: FunctionValue<'_>, new: FunctionValue<'_>) {
    new.set_call_conventions(old.get_call_conventions());
    for loc in [AttributeLoc::Function, AttributeLoc::Return] {
        for attr in old.attributes(loc) {
            new.add_attribute(loc, attr);
        }
    }
    let (o, n) = (old.as_global_value(), new.as_global_value());
    n.set_visibility(o.get_visibility());
    n.set_dll_storage_class(o.get_dll_storage_class());
    n.set_unnamed_address(o.get_unnamed_address());
    n.set_alignment(o.get_alignment());
    if let Some(section) = o.get_section() {
        n.set_section(Some(&section.to_string_lossy()));
    }
    if let Some(comdat) = o.get_comdat() {
        n.set_comdat(comdat);
    }
    if let Some(personality) = old.get_personality_function() {
        new.set_personality_function(personality);
    }
    // SAFETY: LLVMGetGC returns null when the function has no collector
    // (inkwell's get_gc does not allow for that).
    unsafe {
        let gc = llvm::LLVMGetGC(old.as_value_ref());
        if !gc.is_null() {
            llvm::LLVMSetGC(new.as_value_ref(), gc);
        }
    }
    for (kind, md) in global_metadata(old) {
        // SAFETY: both functions live in one context; the node is shared.
        unsafe { llvm::LLVMGlobalSetMetadata(new.as_value_ref(), kind, md) };
    }
}

// ---------------------------------------------------------------------------
// Instruction-level helpers on raw values. `byref-callee-copy` walks pointer
// def-use chains operand by operand and rebuilds them in another address
// space; inkwell 0.11 wraps neither use walks with operand numbers, nor GEP
// no-wrap flags, nor call-site attribute queries, nor intrinsic declarations
// by overload types.

/// The type of any value.
pub fn type_of(value: LLVMValueRef) -> LLVMTypeRef {
    // SAFETY: the value is live.
    unsafe { llvm::LLVMTypeOf(value) }
}

/// The address space of a scalar pointer type; `None` for anything else
/// (vectors of pointers included).
pub fn pointer_address_space(ty: LLVMTypeRef) -> Option<u32> {
    // SAFETY: the type is live.
    unsafe {
        (llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind)
            .then(|| llvm::LLVMGetPointerAddressSpace(ty))
    }
}

/// `ptr addrspace(address_space)` in the module's context.
pub fn pointer_type(module: &Module<'_>, address_space: u32) -> LLVMTypeRef {
    // SAFETY: the context is live.
    unsafe { llvm::LLVMPointerTypeInContext(context_ref(module), address_space) }
}

/// The address space of `alloca`s from the data layout's `A<n>` item (0 when absent).
pub fn alloca_address_space(module: &Module<'_>) -> u32 {
    let layout = module.get_data_layout();
    let text = layout.as_str().to_string_lossy().into_owned();
    text.split('-')
        .filter_map(|item| item.strip_prefix('A'))
        .find_map(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The opcode of an instruction; `None` for arguments, constants and others.
pub fn instruction_opcode(value: LLVMValueRef) -> Option<llvm_sys::LLVMOpcode> {
    // SAFETY: the value is live.
    unsafe {
        (!llvm::LLVMIsAInstruction(value).is_null()).then(|| llvm::LLVMGetInstructionOpcode(value))
    }
}

/// Operand `index` of a user.
pub fn operand(user: LLVMValueRef, index: u32) -> LLVMValueRef {
    // SAFETY: callers pass an index below `operand_count`.
    unsafe { llvm::LLVMGetOperand(user, index) }
}

/// The number of operands of a user (for calls: arguments, bundle operands, callee).
pub fn operand_count(user: LLVMValueRef) -> u32 {
    // SAFETY: the value is live.
    unsafe { llvm::LLVMGetNumOperands(user).max(0) as u32 }
}

/// Sets operand `index` of a user (no type check: callers keep types valid).
pub fn set_operand(user: LLVMValueRef, index: u32, value: LLVMValueRef) {
    // SAFETY: both are live; the caller keeps the IR well typed.
    unsafe { llvm::LLVMSetOperand(user, index, value) }
}

/// The distinct users of `value`, in use-list order.
pub fn users(value: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out: Vec<LLVMValueRef> = Vec::new();
    // SAFETY: walks the use list of a live value.
    unsafe {
        let mut use_ = llvm::LLVMGetFirstUse(value);
        while !use_.is_null() {
            let user = llvm::LLVMGetUser(use_);
            if !out.contains(&user) {
                out.push(user);
            }
            use_ = llvm::LLVMGetNextUse(use_);
        }
    }
    out
}

/// The operand numbers at which `user` uses `value` (`store ptr %p, ptr %p` has two).
pub fn operand_indices(user: LLVMValueRef, value: LLVMValueRef) -> Vec<u32> {
    (0..operand_count(user))
        .filter(|&i| operand(user, i) == value)
        .collect()
}

/// A value printed as IR text, trimmed (for messages and logs).
pub fn value_text(value: LLVMValueRef) -> String {
    // SAFETY: LLVMPrintValueToString returns an owned C string we free.
    unsafe {
        let raw = llvm::LLVMPrintValueToString(value);
        let text = CStr::from_ptr(raw).to_string_lossy().trim().to_owned();
        llvm::LLVMDisposeMessage(raw);
        text
    }
}

/// The number of argument operands of a call, invoke or callbr (bundle
/// operands and the callee come after them).
pub fn call_arg_count(call: LLVMValueRef) -> u32 {
    // SAFETY: the caller passes a call-like instruction.
    unsafe { llvm::LLVMGetNumArgOperands(call) }
}

/// The operand number of a call's callee (always the last operand).
pub fn callee_operand_index(call: LLVMValueRef) -> u32 {
    operand_count(call).saturating_sub(1)
}

/// The function a `call` or `invoke` calls directly (`None` for indirect
/// calls and for other instructions).
pub fn direct_callee<'ctx>(inst: InstructionValue<'ctx>) -> Option<FunctionValue<'ctx>> {
    let raw = inst.as_value_ref();
    // SAFETY: checks the instruction kind before asking for a callee.
    let is_call =
        unsafe { !llvm::LLVMIsACallInst(raw).is_null() || !llvm::LLVMIsAInvokeInst(raw).is_null() };
    // SAFETY: a direct callee is a live function.
    is_call
        .then(|| called_function(raw))
        .flatten()
        .and_then(|f| unsafe { FunctionValue::new(f) })
}

/// The called function of a direct call, `None` for indirect calls.
pub fn called_function(call: LLVMValueRef) -> Option<LLVMValueRef> {
    // SAFETY: the caller passes a call-like instruction.
    unsafe {
        let callee = llvm::LLVMGetCalledValue(call);
        (!callee.is_null() && !llvm::LLVMIsAFunction(callee).is_null()).then_some(callee)
    }
}

/// The intrinsic id of `name` (`llvm.memcpy`), 0 when LLVM has no such intrinsic.
pub fn intrinsic_id(name: &str) -> u32 {
    // SAFETY: the name is passed with its length.
    unsafe { llvm::LLVMLookupIntrinsicID(name.as_ptr().cast(), name.len()) }
}

/// True if `call` calls intrinsic `name` (any overload: `llvm.memcpy` matches
/// `llvm.memcpy.p0.p4.i64` but not `llvm.memcpy.inline.*`).
pub fn is_intrinsic_call(call: LLVMValueRef, name: &str) -> bool {
    let id = intrinsic_id(name);
    // SAFETY: the callee is a live function.
    id != 0 && called_function(call).is_some_and(|f| unsafe { llvm::LLVMGetIntrinsicID(f) } == id)
}

/// The declaration of intrinsic `name` for `overloads` in `module`, with its
/// function type; `None` when the name or the overload types do not fit.
pub fn intrinsic_declaration(
    module: &Module<'_>,
    name: &str,
    overloads: &[LLVMTypeRef],
) -> Option<(LLVMValueRef, LLVMTypeRef)> {
    let id = intrinsic_id(name);
    if id == 0 {
        return None;
    }
    let mut types = overloads.to_vec();
    // SAFETY: the id is valid and the overload types are live; LLVM checks
    // nothing here, so callers pass the overloads the intrinsic declares.
    unsafe {
        let decl = llvm::LLVMGetIntrinsicDeclaration(
            module.as_mut_ptr(),
            id,
            types.as_mut_ptr(),
            types.len(),
        );
        (!decl.is_null()).then(|| (decl, llvm::LLVMGlobalGetValueType(decl)))
    }
}

/// The attribute-list index of argument `arg` (LLVM counts parameters from 1).
fn param_attr_index(arg: u32) -> u32 {
    arg + 1
}

/// Attribute `name` at `index` of a call site, else of its direct callee's
/// declaration (where front ends and intrinsics often put theirs).
fn call_attribute(
    call: LLVMValueRef,
    index: u32,
    name: &str,
) -> Option<llvm_sys::prelude::LLVMAttributeRef> {
    let kind = attr_kind(name);
    // SAFETY: attribute lookups on a live call and function.
    unsafe {
        let mut attr = llvm::LLVMGetCallSiteEnumAttribute(call, index, kind);
        if attr.is_null()
            && let Some(callee) = called_function(call)
        {
            attr = llvm::LLVMGetEnumAttributeAtIndex(callee, index, kind);
        }
        (!attr.is_null()).then_some(attr)
    }
}

/// The value of enum or int attribute `name` at `index` of a call (call site
/// or callee); type attributes (`byval`) read as 0.
fn call_attr(call: LLVMValueRef, index: u32, name: &str) -> Option<u64> {
    call_attribute(call, index, name).map(|attr| {
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

/// The type of type attribute `name` (`byval(T)`) on argument `arg` of a
/// call (call site or callee).
pub fn call_param_type_attr<'ctx>(
    call: InstructionValue<'ctx>,
    arg: u32,
    name: &str,
) -> Option<AnyTypeEnum<'ctx>> {
    let attr = call_attribute(call.as_value_ref(), param_attr_index(arg), name)?;
    // SAFETY: a live attribute of the call's context.
    unsafe {
        (llvm::LLVMIsTypeAttribute(attr) != 0)
            .then(|| AnyTypeEnum::new(llvm::LLVMGetTypeAttributeValue(attr)))
    }
}

/// Attribute `name` of argument `arg` of a call (call site or callee).
pub fn call_param_attr(call: LLVMValueRef, arg: u32, name: &str) -> Option<u64> {
    call_attr(call, param_attr_index(arg), name)
}

/// Function attribute `name` of a call (call site or callee).
pub fn call_function_attr(call: LLVMValueRef, name: &str) -> Option<u64> {
    call_attr(call, llvm_sys::LLVMAttributeFunctionIndex, name)
}

/// True if a `memory(...)` attribute value allows no write to any location.
/// Encoding (`llvm/Support/ModRef.h`): two bits per location, `Ref` = 1, `Mod` = 2.
pub fn memory_effects_read_only(memory: u64) -> bool {
    memory & 0xAAAA_AAAA_AAAA_AAAA == 0
}

/// True if a `captures(...)` attribute value lets the pointer's provenance
/// escape with write permission, in the return value or elsewhere. Encoding:
/// `other << 4 | ret`, each a `CaptureComponents` mask where bit 3 is set only
/// for full `provenance` (`read_provenance` alone cannot be written through).
pub fn captures_writable_provenance(captures: u64) -> bool {
    captures & 0x88 != 0
}

/// Removes the metadata attachment of kind `kind` from an instruction.
pub fn drop_metadata(inst: LLVMValueRef, kind: u32) {
    // SAFETY: a null node removes the attachment.
    unsafe { llvm::LLVMSetMetadata(inst, kind, std::ptr::null_mut()) }
}

/// Copies the debug location and every other metadata attachment of `from` to `to`.
pub fn copy_instruction_metadata(module: &Module<'_>, from: LLVMValueRef, to: LLVMValueRef) {
    // SAFETY: both instructions are live in one context; the entries array is
    // owned by us and disposed after copying out.
    unsafe {
        let mut count = 0usize;
        let entries = llvm::LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &mut count);
        for i in 0..count as u32 {
            let kind = llvm::LLVMValueMetadataEntriesGetKind(entries, i);
            let md = llvm::LLVMValueMetadataEntriesGetMetadata(entries, i);
            llvm::LLVMSetMetadata(to, kind, llvm::LLVMMetadataAsValue(context_ref(module), md));
        }
        if !entries.is_null() {
            llvm::LLVMDisposeValueMetadataEntries(entries);
        }
        llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(
            to,
            llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(from),
        );
    }
}

/// Erases instructions that may use each other (cycles of phis included):
/// first every use of them becomes `poison`, then they go.
pub fn erase_instructions(insts: &[LLVMValueRef]) {
    // SAFETY: the instructions are live; after the RAUW none has a use left.
    unsafe {
        for &inst in insts {
            llvm::LLVMReplaceAllUsesWith(inst, llvm::LLVMGetPoison(llvm::LLVMTypeOf(inst)));
        }
        for &inst in insts {
            llvm::LLVMInstructionEraseFromParent(inst);
        }
    }
}

/// The block holding an instruction.
pub fn instruction_block(inst: LLVMValueRef) -> llvm_sys::prelude::LLVMBasicBlockRef {
    // SAFETY: the instruction is live.
    unsafe { llvm::LLVMGetInstructionParent(inst) }
}

/// The instructions of a block, in order.
pub fn block_instructions(block: llvm_sys::prelude::LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: walks a live block.
    unsafe {
        let mut inst = llvm::LLVMGetFirstInstruction(block);
        while !inst.is_null() {
            out.push(inst);
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    out
}

/// The incoming (value, block) pairs of a phi.
pub fn phi_incoming(
    phi: LLVMValueRef,
) -> Vec<(LLVMValueRef, llvm_sys::prelude::LLVMBasicBlockRef)> {
    // SAFETY: the caller passes a live phi.
    unsafe {
        (0..llvm::LLVMCountIncoming(phi))
            .map(|i| {
                (
                    llvm::LLVMGetIncomingValue(phi, i),
                    llvm::LLVMGetIncomingBlock(phi, i),
                )
            })
            .collect()
    }
}

/// An instruction builder on raw values, for rebuilding instructions with
/// operands of another type. Every `build_*` leaves the result unnamed;
/// callers name it with [`set_raw_value_name`].
pub struct RawBuilder {
    raw: llvm_sys::prelude::LLVMBuilderRef,
}

impl Drop for RawBuilder {
    fn drop(&mut self) {
        // SAFETY: the builder is ours.
        unsafe { llvm::LLVMDisposeBuilder(self.raw) }
    }
}

impl RawBuilder {
    pub fn new(module: &Module<'_>) -> Self {
        // SAFETY: the context is live.
        RawBuilder {
            raw: unsafe { llvm::LLVMCreateBuilderInContext(context_ref(module)) },
        }
    }

    /// Inserts before `inst`.
    pub fn position_before(&self, inst: LLVMValueRef) {
        // SAFETY: both are live.
        unsafe { llvm::LLVMPositionBuilderBefore(self.raw, inst) }
    }

    /// Inserts right after `inst`; after the last phi when `inst` is a phi
    /// (phis must stay grouped at the top of their block).
    pub fn position_after(&self, inst: LLVMValueRef) {
        let block = instruction_block(inst);
        let next = if instruction_opcode(inst) == Some(llvm_sys::LLVMOpcode::LLVMPHI) {
            block_instructions(block)
                .into_iter()
                .find(|&i| instruction_opcode(i) != Some(llvm_sys::LLVMOpcode::LLVMPHI))
        } else {
            // SAFETY: the instruction is live.
            let next = unsafe { llvm::LLVMGetNextInstruction(inst) };
            (!next.is_null()).then_some(next)
        };
        match next {
            Some(next) => self.position_before(next),
            // SAFETY: the block is live (only reached for a block without terminator).
            None => unsafe { llvm::LLVMPositionBuilderAtEnd(self.raw, block) },
        }
    }

    /// Inserts before the terminator of `block`.
    pub fn position_before_terminator(&self, block: llvm_sys::prelude::LLVMBasicBlockRef) {
        // SAFETY: the block is live.
        unsafe {
            let term = llvm::LLVMGetBasicBlockTerminator(block);
            if term.is_null() {
                llvm::LLVMPositionBuilderAtEnd(self.raw, block);
            } else {
                llvm::LLVMPositionBuilderBefore(self.raw, term);
            }
        }
    }

    /// `addrspacecast` of `value` to `ty` (folded for constants; `value` itself
    /// when the types already agree).
    pub fn build_addrspacecast(&self, value: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        if type_of(value) == ty {
            return value;
        }
        // SAFETY: a pointer cast between address spaces at the builder's position.
        unsafe { llvm::LLVMBuildAddrSpaceCast(self.raw, value, ty, c"".as_ptr()) }
    }

    /// A copy of GEP `gep` (source element type, indices, no-wrap flags) on `base`.
    pub fn build_gep_like(&self, gep: LLVMValueRef, base: LLVMValueRef) -> LLVMValueRef {
        // SAFETY: `gep` is a live GEP; its index operands are reused as they are.
        unsafe {
            let mut indices: Vec<LLVMValueRef> =
                (1..operand_count(gep)).map(|i| operand(gep, i)).collect();
            llvm::LLVMBuildGEPWithNoWrapFlags(
                self.raw,
                llvm::LLVMGetGEPSourceElementType(gep),
                base,
                indices.as_mut_ptr(),
                indices.len() as u32,
                c"".as_ptr(),
                llvm::LLVMGEPGetNoWrapFlags(gep),
            )
        }
    }

    pub fn build_select(
        &self,
        condition: LLVMValueRef,
        then: LLVMValueRef,
        otherwise: LLVMValueRef,
    ) -> LLVMValueRef {
        // SAFETY: operands are live and of matching types.
        unsafe { llvm::LLVMBuildSelect(self.raw, condition, then, otherwise, c"".as_ptr()) }
    }

    pub fn build_freeze(&self, value: LLVMValueRef) -> LLVMValueRef {
        // SAFETY: the value is live.
        unsafe { llvm::LLVMBuildFreeze(self.raw, value, c"".as_ptr()) }
    }

    /// An empty phi of type `ty`; fill it with [`RawBuilder::add_incoming`].
    pub fn build_phi(&self, ty: LLVMTypeRef) -> LLVMValueRef {
        // SAFETY: the type is live.
        unsafe { llvm::LLVMBuildPhi(self.raw, ty, c"".as_ptr()) }
    }

    pub fn add_incoming(
        &self,
        phi: LLVMValueRef,
        value: LLVMValueRef,
        block: llvm_sys::prelude::LLVMBasicBlockRef,
    ) {
        let (mut values, mut blocks) = ([value], [block]);
        // SAFETY: one (value, block) pair of the phi's type.
        unsafe { llvm::LLVMAddIncoming(phi, values.as_mut_ptr(), blocks.as_mut_ptr(), 1) }
    }

    /// `alloca ty, align align` in the data layout's alloca address space.
    pub fn build_alloca(&self, ty: LLVMTypeRef, align: u32) -> LLVMValueRef {
        // SAFETY: a sized type at the builder's position.
        unsafe {
            let alloca = llvm::LLVMBuildAlloca(self.raw, ty, c"".as_ptr());
            llvm::LLVMSetAlignment(alloca, align);
            alloca
        }
    }

    /// `llvm.memcpy(dst align dst_align, src align src_align, i64 size, i1 false)`.
    pub fn build_memcpy(
        &self,
        dst: LLVMValueRef,
        dst_align: u32,
        src: LLVMValueRef,
        src_align: u32,
        size: LLVMValueRef,
    ) -> LLVMValueRef {
        // SAFETY: pointers and size are live values at the builder's position.
        unsafe { llvm::LLVMBuildMemCpy(self.raw, dst, dst_align, src, src_align, size) }
    }

    /// A copy of call `call` with callee `callee` of type `fn_type` and
    /// arguments `args`: calling convention, tail-call kind, every attribute,
    /// operand bundle and metadata attachment carry over; uses of the old
    /// call's result move to the new one and the old call is erased.
    pub fn rebuild_call(
        &self,
        module: &Module<'_>,
        call: LLVMValueRef,
        callee: LLVMValueRef,
        fn_type: LLVMTypeRef,
        args: &mut [LLVMValueRef],
    ) -> LLVMValueRef {
        // SAFETY: `call` is a live call instruction; the bundles we copy out
        // are owned by us and disposed after building.
        unsafe {
            self.position_before(call);
            let mut bundles: Vec<_> = (0..llvm::LLVMGetNumOperandBundles(call))
                .map(|i| llvm::LLVMGetOperandBundleAtIndex(call, i))
                .collect();
            let new = llvm::LLVMBuildCallWithOperandBundles(
                self.raw,
                fn_type,
                callee,
                args.as_mut_ptr(),
                args.len() as u32,
                bundles.as_mut_ptr(),
                bundles.len() as u32,
                c"".as_ptr(),
            );
            for bundle in bundles {
                llvm::LLVMDisposeOperandBundle(bundle);
            }
            llvm::LLVMSetInstructionCallConv(new, llvm::LLVMGetInstructionCallConv(call));
            llvm::LLVMSetTailCallKind(new, llvm::LLVMGetTailCallKind(call));
            let indices = [
                llvm_sys::LLVMAttributeFunctionIndex,
                llvm_sys::LLVMAttributeReturnIndex,
            ]
            .into_iter()
            .chain((0..args.len() as u32).map(param_attr_index));
            for index in indices {
                let count = llvm::LLVMGetCallSiteAttributeCount(call, index);
                let mut attrs = vec![std::ptr::null_mut(); count as usize];
                llvm::LLVMGetCallSiteAttributes(call, index, attrs.as_mut_ptr());
                for attr in attrs {
                    llvm::LLVMAddCallSiteAttribute(new, index, attr);
                }
            }
            copy_instruction_metadata(module, call, new);
            let name = raw_value_name(call);
            if llvm::LLVMGetTypeKind(llvm::LLVMTypeOf(call))
                != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind
            {
                set_raw_value_name(call, "");
                set_raw_value_name(new, &name);
                llvm::LLVMReplaceAllUsesWith(call, new);
            }
            llvm::LLVMInstructionEraseFromParent(call);
            new
        }
    }
}

/// Deletes function declaration `function` if nothing uses it any more
/// (an intrinsic overload left behind by a rebuilt call).
pub fn delete_if_unused_declaration(function: LLVMValueRef) {
    // SAFETY: a live function; deleted only as a bodiless declaration without uses.
    unsafe {
        if !llvm::LLVMIsAFunction(function).is_null()
            && llvm::LLVMCountBasicBlocks(function) == 0
            && llvm::LLVMGetFirstUse(function).is_null()
        {
            llvm::LLVMDeleteFunction(function);
        }
    }
}

/// Operands of an MDNode as values: a constant operand (`i32 3`) is the
/// constant itself, any other operand is wrapped as metadata-as-value
/// (null entries for null operands).
pub fn md_operand_values(module: &Module<'_>, node: LLVMMetadataRef) -> Vec<LLVMValueRef> {
    // A null operand (`!{null}`) is no node; LLVMMetadataAsValue must not see it.
    if node.is_null() {
        return Vec::new();
    }
    // SAFETY: `node` is metadata of this context; operands are copied out.
    unsafe {
        let value = llvm::LLVMMetadataAsValue(context_ref(module), node);
        if llvm::LLVMIsAMDNode(value).is_null() {
            return Vec::new();
        }
        let count = llvm::LLVMGetMDNodeNumOperands(value) as usize;
        let mut operands: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); count];
        llvm::LLVMGetMDNodeOperands(value, operands.as_mut_ptr());
        operands
    }
}

/// The integers of an MDNode's operands (`!{i32 0, i64 16}`), `None` for
/// operands that are not integer constants.
pub fn md_integers(module: &Module<'_>, node: LLVMMetadataRef) -> Vec<Option<u64>> {
    md_operand_values(module, node)
        .into_iter()
        .map(|v| {
            // SAFETY: LLVMIsAConstantInt accepts any value and returns null otherwise.
            unsafe {
                let constant = if v.is_null() {
                    v
                } else {
                    llvm::LLVMIsAConstantInt(v)
                };
                // Wider than 64 bits would be truncated: not a valid field.
                let fits = !constant.is_null()
                    && llvm::LLVMGetIntTypeWidth(llvm::LLVMTypeOf(constant)) <= 64;
                fits.then(|| llvm::LLVMConstIntGetZExtValue(constant))
            }
        })
        .collect()
}

/// `value` as an instruction, if it is one.
pub fn as_instruction<'ctx>(
    value: LLVMValueRef,
) -> Option<inkwell::values::InstructionValue<'ctx>> {
    // SAFETY: LLVMIsAInstruction returns null for non-instructions.
    unsafe {
        let inst = llvm::LLVMIsAInstruction(value);
        (!inst.is_null()).then(|| inkwell::values::InstructionValue::new(inst))
    }
}

/// The address space of an instruction's pointer result, if it has one.
pub fn result_address_space(inst: inkwell::values::InstructionValue<'_>) -> Option<u32> {
    // SAFETY: reads the type of a live instruction.
    unsafe {
        let ty = llvm::LLVMTypeOf(inst.as_value_ref());
        (llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind)
            .then(|| llvm::LLVMGetPointerAddressSpace(ty))
    }
}

/// A `getelementptr` whose indices are all constant zero (the same address).
pub fn gep_is_zero_offset(inst: inkwell::values::InstructionValue<'_>) -> bool {
    let value = inst.as_value_ref();
    // SAFETY: operands of a live GEP; index operands follow the base pointer.
    unsafe {
        let count = llvm::LLVMGetNumOperands(value);
        (1..count as u32).all(|i| {
            let index = llvm::LLVMIsAConstantInt(llvm::LLVMGetOperand(value, i));
            !index.is_null() && llvm::LLVMConstIntGetZExtValue(index) == 0
        })
    }
}

/// The type a `load` reads.
pub fn loaded_type<'ctx>(
    load: inkwell::values::InstructionValue<'ctx>,
) -> Option<BasicTypeEnum<'ctx>> {
    // SAFETY: a load's result type is the loaded type.
    unsafe {
        let ty = llvm::LLVMTypeOf(load.as_value_ref());
        BasicTypeEnum::try_from(AnyTypeEnum::new(ty)).ok()
    }
}

/// Drops the attachment of kind `kind` from a function.
pub fn remove_function_metadata(function: FunctionValue<'_>, kind: u32) {
    // SAFETY: erasing an attachment of a live function.
    unsafe { llvm::LLVMGlobalEraseMetadata(function.as_value_ref(), kind) }
}

/// Rebuilds an aggregate of type `aggregate` that wraps exactly `element` at
/// index `path` (one index per nesting level, as `single_element` returns
/// it): `insertvalue` into `poison` from the innermost level outwards.
pub fn build_wrapped_aggregate<'ctx>(
    builder: &inkwell::builder::Builder<'ctx>,
    aggregate: BasicTypeEnum<'ctx>,
    element: inkwell::values::BasicValueEnum<'ctx>,
    path: &[u32],
) -> Result<inkwell::values::BasicValueEnum<'ctx>, String> {
    // The aggregate type at each level, outermost first.
    let mut levels = vec![aggregate];
    for _ in 1..path.len() {
        let inner = match *levels.last().expect("starts non-empty") {
            BasicTypeEnum::StructType(s) => s.get_field_type_at_index(0),
            BasicTypeEnum::ArrayType(a) => Some(a.get_element_type()),
            _ => None,
        }
        .ok_or("wrapped aggregate path does not match its type")?;
        levels.push(inner);
    }
    let mut inner = element.as_value_ref();
    for (ty, &index) in levels.iter().zip(path).rev() {
        // SAFETY: inserts a value of the element type at a valid index of `ty`.
        inner = unsafe {
            let poison = llvm::LLVMGetPoison(ty.as_type_ref());
            llvm::LLVMBuildInsertValue(builder.as_mut_ptr(), poison, inner, index, c"".as_ptr())
        };
    }
    // SAFETY: `inner` is the outermost insertvalue, of type `aggregate`.
    Ok(unsafe { inkwell::values::BasicValueEnum::new(inner) })
}

/// `load ty, (gep i8, ptr, offset)`: a field of byte-addressed memory.
pub fn build_load_at<'ctx>(
    module: &Module<'ctx>,
    builder: &inkwell::builder::Builder<'ctx>,
    pointer: inkwell::values::PointerValue<'ctx>,
    offset: u64,
    ty: BasicTypeEnum<'ctx>,
) -> Result<inkwell::values::BasicValueEnum<'ctx>, String> {
    let context = module.get_context();
    let address = if offset == 0 {
        pointer
    } else {
        let index = context.i64_type().const_int(offset, false);
        // SAFETY: the offset lies inside the dereferenceable memory of `pointer`.
        unsafe { builder.build_in_bounds_gep(context.i8_type(), pointer, &[index], "") }
            .map_err(|e| e.to_string())?
    };
    builder
        .build_load(ty, address, "")
        .map_err(|e| e.to_string())
}

/// The alignment known for `base_align`-aligned memory at byte `offset`.
pub fn common_alignment(base_align: u64, offset: u64) -> u64 {
    let base = base_align.max(1);
    if offset == 0 {
        base
    } else {
        base.min(1 << offset.trailing_zeros())
    }
}

/// `[size x i8]`, for any 64-bit size (inkwell's `array_type` takes a `u32`
/// and would silently truncate).
pub fn byte_array_type<'ctx>(module: &Module<'ctx>, size: u64) -> BasicTypeEnum<'ctx> {
    // SAFETY: an array type of the module's context.
    unsafe {
        BasicTypeEnum::new(llvm::LLVMArrayType2(
            llvm::LLVMInt8TypeInContext(context_ref(module)),
            size,
        ))
    }
}

/// Logs (debug) the `amdgpu_kernel` declarations a pass skips: no body, so
/// nothing to rewrite (their callers, if any, are the module's problem).
pub fn log_skipped_declarations(module: &Module<'_>, pass: &str) {
    for function in module.get_functions() {
        if function.get_call_conventions() == AMDGPU_KERNEL_CC && function.count_basic_blocks() == 0
        {
            log::debug!(
                "{pass}: skipping '{}': a declaration, no body to rewrite",
                name_of(function)
            );
        }
    }
}

/// The integer type of `size` bytes.
pub fn int_type_of_size<'ctx>(module: &Module<'ctx>, size: u64) -> BasicTypeEnum<'ctx> {
    // SAFETY: an integer type of the module's context.
    unsafe {
        BasicTypeEnum::new(llvm::LLVMIntTypeInContext(
            context_ref(module),
            (size * 8) as u32,
        ))
    }
}

/// True for the GPU kernel calling conventions (`amdgpu_kernel`, `ptx_kernel`).
pub fn is_gpu_kernel(function: FunctionValue<'_>) -> bool {
    matches!(
        function.get_call_conventions(),
        AMDGPU_KERNEL_CC | PTX_KERNEL_CC
    )
}

/// True if the function carries a metadata attachment named `name`
/// (`!offload.kernel`), whatever its operands.
pub fn has_function_md(module: &Module<'_>, function: FunctionValue<'_>, name: &str) -> bool {
    function_metadata(function, md_kind(module, name)).is_some()
}

/// Attaches the empty node `!name !{}` to a function (a marker).
pub fn set_function_md_marker(module: &Module<'_>, function: FunctionValue<'_>, name: &str) {
    let kind = md_kind(module, name);
    // SAFETY: the context is live; an empty MDNode has no operands to read.
    unsafe {
        let node = llvm::LLVMMDNodeInContext2(context_ref(module), std::ptr::null_mut(), 0);
        llvm::LLVMGlobalSetMetadata(function.as_value_ref(), kind, node);
    }
}

/// The bit width of a floating-point type (16 for `half` and `bfloat`, 80 for
/// `x86_fp80`, 128 for `fp128` and `ppc_fp128`).
pub fn float_bit_width(ty: inkwell::types::FloatType<'_>) -> u32 {
    use llvm_sys::LLVMTypeKind::*;
    // SAFETY: reads the kind of a live type.
    match unsafe { llvm::LLVMGetTypeKind(ty.as_type_ref()) } {
        LLVMHalfTypeKind | LLVMBFloatTypeKind => 16,
        LLVMFloatTypeKind => 32,
        LLVMDoubleTypeKind => 64,
        LLVMX86_FP80TypeKind => 80,
        _ => 128,
    }
}

/// True for the type kinds inkwell wraps as a `BasicTypeEnum` (it panics on
/// the others: `x86_amx`, `target(...)`, `token`, ...).
fn is_wrapped_kind(ty: LLVMTypeRef) -> bool {
    use llvm_sys::LLVMTypeKind::*;
    // SAFETY: reads the kind of a live type.
    matches!(
        unsafe { llvm::LLVMGetTypeKind(ty) },
        LLVMIntegerTypeKind
            | LLVMHalfTypeKind
            | LLVMBFloatTypeKind
            | LLVMFloatTypeKind
            | LLVMDoubleTypeKind
            | LLVMX86_FP80TypeKind
            | LLVMFP128TypeKind
            | LLVMPPC_FP128TypeKind
            | LLVMPointerTypeKind
            | LLVMStructTypeKind
            | LLVMArrayTypeKind
            | LLVMVectorTypeKind
            | LLVMScalableVectorTypeKind
    )
}

/// The parameter types of a function, as raw handles (never panics).
fn raw_param_types(function: FunctionValue<'_>) -> Vec<LLVMTypeRef> {
    let fn_type = function.get_type().as_type_ref();
    // SAFETY: the parameter types of a live function type are copied out.
    unsafe {
        let count = llvm::LLVMCountParamTypes(fn_type) as usize;
        let mut types: Vec<LLVMTypeRef> = vec![std::ptr::null_mut(); count];
        llvm::LLVMGetParamTypes(fn_type, types.as_mut_ptr());
        types
    }
}

/// The first parameter (index, type text) whose type inkwell cannot wrap
/// (`x86_amx`, `target(...)` types): inkwell panics on those, so check with
/// this before `get_type().get_param_types()` on untrusted input.
pub fn first_opaque_param_type(function: FunctionValue<'_>) -> Option<(u32, String)> {
    raw_param_types(function)
        .into_iter()
        .enumerate()
        .find(|&(_, ty)| !is_wrapped_kind(ty))
        .map(|(index, ty)| (index as u32, type_text_raw(ty)))
}

/// The type of parameter `index`, or `None` when it is out of range or of a
/// kind inkwell cannot wrap (see [`first_opaque_param_type`]).
pub fn param_basic_type<'ctx>(
    function: FunctionValue<'ctx>,
    index: u32,
) -> Option<BasicTypeEnum<'ctx>> {
    let ty = *raw_param_types(function).get(index as usize)?;
    // SAFETY: a live type of a kind BasicTypeEnum wraps.
    is_wrapped_kind(ty).then(|| unsafe { BasicTypeEnum::new(ty) })
}

/// True if values of `ty` have a size known at compile time: false for
/// scalable vectors, target extension types, opaque structs and aggregates
/// that hold any of them (asking `TargetData` for the size of those is a
/// fatal LLVM error, not a recoverable one).
pub fn has_fixed_size(ty: impl AsTypeRef) -> bool {
    fixed_size_raw(ty.as_type_ref())
}

fn fixed_size_raw(ty: LLVMTypeRef) -> bool {
    use llvm_sys::LLVMTypeKind::*;
    // SAFETY: reads the kind and element types of a live type.
    unsafe {
        match llvm::LLVMGetTypeKind(ty) {
            LLVMStructTypeKind => {
                if llvm::LLVMIsOpaqueStruct(ty) != 0 {
                    return false;
                }
                let count = llvm::LLVMCountStructElementTypes(ty);
                (0..count).all(|i| fixed_size_raw(llvm::LLVMStructGetTypeAtIndex(ty, i)))
            }
            LLVMArrayTypeKind | LLVMVectorTypeKind => fixed_size_raw(llvm::LLVMGetElementType(ty)),
            kind => is_wrapped_kind(ty) && kind != LLVMScalableVectorTypeKind,
        }
    }
}

/// "kernel 'k', parameter #2 (%x) of type 'T': why", for errors about one parameter.
pub fn param_error(kernel: FunctionValue<'_>, index: u32, ty: &str, why: &str) -> String {
    format!("{} of type '{ty}': {why}", describe_param(kernel, index))
}

/// `kernel 'k', parameter #2 (%x)` (no name part when the parameter is
/// unnamed): how every message and log line names a parameter.
pub fn describe_param(kernel: FunctionValue<'_>, index: u32) -> String {
    let name = param_name(kernel, index);
    let name = if name.is_empty() {
        String::new()
    } else {
        format!(" (%{name})")
    };
    format!("kernel '{}', parameter #{index}{name}", name_of(kernel))
}

/// An alignment for `LLVMSetAlignment` (a `u32`): LLVM allows up to 2^32 on
/// attributes; a larger-than-representable one is clamped down, which only
/// promises less.
pub fn align_u32(align: u64) -> u32 {
    align.clamp(1, 1 << 31) as u32
}

/// The name of parameter `index` (empty when unnamed or out of range), read
/// without inkwell, which panics on parameters of types it cannot wrap.
pub fn param_name(function: FunctionValue<'_>, index: u32) -> String {
    // SAFETY: the index is checked against the live function's parameter count.
    unsafe {
        let f = function.as_value_ref();
        if index >= llvm::LLVMCountParams(f) {
            return String::new();
        }
        let mut len = 0usize;
        let ptr = llvm::LLVMGetValueName2(llvm::LLVMGetParam(f, index), &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(ptr.cast::<u8>(), len)).into_owned()
    }
}

/// True for an `invoke` (as opposed to a `call`).
pub fn is_invoke(inst: InstructionValue<'_>) -> bool {
    // SAFETY: type query on a live value.
    unsafe { !llvm::LLVMIsAInvokeInst(inst.as_value_ref()).is_null() }
}

/// Every instruction of every defined function, in module order, that
/// directly calls or invokes some function.
pub fn direct_calls<'ctx>(
    module: &Module<'ctx>,
) -> Vec<(
    FunctionValue<'ctx>,
    InstructionValue<'ctx>,
    FunctionValue<'ctx>,
)> {
    let mut calls = Vec::new();
    for caller in module.get_functions() {
        for block in caller.get_basic_blocks() {
            for inst in block.get_instructions() {
                if let Some(callee) = direct_callee(inst) {
                    calls.push((caller, inst, callee));
                }
            }
        }
    }
    calls
}

/// The call's argument operands (without the callee).
pub fn call_arguments<'ctx>(
    call: InstructionValue<'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>, String> {
    // SAFETY: `call` is a live call or invoke; argument operands come first.
    // Their type kinds are checked before inkwell wraps them (it panics on
    // tokens, metadata and `target(...)` values).
    unsafe {
        let raw = call.as_value_ref();
        (0..llvm::LLVMGetNumArgOperands(raw))
            .map(|i| {
                let operand = llvm::LLVMGetOperand(raw, i);
                let ty = llvm::LLVMTypeOf(operand);
                match llvm::LLVMGetTypeKind(ty) {
                    LLVMTypeKind::LLVMTokenTypeKind
                    | LLVMTypeKind::LLVMMetadataTypeKind
                    | LLVMTypeKind::LLVMTargetExtTypeKind
                    | LLVMTypeKind::LLVMLabelTypeKind
                    | LLVMTypeKind::LLVMVoidTypeKind
                    | LLVMTypeKind::LLVMX86_AMXTypeKind => Err(format!(
                        "argument {i} has type '{}', which no launch can pass",
                        type_text_raw(ty)
                    )),
                    _ => Ok(BasicValueEnum::new(operand)),
                }
            })
            .collect()
    }
}

/// Elements of a constant aggregate (array, struct, vector, data array) via
/// `LLVMGetAggregateElement` (inkwell cannot read them).
pub fn aggregate_elements(constant: LLVMValueRef) -> Vec<LLVMValueRef> {
    // SAFETY: `constant` is a live constant; element i < count exists.
    unsafe {
        let ty = llvm::LLVMTypeOf(constant);
        let count = match llvm::LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMArrayTypeKind => llvm::LLVMGetArrayLength2(ty) as u32,
            LLVMTypeKind::LLVMStructTypeKind => llvm::LLVMCountStructElementTypes(ty),
            LLVMTypeKind::LLVMVectorTypeKind => llvm::LLVMGetVectorSize(ty),
            _ => 0,
        };
        (0..count)
            .map(|i| llvm::LLVMGetAggregateElement(constant, i))
            .filter(|e| !e.is_null())
            .collect()
    }
}

/// The bytes constant `value` occupies in memory under `layout` (padding
/// zero). Integers, zero/undef/poison and aggregates of them; anything else
/// (pointers, constant expressions, floats) is an error naming its type.
pub fn constant_bytes(value: LLVMValueRef, layout: &TargetData) -> Result<Vec<u8>, String> {
    // SAFETY: type queries on a live value.
    let size = unsafe {
        llvm_sys::target::LLVMABISizeOfType(layout.as_mut_ptr(), llvm::LLVMTypeOf(value))
    };
    let mut out = vec![0u8; size as usize];
    write_constant(value, layout, &mut out)?;
    Ok(out)
}

/// Appends `{ i32 priority, ptr function, ptr null }` to `@llvm.global_ctors`,
/// keeping the entries already there (and their element type: the old
/// two-field form stays two fields).
pub fn append_global_ctor(module: &Module<'_>, function: FunctionValue<'_>, priority: u32) {
    let context = module.get_context();
    let ptr = context.ptr_type(AddressSpace::default());
    let default_entry =
        context.struct_type(&[context.i32_type().into(), ptr.into(), ptr.into()], false);
    append_to_appending_global(
        module,
        "llvm.global_ctors",
        default_entry.as_type_ref(),
        None,
        |entry| {
            // SAFETY: `entry` is the struct type of the array's elements.
            unsafe {
                let mut fields = vec![
                    context
                        .i32_type()
                        .const_int(priority.into(), false)
                        .as_value_ref(),
                    function.as_global_value().as_pointer_value().as_value_ref(),
                ];
                if llvm::LLVMCountStructElementTypes(entry) > 2 {
                    fields.push(ptr.const_null().as_value_ref());
                }
                vec![llvm::LLVMConstNamedStruct(
                    entry,
                    fields.as_mut_ptr(),
                    fields.len() as u32,
                )]
            }
        },
    );
}

/// Appends `globals` to `@llvm.compiler.used` (kept until the object file).
pub fn append_compiler_used(module: &Module<'_>, globals: &[inkwell::values::GlobalValue<'_>]) {
    let ptr = module.get_context().ptr_type(AddressSpace::default());
    append_to_appending_global(
        module,
        "llvm.compiler.used",
        ptr.as_type_ref(),
        Some("llvm.metadata"),
        |_| {
            globals
                .iter()
                .map(|g| g.as_pointer_value().as_value_ref())
                .collect()
        },
    );
}

/// Adds `!{i32 behavior, !"key", i32 value}` to `!llvm.module.flags`. Raw,
/// because the C API's flag behaviours lack `Max` (7), which clang uses for
/// `"openmp"`.
pub fn add_module_flag(module: &Module<'_>, behavior: u32, key: &str, value: u32) {
    let context = module.get_context();
    let i32_type = context.i32_type();
    // SAFETY: metadata built in the module's context and attached by name.
    unsafe {
        let ctx = context_ref(module);
        let mut operands = [
            llvm::LLVMValueAsMetadata(i32_type.const_int(behavior.into(), false).as_value_ref()),
            llvm::LLVMMDStringInContext2(ctx, key.as_ptr().cast(), key.len()),
            llvm::LLVMValueAsMetadata(i32_type.const_int(value.into(), false).as_value_ref()),
        ];
        let node = llvm::LLVMMDNodeInContext2(ctx, operands.as_mut_ptr(), operands.len());
        llvm::LLVMAddNamedMetadataOperand(
            module.as_mut_ptr(),
            c"llvm.module.flags".as_ptr(),
            llvm::LLVMMetadataAsValue(ctx, node),
        );
    }
}

/// A builder at the top of `function`'s entry block, where allocas and
/// parameter replacements belong (static allocas, not repeated in loops):
/// after any empty phis an entry block may start with, and in front of the
/// first instruction's debug records, so a `#dbg_declare` of a replaced
/// value follows its replacement.
pub fn entry_builder<'ctx>(function: FunctionValue<'ctx>) -> inkwell::builder::Builder<'ctx> {
    let builder = function.get_type().get_context().create_builder();
    let Some(entry) = function.get_first_basic_block() else {
        return builder;
    };
    let first_non_phi = entry
        .get_instructions()
        .find(|i| i.get_opcode() != inkwell::values::InstructionOpcode::Phi);
    match first_non_phi {
        // (inkwell's own call first: it records that the builder is placed.)
        Some(first) => {
            builder.position_before(&first);
            // SAFETY: positions a live builder before a live instruction.
            unsafe {
                llvm::LLVMPositionBuilderBeforeInstrAndDbgRecords(
                    builder.as_mut_ptr(),
                    first.as_value_ref(),
                )
            }
        }
        None => builder.position_at_end(entry),
    }
    builder
}

/// The named struct type `name` with body `fields`: the existing one when
/// the context already has it with that body, else a new one (LLVM adds a
/// suffix to the name if it is taken by a different body).
pub fn named_struct<'ctx>(
    context: inkwell::context::ContextRef<'ctx>,
    name: &str,
    fields: &[BasicTypeEnum<'ctx>],
) -> inkwell::types::StructType<'ctx> {
    if let Some(existing) = context.get_struct_type(name)
        && existing.get_field_types() == fields
        && !existing.is_packed()
    {
        return existing;
    }
    let ty = context.opaque_struct_type(name);
    ty.set_body(fields, false);
    ty
}

fn write_constant(value: LLVMValueRef, layout: &TargetData, out: &mut [u8]) -> Result<(), String> {
    use llvm_sys::target as t;
    // SAFETY: every call inspects a live constant or its type; slices stay in
    // bounds because offsets come from the same data layout as `out`'s size.
    unsafe {
        let td = layout.as_mut_ptr();
        let ty = llvm::LLVMTypeOf(value);
        if !llvm::LLVMIsAConstantAggregateZero(value).is_null()
            || !llvm::LLVMIsAUndefValue(value).is_null()
        {
            return Ok(()); // already zero
        }
        if !llvm::LLVMIsAConstantInt(value).is_null() && llvm::LLVMGetIntTypeWidth(ty) <= 64 {
            let bits = llvm::LLVMConstIntGetZExtValue(value);
            let n = (t::LLVMStoreSizeOfType(td, ty) as usize).min(out.len());
            let bytes = match t::LLVMByteOrder(td) {
                t::LLVMByteOrdering::LLVMBigEndian => bits.to_be_bytes()[8 - n..].to_vec(),
                t::LLVMByteOrdering::LLVMLittleEndian => bits.to_le_bytes()[..n].to_vec(),
            };
            out[..n].copy_from_slice(&bytes);
            return Ok(());
        }
        let kind = llvm::LLVMGetTypeKind(ty);
        let is_aggregate = matches!(
            kind,
            LLVMTypeKind::LLVMArrayTypeKind
                | LLVMTypeKind::LLVMStructTypeKind
                | LLVMTypeKind::LLVMVectorTypeKind
        );
        let is_constant_aggregate = !llvm::LLVMIsAConstantDataSequential(value).is_null()
            || !llvm::LLVMIsAConstantArray(value).is_null()
            || !llvm::LLVMIsAConstantStruct(value).is_null()
            || !llvm::LLVMIsAConstantVector(value).is_null();
        if !(is_aggregate && is_constant_aggregate) {
            return Err(format!(
                "holds a value of type {} that is not an integer",
                type_text_raw(ty)
            ));
        }
        // A byte string (rustc's form of a static): copy it in one go.
        if kind == LLVMTypeKind::LLVMArrayTypeKind
            && !llvm::LLVMIsAConstantDataSequential(value).is_null()
            && llvm::LLVMGetTypeKind(llvm::LLVMGetElementType(ty))
                == LLVMTypeKind::LLVMIntegerTypeKind
            && llvm::LLVMGetIntTypeWidth(llvm::LLVMGetElementType(ty)) == 8
        {
            let mut len = 0usize;
            let data = llvm::LLVMGetAsString(value, &mut len);
            let n = len.min(out.len());
            out[..n].copy_from_slice(std::slice::from_raw_parts(data.cast::<u8>(), n));
            return Ok(());
        }
        for (i, element) in aggregate_elements(value).into_iter().enumerate() {
            let offset = if kind == LLVMTypeKind::LLVMStructTypeKind {
                t::LLVMOffsetOfElement(td, ty, i as u32)
            } else {
                i as u64 * t::LLVMABISizeOfType(td, llvm::LLVMTypeOf(element))
            } as usize;
            let end = out.len();
            write_constant(element, layout, &mut out[offset.min(end)..])?;
        }
        Ok(())
    }
}

/// Rebuilds appending global `name` as old elements + `new(element type)`.
fn append_to_appending_global(
    module: &Module<'_>,
    name: &str,
    default_element: LLVMTypeRef,
    section: Option<&str>,
    new: impl FnOnce(LLVMTypeRef) -> Vec<LLVMValueRef>,
) {
    let old = module.get_global(name);
    // SAFETY: raw queries and constant construction on live values of one
    // context; the old global has no users besides its name and is deleted
    // after the replacement takes its name.
    unsafe {
        let (element, mut elements) = match old {
            Some(g) => {
                let array = llvm::LLVMGlobalGetValueType(g.as_value_ref());
                let init = llvm::LLVMGetInitializer(g.as_value_ref());
                let old_elements = if init.is_null() {
                    Vec::new()
                } else {
                    aggregate_elements(init)
                };
                (llvm::LLVMGetElementType(array), old_elements)
            }
            None => (default_element, Vec::new()),
        };
        elements.extend(new(element));
        let array = llvm::LLVMConstArray2(element, elements.as_mut_ptr(), elements.len() as u64);
        let global =
            llvm::LLVMAddGlobal(module.as_mut_ptr(), llvm::LLVMTypeOf(array), c"".as_ptr());
        llvm::LLVMSetInitializer(global, array);
        llvm::LLVMSetLinkage(global, llvm_sys::LLVMLinkage::LLVMAppendingLinkage);
        if let Some(section) = section {
            let section = std::ffi::CString::new(section).expect("section name has no NUL");
            llvm::LLVMSetSection(global, section.as_ptr());
        }
        if let Some(old) = old {
            set_value_name(old, "");
            llvm::LLVMDeleteGlobal(old.as_value_ref());
        }
        llvm::LLVMSetValueName2(global, name.as_ptr().cast(), name.len());
    }
}

/// A constant holding exactly `bytes` in memory, built from the buffer
/// without copying it: `[N x i64]` words, with any tail bytes in a packed
/// `<{ [N x i64], [M x i8] }>`, when the target's byte order is the one this
/// process runs with (LLVM takes the words in host order), else `[N x i8]`.
pub fn const_byte_array<'ctx>(module: &Module<'ctx>, bytes: &[u8]) -> BasicValueEnum<'ctx> {
    let big_endian_target =
        target_data(module).get_byte_ordering() == inkwell::targets::ByteOrdering::BigEndian;
    let same_order = big_endian_target == cfg!(target_endian = "big");
    let whole = bytes.len() / 8 * 8;
    // SAFETY: the data pointers are valid for the lengths given; LLVM copies them.
    unsafe {
        let context = context_ref(module);
        let string = |part: &[u8]| {
            llvm::LLVMConstStringInContext2(context, part.as_ptr().cast(), part.len(), 1)
        };
        if !same_order || whole == 0 {
            return BasicValueEnum::new(string(bytes));
        }
        let words = llvm::LLVMConstDataArray(
            llvm::LLVMInt64TypeInContext(context),
            bytes.as_ptr().cast(),
            whole,
        );
        if whole == bytes.len() {
            return BasicValueEnum::new(words);
        }
        let mut parts = [words, string(&bytes[whole..])];
        BasicValueEnum::new(llvm::LLVMConstStructInContext(
            context,
            parts.as_mut_ptr(),
            2,
            1,
        ))
    }
}

/// The function holding an instruction.
pub fn instruction_function(inst: LLVMValueRef) -> LLVMValueRef {
    // SAFETY: the instruction is live and in a block.
    unsafe { llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(inst)) }
}

/// [`replace_all_uses`] for raw handles.
pub fn replace_all_uses_raw(old: LLVMValueRef, new: LLVMValueRef) {
    // SAFETY: both are live values of the same type in one context.
    unsafe { llvm::LLVMReplaceAllUsesWith(old, new) }
}

/// The addresses `#dbg_declare` records of `function` describe (a
/// declare's location is one value, never a list).
pub fn declared_addresses(function: LLVMValueRef) -> std::collections::HashSet<LLVMValueRef> {
    let mut out = std::collections::HashSet::new();
    // SAFETY: walks the blocks, instructions and debug records of a live function.
    unsafe {
        let mut block = llvm::LLVMGetFirstBasicBlock(function);
        while !block.is_null() {
            for inst in block_instructions(block) {
                let mut record = llvm::LLVMGetFirstDbgRecord(inst);
                while !record.is_null() {
                    if llvm::LLVMDbgRecordGetKind(record)
                        == llvm_sys::LLVMDbgRecordKind::LLVMDbgRecordDeclare
                    {
                        let value = llvm::LLVMDbgVariableRecordGetValue(record, 0);
                        if !value.is_null() {
                            out.insert(value);
                        }
                    }
                    record = llvm::LLVMGetNextDbgRecord(record);
                }
            }
            block = llvm::LLVMGetNextBasicBlock(block);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use inkwell::context::Context;
    use inkwell::values::AsValueRef;

    use super::{const_byte_array, constant_bytes, target_data};
    use crate::test_support::parse;

    #[test]
    fn const_byte_array_holds_exactly_the_bytes() {
        let context = Context::create();
        let module = parse(&context, "target datalayout = \"e-i64:64\"\n");
        let layout = target_data(&module);
        for len in [0usize, 3, 8, 11, 16, 1001] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
            let value = const_byte_array(&module, &bytes);
            assert_eq!(
                constant_bytes(value.as_value_ref(), &layout).unwrap(),
                bytes,
                "{len} bytes"
            );
        }
        // Whole words are i64s: the bitcode writer's cheap form.
        let words = const_byte_array(&module, &[1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(words.get_type().print_to_string().to_string(), "[1 x i64]");
    }
}
