//! Debug info: typed views of the DI nodes the passes read
//! ([`DiSubprogram`], [`DiType`]) and the `#dbg_declare` records in front
//! of instructions.
//!
//! Debug info is untrusted input: a view is made only after the node's
//! metadata kind was checked, so its accessors (the C API's, and those of
//! `llvm_ext.cpp` where the C API has none) are called on the class they
//! expect. Nodes a view leads to (base types, elements, the subprogram's
//! type list) come back as plain [`Metadata`], for the caller to check in
//! turn.

use inkwell::values::FunctionValue;
use llvm_sys::LLVMDbgRecordKind;
use llvm_sys::core as llvm;
use llvm_sys::debuginfo::{self as di, LLVMMetadataKind};

use super::ffi;
use super::handles::{Metadata, Value};
use super::metadata;

/// A `DISubprogram`: a function's debug info.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiSubprogram<'ctx>(Metadata<'ctx>);

impl<'ctx> DiSubprogram<'ctx> {
    /// The `!dbg` attachment of `function`, if it is a `DISubprogram`.
    pub fn of(function: FunctionValue<'ctx>) -> Option<Self> {
        let node = metadata::attachment_of_kind(function, metadata::DBG)?;
        matches!(kind(node), LLVMMetadataKind::LLVMDISubprogramMetadataKind)
            .then_some(DiSubprogram(node))
    }

    /// The optimized flag (rustc and clang set it from the optimization
    /// level).
    pub fn is_optimized(self) -> bool {
        // SAFETY: the node is live; the accessor checks its class.
        unsafe { ffi::offload_di_subprogram_is_optimized(self.0.as_raw()) != 0 }
    }

    /// The type list of the subprogram's `DISubroutineType`: the return
    /// type (`None` for none), then each source parameter's type in order.
    /// `None` without a subroutine type or type list (`-Cdebuginfo=1`).
    pub fn signature_types(self) -> Option<Vec<Option<Metadata<'ctx>>>> {
        // SAFETY: the accessors take any live metadata, check its class and
        // return null or a live node of the same context.
        let list = unsafe {
            let subroutine = ffi::offload_di_subprogram_type(self.0.as_raw());
            Metadata::from_raw_opt(ffi::offload_di_subroutine_types(subroutine))
        }?;
        Some(tuple(list))
    }
}

/// A DI type: a basic, derived (typedef, qualifier, pointer, member),
/// composite (struct, class, union, array, enum, variant part),
/// subroutine or string type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiType<'ctx>(Metadata<'ctx>);

impl<'ctx> DiType<'ctx> {
    /// `node` as a DI type, if it is one.
    pub fn of(node: Metadata<'ctx>) -> Option<Self> {
        use LLVMMetadataKind::*;
        matches!(
            kind(node),
            LLVMDIBasicTypeMetadataKind
                | LLVMDIDerivedTypeMetadataKind
                | LLVMDICompositeTypeMetadataKind
                | LLVMDISubroutineTypeMetadataKind
                | LLVMDIStringTypeMetadataKind
        )
        .then_some(DiType(node))
    }

    /// The DWARF tag (`DW_TAG_*`).
    pub fn tag(self) -> u16 {
        // SAFETY: a DI type is a DINode.
        unsafe { di::LLVMGetDINodeTag(self.0.as_raw()) }
    }

    /// The size in bytes (whole bytes of the size in bits).
    pub fn size_bytes(self) -> u64 {
        // SAFETY: the node is a DIType.
        unsafe { di::LLVMDITypeGetSizeInBits(self.0.as_raw()) / 8 }
    }

    /// The alignment in bytes; 0 when debug info leaves it out.
    pub fn align_bytes(self) -> u64 {
        // SAFETY: the node is a DIType.
        unsafe { u64::from(di::LLVMDITypeGetAlignInBits(self.0.as_raw())) / 8 }
    }

    /// The offset in bytes of a member in its aggregate.
    pub fn offset_bytes(self) -> u64 {
        // SAFETY: the node is a DIType.
        unsafe { di::LLVMDITypeGetOffsetInBits(self.0.as_raw()) / 8 }
    }

    /// The base type of a derived type (what a typedef, qualifier, pointer
    /// or member refers to) or of a composite (an array's element type, an
    /// enum's underlying type).
    pub fn base_type(self) -> Option<Metadata<'ctx>> {
        // SAFETY: the accessor checks the node's class; the result is a
        // live node of the same context, or null.
        unsafe { Metadata::from_raw_opt(ffi::offload_di_base_type(self.0.as_raw())) }
    }

    /// The non-null elements of a composite type (members, enumerators,
    /// variant parts, subprograms, template parameters); `None` for another
    /// class or a composite without an element list.
    pub fn elements(self) -> Option<Vec<Metadata<'ctx>>> {
        // SAFETY: the accessor checks the node's class; the result is a
        // live tuple of the same context, or null.
        let list =
            unsafe { Metadata::from_raw_opt(ffi::offload_di_composite_elements(self.0.as_raw())) }?;
        Some(tuple(list).into_iter().flatten().collect())
    }

    /// True for a variant part (`DW_TAG_variant_part`, the variants of a
    /// Rust enum): storage that is no list of fields.
    pub fn is_variant_part(self) -> bool {
        // SAFETY: the accessor checks the node's class.
        unsafe { ffi::offload_di_is_variant_part(self.0.as_raw()) != 0 }
    }

    /// The discriminator member of a variant part: the member holding a
    /// Rust enum's tag, or the niche field's bytes.
    pub fn discriminator(self) -> Option<Metadata<'ctx>> {
        // SAFETY: the accessor checks the node's class; the result is a
        // live node of the same context, or null.
        unsafe { Metadata::from_raw_opt(ffi::offload_di_discriminator(self.0.as_raw())) }
    }

    /// True for a basic type (an integer, float, bool or char).
    pub fn is_basic(self) -> bool {
        matches!(kind(self.0), LLVMMetadataKind::LLVMDIBasicTypeMetadataKind)
    }

    /// A basic type's `DW_ATE_*` encoding; 0 for other types.
    pub fn basic_encoding(self) -> u32 {
        // SAFETY: the accessor checks the node's class.
        unsafe { ffi::offload_di_basic_encoding(self.0.as_raw()) }
    }
}

impl<'ctx> From<DiType<'ctx>> for Metadata<'ctx> {
    fn from(ty: DiType<'ctx>) -> Self {
        ty.0
    }
}

impl<'ctx> Value<'ctx> {
    /// The addresses the `#dbg_declare` records in front of this
    /// instruction describe (a declare's location is one value, never a
    /// list); empty for other values.
    pub fn dbg_declare_addresses(self) -> Vec<Value<'ctx>> {
        let mut out = Vec::new();
        if !self.is_instruction() {
            return out;
        }
        // SAFETY: walks the debug records of a live instruction; a
        // declare's location operand is a live value, or null when erased.
        unsafe {
            let mut record = llvm::LLVMGetFirstDbgRecord(self.as_raw());
            while !record.is_null() {
                if llvm::LLVMDbgRecordGetKind(record) == LLVMDbgRecordKind::LLVMDbgRecordDeclare
                    && let Some(address) =
                        Value::from_raw_opt(llvm::LLVMDbgVariableRecordGetValue(record, 0))
                {
                    out.push(address);
                }
                record = llvm::LLVMGetNextDbgRecord(record);
            }
        }
        out
    }
}

fn kind(node: Metadata<'_>) -> LLVMMetadataKind {
    // SAFETY: any live metadata has a kind.
    unsafe { di::LLVMGetMetadataKind(node.as_raw()) }
}

/// The operands of a metadata tuple (null entries as `None`).
fn tuple(tuple: Metadata<'_>) -> Vec<Option<Metadata<'_>>> {
    // SAFETY: the accessors check the node is an MDTuple and bound the
    // index; operands are live nodes of the same context, or null.
    unsafe {
        (0..ffi::offload_di_tuple_size(tuple.as_raw()))
            .map(|i| Metadata::from_raw_opt(ffi::offload_di_tuple_at(tuple.as_raw(), i)))
            .collect()
    }
}
