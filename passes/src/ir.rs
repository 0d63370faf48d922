//! IR helpers shared by the passes: kernel discovery, parameter attributes,
//! metadata access and the few operations inkwell 0.11 does not wrap
//! (`LLVMGlobalCopyAllMetadata`, a generic `replaceAllUsesWith`, moving a
//! function body). Raw `llvm-sys` calls live here so the passes read as IR
//! transformations, not FFI.
//!
//! Helpers that take raw handles (`LLVMValueRef`, `LLVMTypeRef`,
//! `LLVMMetadataRef`) are safe functions with one contract, the same one
//! inkwell's value handles rely on: the handle comes from a live object of the
//! module being transformed. Hence the module-wide allow below.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::CStr;

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

/// The kind id of an enum or type attribute by its IR spelling (`byref`, `align`).
pub fn attr_kind(name: &str) -> u32 {
    let kind = Attribute::get_named_enum_kind_id(name);
    debug_assert!(kind != 0, "unknown attribute name {name}");
    kind
}

/// The value of enum attribute `name` on parameter `index`, if present.
pub fn param_enum_attr(function: FunctionValue<'_>, index: u32, name: &str) -> Option<u64> {
    function
        .get_enum_attribute(AttributeLoc::Param(index), attr_kind(name))
        .map(|a| a.get_enum_value())
}

/// The type of type attribute `name` (`byref`, `byval`, ...) on parameter `index`.
pub fn param_type_attr<'ctx>(
    function: FunctionValue<'ctx>,
    index: u32,
    name: &str,
) -> Option<AnyTypeEnum<'ctx>> {
    function
        .get_enum_attribute(AttributeLoc::Param(index), attr_kind(name))
        // SAFETY: a type attribute's value is a type of the function's context.
        .map(|a| unsafe { AnyTypeEnum::new(llvm::LLVMGetTypeAttributeValue(a.as_mut_ptr())) })
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
    // SAFETY: `node` is an MDNode of this context; operands are copied out.
    unsafe {
        let ctx = context_ref(module);
        let value = llvm::LLVMMetadataAsValue(ctx, node);
        if llvm::LLVMIsAMDNode(value).is_null() {
            return Vec::new();
        }
        let count = llvm::LLVMGetMDNodeNumOperands(value) as usize;
        let mut operands: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); count];
        llvm::LLVMGetMDNodeOperands(value, operands.as_mut_ptr());
        operands
            .into_iter()
            .map(|v| {
                if v.is_null() {
                    std::ptr::null_mut()
                } else {
                    llvm::LLVMValueAsMetadata(v)
                }
            })
            .collect()
    }
}

/// The integer a `ConstantAsMetadata` holds (`i32 3` in `!{i32 3}`), if it is one.
pub fn md_integer(module: &Module<'_>, md: LLVMMetadataRef) -> Option<u64> {
    if md.is_null() {
        return None;
    }
    // SAFETY: the metadata belongs to this module's context.
    unsafe {
        let value = llvm::LLVMMetadataAsValue(context_ref(module), md);
        let constant = llvm::LLVMIsAConstantInt(value);
        (!constant.is_null()).then(|| llvm::LLVMConstIntGetZExtValue(constant))
    }
}

/// The text of an `MDString`, if `md` is one.
pub fn md_string(module: &Module<'_>, md: LLVMMetadataRef) -> Option<String> {
    if md.is_null() {
        return None;
    }
    // SAFETY: as above; the string is copied out.
    unsafe {
        let value = llvm::LLVMMetadataAsValue(context_ref(module), md);
        if llvm::LLVMIsAMDString(value).is_null() {
            return None;
        }
        let mut len = 0u32;
        let ptr = llvm::LLVMGetMDString(value, &mut len);
        let bytes = std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Prints a type as IR text (for messages and logs).
pub fn type_text(ty: impl AsTypeRef) -> String {
    // SAFETY: LLVMPrintTypeToString returns an owned C string we free.
    unsafe {
        let raw = llvm::LLVMPrintTypeToString(ty.as_type_ref());
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        llvm::LLVMDisposeMessage(raw);
        text
    }
}

/// Raw type handle of any inkwell type.
pub fn raw_type(ty: impl AsTypeRef) -> LLVMTypeRef {
    ty.as_type_ref()
}

/// The text of an instruction's or value's name (empty when unnamed).
pub fn value_name(value: impl AsValueRef) -> String {
    // SAFETY: the returned pointer is valid for `len` bytes while the value lives.
    unsafe {
        let mut len = 0usize;
        let ptr = llvm::LLVMGetValueName2(value.as_value_ref(), &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(ptr.cast::<u8>(), len)).into_owned()
    }
}

/// Renames a value (an empty name makes it unnamed).
pub fn set_value_name(value: impl AsValueRef, name: &str) {
    // SAFETY: the name is passed with its length.
    unsafe { llvm::LLVMSetValueName2(value.as_value_ref(), name.as_ptr().cast(), name.len()) }
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

/// Signature surgery shared by the passes that change a kernel's parameters
/// (`amdgpu-kernel-abi`, `offload-wrap-kernels`).
///
/// [`SignatureRewrite::begin`] creates a function with the new parameter types
/// and the old one's calling convention, linkage, visibility, DLL storage,
/// unnamed_addr, section, alignment, comdat, GC, personality, function and
/// return attributes and every metadata attachment (`!dbg` included), and
/// moves the body into it. The caller then builds, at the top of the entry
/// block, a replacement for each old parameter and calls
/// [`SignatureRewrite::replace_param`]; [`SignatureRewrite::finish`] moves the
/// name over, redirects other uses of the old function (`llvm.used`, aliases)
/// and erases it.
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
            return Err(format!(
                "kernel '{name}' is called from IR; a kernel's signature can only change when the runtime alone launches it"
            ));
        }
        let new = module.add_function(
            &format!("{name}.offload.new"),
            new_type,
            Some(old.get_linkage()),
        );
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

    /// A builder placed before the first instruction of the new entry block,
    /// where parameter replacements go.
    pub fn entry_builder(&self, module: &Module<'ctx>) -> inkwell::builder::Builder<'ctx> {
        let builder = module.get_context().create_builder();
        let entry = self
            .new
            .get_first_basic_block()
            .expect("moved body has an entry block");
        match entry.get_first_instruction() {
            Some(first) => builder.position_before(&first),
            None => builder.position_at_end(entry),
        }
        builder
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

    /// Gives the new function the old one's name and uses, and erases the old one.
    pub fn finish(self) -> FunctionValue<'ctx> {
        let name = value_name(self.old);
        set_value_name(self.old, "");
        set_value_name(self.new, &name);
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
    if old.has_personality_function()
        && let Some(personality) = old.get_personality_function()
    {
        new.set_personality_function(personality);
    }
    let gc = old.get_gc().to_string_lossy().into_owned();
    if !gc.is_empty() {
        new.set_gc(&gc);
    }
    for (kind, md) in global_metadata(old) {
        // SAFETY: both functions live in one context; the node is shared.
        unsafe { llvm::LLVMGlobalSetMetadata(new.as_value_ref(), kind, md) };
    }
}

// ---------------------------------------------------------------------------
// Call sites, constants, appending globals and module flags (used by
// `offload-host`).

/// The function a call or invoke calls directly (`None` for indirect calls
/// and for instructions that are not calls).
pub fn called_function<'ctx>(inst: InstructionValue<'ctx>) -> Option<FunctionValue<'ctx>> {
    // SAFETY: `inst` is a live instruction; the callee is checked to be a function.
    unsafe {
        let raw = inst.as_value_ref();
        if llvm::LLVMIsACallInst(raw).is_null() && llvm::LLVMIsAInvokeInst(raw).is_null() {
            return None;
        }
        let callee = llvm::LLVMGetCalledValue(raw);
        if callee.is_null() || llvm::LLVMIsAFunction(callee).is_null() {
            return None;
        }
        FunctionValue::new(callee)
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
                if let Some(callee) = called_function(inst) {
                    calls.push((caller, inst, callee));
                }
            }
        }
    }
    calls
}

/// The call's argument operands (without the callee).
pub fn call_arguments<'ctx>(call: InstructionValue<'ctx>) -> Vec<BasicValueEnum<'ctx>> {
    // SAFETY: `call` is a live call or invoke; argument operands come first.
    unsafe {
        let raw = call.as_value_ref();
        (0..llvm::LLVMGetNumArgOperands(raw))
            .map(|i| BasicValueEnum::new(llvm::LLVMGetOperand(raw, i)))
            .collect()
    }
}

/// Attribute `name` on argument `index` of a call site, else on parameter
/// `index` of the callee (front ends put them on either or both).
pub fn call_param_attr(
    call: InstructionValue<'_>,
    callee: FunctionValue<'_>,
    index: u32,
    name: &str,
) -> Option<Attribute> {
    let kind = attr_kind(name);
    // SAFETY: a live call; attribute index 1 + n is argument n.
    let at_call =
        unsafe { llvm::LLVMGetCallSiteEnumAttribute(call.as_value_ref(), index + 1, kind) };
    if !at_call.is_null() {
        // SAFETY: a non-null attribute reference from LLVM.
        return Some(unsafe { Attribute::new(at_call) });
    }
    if index < callee.count_params() {
        callee.get_enum_attribute(AttributeLoc::Param(index), kind)
    } else {
        None
    }
}

/// The integer value of attribute `name` (`dereferenceable(N)`) on a call argument.
pub fn call_param_int_attr(
    call: InstructionValue<'_>,
    callee: FunctionValue<'_>,
    index: u32,
    name: &str,
) -> Option<u64> {
    call_param_attr(call, callee, index, name).map(|a| a.get_enum_value())
}

/// The type of type attribute `name` (`byval(T)`) on a call argument.
pub fn call_param_type_attr<'ctx>(
    call: InstructionValue<'ctx>,
    callee: FunctionValue<'ctx>,
    index: u32,
    name: &str,
) -> Option<AnyTypeEnum<'ctx>> {
    call_param_attr(call, callee, index, name)
        // SAFETY: a type attribute's value is a type of the call's context.
        .map(|a| unsafe { AnyTypeEnum::new(llvm::LLVMGetTypeAttributeValue(a.as_mut_ptr())) })
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

fn type_text_raw(ty: LLVMTypeRef) -> String {
    // SAFETY: LLVMPrintTypeToString returns an owned C string we free.
    unsafe {
        let raw = llvm::LLVMPrintTypeToString(ty);
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        llvm::LLVMDisposeMessage(raw);
        text
    }
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

/// A builder at the top of `function`'s entry block, where allocas belong
/// (so that they are static and not repeated in loops).
pub fn entry_builder<'ctx>(function: FunctionValue<'ctx>) -> inkwell::builder::Builder<'ctx> {
    let builder = function.get_type().get_context().create_builder();
    if let Some(entry) = function.get_first_basic_block() {
        match entry.get_first_instruction() {
            Some(first) => builder.position_before(&first),
            None => builder.position_at_end(entry),
        }
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
