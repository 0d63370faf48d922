//! Types: printing, the kinds inkwell can wrap, fixed sizes, pointer
//! address spaces and the data layout's sizes.

use std::ffi::CStr;

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;

/// A type's kind, as LLVM's C API names them.
pub use llvm_sys::LLVMTypeKind as TypeKind;

use super::handles::Type;

impl<'ctx> Type<'ctx> {
    pub fn kind(self) -> TypeKind {
        // SAFETY: reads the kind of a live type.
        unsafe { llvm::LLVMGetTypeKind(self.as_raw()) }
    }

    /// The type as IR text; a named struct as `%name`, not its body.
    pub fn text(self) -> String {
        // SAFETY: a named struct's name is owned by the type; the printed
        // string is owned by us and freed.
        unsafe {
            if self.kind() == TypeKind::LLVMStructTypeKind {
                let name = llvm::LLVMGetStructName(self.as_raw());
                if !name.is_null() {
                    return format!("%{}", CStr::from_ptr(name).to_string_lossy());
                }
            }
            let raw = llvm::LLVMPrintTypeToString(self.as_raw());
            let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
            llvm::LLVMDisposeMessage(raw);
            text
        }
    }

    /// True for the kinds inkwell wraps as a `BasicTypeEnum` (it panics on
    /// the others: `x86_amx`, `target(...)`, `token`, `label`, ...).
    pub fn is_basic(self) -> bool {
        use TypeKind::*;
        matches!(
            self.kind(),
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

    /// The inkwell view, for the kinds inkwell wraps.
    pub fn as_basic(self) -> Option<BasicTypeEnum<'ctx>> {
        // SAFETY: the kind is one BasicTypeEnum wraps.
        self.is_basic()
            .then(|| unsafe { BasicTypeEnum::new(self.as_raw()) })
    }

    /// True if values of the type have a size known at compile time: false
    /// for scalable vectors, target extension types, opaque structs and
    /// aggregates holding any of them (asking `TargetData` for their size is
    /// a fatal LLVM error, not a recoverable one).
    pub fn has_fixed_size(self) -> bool {
        use TypeKind::*;
        // SAFETY: reads the element types of a live struct, array or vector.
        unsafe {
            match self.kind() {
                LLVMStructTypeKind => {
                    if llvm::LLVMIsOpaqueStruct(self.as_raw()) != 0 {
                        return false;
                    }
                    let count = llvm::LLVMCountStructElementTypes(self.as_raw());
                    (0..count).all(|i| {
                        Type::from_raw(llvm::LLVMStructGetTypeAtIndex(self.as_raw(), i))
                            .has_fixed_size()
                    })
                }
                LLVMArrayTypeKind | LLVMVectorTypeKind => {
                    Type::from_raw(llvm::LLVMGetElementType(self.as_raw())).has_fixed_size()
                }
                kind => self.is_basic() && kind != LLVMScalableVectorTypeKind,
            }
        }
    }

    /// The innermost type without a fixed size in this one (itself, or an
    /// element or field, recursively); `None` when the size is fixed.
    pub fn first_without_fixed_size(self) -> Option<Type<'ctx>> {
        use TypeKind::*;
        if self.has_fixed_size() {
            return None;
        }
        // SAFETY: element types of a live struct, array or vector.
        let inner = unsafe {
            match self.kind() {
                LLVMStructTypeKind if llvm::LLVMIsOpaqueStruct(self.as_raw()) == 0 => (0
                    ..llvm::LLVMCountStructElementTypes(self.as_raw()))
                    .map(|i| Type::from_raw(llvm::LLVMStructGetTypeAtIndex(self.as_raw(), i)))
                    .find_map(Type::first_without_fixed_size),
                LLVMArrayTypeKind | LLVMVectorTypeKind => {
                    Type::from_raw(llvm::LLVMGetElementType(self.as_raw()))
                        .first_without_fixed_size()
                }
                _ => None,
            }
        };
        Some(inner.unwrap_or(self))
    }

    /// The inkwell view of a type with a fixed size (see [`Self::has_fixed_size`]).
    pub fn fixed_size(self) -> Option<BasicTypeEnum<'ctx>> {
        self.has_fixed_size().then(|| self.as_basic()).flatten()
    }

    /// The address space of a scalar pointer type; `None` for anything else
    /// (vectors of pointers included).
    pub fn pointer_address_space(self) -> Option<u32> {
        // SAFETY: a pointer type's address space.
        (self.kind() == TypeKind::LLVMPointerTypeKind)
            .then(|| unsafe { llvm::LLVMGetPointerAddressSpace(self.as_raw()) })
    }
}

/// `ptr addrspace(address_space)` in the module's context.
pub fn pointer<'ctx>(module: &Module<'ctx>, address_space: u32) -> Type<'ctx> {
    // SAFETY: a pointer type of the module's live context.
    unsafe {
        Type::from_raw(llvm::LLVMPointerTypeInContext(
            llvm::LLVMGetModuleContext(module.as_mut_ptr()),
            address_space,
        ))
    }
}

/// The module's data layout (sizes and ABI alignments).
pub fn target_data(module: &Module<'_>) -> TargetData {
    let layout = module.get_data_layout();
    TargetData::create(layout.as_str().to_str().unwrap_or(""))
}

/// The address space of `alloca`s: the data layout's `A<n>` item (0 when absent).
pub fn alloca_address_space(module: &Module<'_>) -> u32 {
    let layout = module.get_data_layout();
    let text = layout.as_str().to_string_lossy().into_owned();
    text.split('-')
        .filter_map(|item| item.strip_prefix('A'))
        .find_map(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The parameter types of a function, as handles (never panics, whatever
/// the types).
pub fn param_types<'ctx>(function: FunctionValue<'ctx>) -> Vec<Type<'ctx>> {
    let fn_type = Type::from(function.get_type()).as_raw();
    // SAFETY: the parameter types of a live function type are copied out;
    // each is a live, non-null type.
    unsafe {
        let count = llvm::LLVMCountParamTypes(fn_type) as usize;
        let mut types = vec![std::ptr::null_mut(); count];
        llvm::LLVMGetParamTypes(fn_type, types.as_mut_ptr());
        types.into_iter().map(|t| Type::from_raw(t)).collect()
    }
}

/// The type of parameter `index` (read from the argument: no list of every
/// parameter type is made); `None` when out of range.
pub fn param_type<'ctx>(function: FunctionValue<'ctx>, index: u32) -> Option<Type<'ctx>> {
    super::naming::param(function, index).map(|param| param.ty())
}

/// The type of parameter `index` as inkwell wraps it; `None` when out of
/// range or of a kind inkwell cannot wrap.
pub fn param_basic_type<'ctx>(
    function: FunctionValue<'ctx>,
    index: u32,
) -> Option<BasicTypeEnum<'ctx>> {
    param_type(function, index)?.as_basic()
}

/// The first parameter (index, type) that inkwell cannot wrap (`x86_amx`,
/// `target(...)`): check with this before inkwell's `get_param_types` on
/// untrusted input.
pub fn first_opaque_param<'ctx>(function: FunctionValue<'ctx>) -> Option<(u32, Type<'ctx>)> {
    param_types(function)
        .into_iter()
        .enumerate()
        .find(|(_, ty)| !ty.is_basic())
        .map(|(index, ty)| (index as u32, ty))
}

/// The named struct type `name` with body `fields`: the existing one when the
/// context already has it with that body, else a new one (LLVM adds a suffix
/// to the name if it is taken by a different body).
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

/// The alignment known for `base_align`-aligned memory at byte `offset`:
/// the largest power of two dividing both (also what an access aligned to
/// `base_align` at `offset` says of its base).
pub fn common_alignment(base_align: u64, offset: u64) -> u64 {
    let base = base_align.max(1);
    if offset == 0 {
        base
    } else {
        base.min(1 << offset.trailing_zeros())
    }
}

/// An alignment for `LLVMSetAlignment` (a `u32`): LLVM allows up to 2^32 on
/// attributes; a larger one is clamped down, which only promises less.
pub fn align_u32(align: u64) -> u32 {
    align.clamp(1, 1 << 31) as u32
}

/// `[size x i8]`, for any 64-bit size (inkwell's `array_type` takes a `u32`).
pub fn byte_array<'ctx>(module: &Module<'ctx>, size: u64) -> BasicTypeEnum<'ctx> {
    let i8_type = Type::from(module.get_context().i8_type());
    // SAFETY: an array type of a live type of the module's context.
    unsafe { Type::from_raw(llvm::LLVMArrayType2(i8_type.as_raw(), size)) }
        .as_basic()
        .expect("an array type")
}

#[cfg(test)]
mod tests {
    use super::common_alignment;

    #[test]
    fn the_alignment_at_an_offset() {
        assert_eq!(common_alignment(8, 0), 8);
        assert_eq!(common_alignment(4, 12), 4);
        assert_eq!(common_alignment(8, 12), 4);
        assert_eq!(common_alignment(8, 48), 8);
        assert_eq!(common_alignment(0, 3), 1);
    }
}
