//! Source-level parameter types from debug info.
//!
//! A front end that splits or indirects aggregates (rustc ≤ 1.95 for
//! `extern "gpu-kernel"`) leaves IR parameters whose source types the IR alone
//! cannot tell. The kernel's `DISubprogram` keeps a `DISubroutineType` whose
//! `types:` list holds every source parameter's type in order (after the
//! return type) even when optimisation turned the `#dbg_declare` records into
//! `ptr undef`; this module reads that list and flattens each type into its
//! scalar leaves (offset and size in bytes), which is what the ABI pass needs
//! to match IR parameters to source parameters.

use inkwell::module::Module;
use inkwell::values::FunctionValue;
use llvm_sys::debuginfo as di;
use llvm_sys::prelude::LLVMMetadataRef;

use crate::ir;

// DWARF tags (llvm/BinaryFormat/Dwarf.def).
const DW_TAG_ARRAY_TYPE: u16 = 0x01;
const DW_TAG_CLASS_TYPE: u16 = 0x02;
const DW_TAG_ENUMERATION_TYPE: u16 = 0x04;
const DW_TAG_MEMBER: u16 = 0x0d;
const DW_TAG_POINTER_TYPE: u16 = 0x0f;
const DW_TAG_REFERENCE_TYPE: u16 = 0x10;
const DW_TAG_STRUCTURE_TYPE: u16 = 0x13;
const DW_TAG_TYPEDEF: u16 = 0x16;
const DW_TAG_UNION_TYPE: u16 = 0x17;
const DW_TAG_INHERITANCE: u16 = 0x1c;
const DW_TAG_CONST_TYPE: u16 = 0x26;
const DW_TAG_VOLATILE_TYPE: u16 = 0x35;
const DW_TAG_RESTRICT_TYPE: u16 = 0x37;
const DW_TAG_RVALUE_REFERENCE_TYPE: u16 = 0x42;
const DW_TAG_ATOMIC_TYPE: u16 = 0x47;

// Operand positions in LLVM 22's DI nodes (DebugInfoMetadata.h): every DIType
// has 5 (file, scope, name, size, offset); derived and composite types keep
// their base type next, composites then their elements.
const DISUBPROGRAM_TYPE: usize = 4;
const DITYPE_BASE_TYPE: usize = 5;
const DICOMPOSITE_ELEMENTS: usize = 6;
const DISUBROUTINE_TYPE_ARRAY: usize = 5;

/// The kind of a scalar leaf: what IR parameter type can carry it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    Pointer,
    Value,
}

/// One scalar piece of a source type, at a byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    pub offset: u64,
    pub size: u64,
    pub kind: LeafKind,
}

/// A source parameter's type as debug info describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceType {
    /// Size and alignment in bytes (alignment 0 when debug info leaves it out).
    pub size: u64,
    pub align: u64,
    /// A struct, class, union or array (something a C ABI passes as an aggregate).
    pub is_aggregate: bool,
    /// Scalar leaves in layout order; `None` when the type has overlapping or
    /// variant storage (unions, Rust enums) and cannot be split into fields.
    pub leaves: Option<Vec<Leaf>>,
}

/// Source parameter types of `function`, in order, from its `DISubprogram`'s
/// subroutine type; `None` without debug info.
pub fn source_parameter_types(
    module: &Module<'_>,
    function: FunctionValue<'_>,
) -> Option<Vec<SourceType>> {
    let dbg = ir::md_kind(module, "dbg");
    let subprogram = ir::function_metadata(function, dbg)?;
    let subroutine = operand(module, subprogram, DISUBPROGRAM_TYPE)?;
    let types = operand(module, subroutine, DISUBROUTINE_TYPE_ARRAY)?;
    let list = ir::md_operands(module, types);
    // The first element is the return type (null for none).
    list.iter()
        .skip(1)
        .map(|&ty| source_type(module, ty))
        .collect()
}

fn operand(module: &Module<'_>, node: LLVMMetadataRef, index: usize) -> Option<LLVMMetadataRef> {
    ir::md_operands(module, node)
        .get(index)
        .copied()
        .filter(|md| !md.is_null())
}

/// The DWARF tag of a DI type; 0 for any other metadata (malformed debug
/// info must not reach LLVMGetDINodeTag, which assumes a DINode).
fn tag(node: LLVMMetadataRef) -> u16 {
    if !is_di_type(node) {
        return 0;
    }
    // SAFETY: `node` is a DI type, hence a DINode.
    unsafe { di::LLVMGetDINodeTag(node) }
}

fn is_di_type(node: LLVMMetadataRef) -> bool {
    use llvm_sys::debuginfo::LLVMMetadataKind::*;
    if node.is_null() {
        return false;
    }
    // SAFETY: any (non-null) metadata has a kind.
    let kind = unsafe { di::LLVMGetMetadataKind(node) };
    matches!(
        kind,
        LLVMDIBasicTypeMetadataKind
            | LLVMDIDerivedTypeMetadataKind
            | LLVMDICompositeTypeMetadataKind
            | LLVMDISubroutineTypeMetadataKind
            | LLVMDIStringTypeMetadataKind
    )
}

fn is_basic_type(node: LLVMMetadataRef) -> bool {
    // SAFETY: any metadata has a kind.
    let kind = unsafe { di::LLVMGetMetadataKind(node) };
    matches!(
        kind,
        llvm_sys::debuginfo::LLVMMetadataKind::LLVMDIBasicTypeMetadataKind
    )
}

fn size_bytes(node: LLVMMetadataRef) -> u64 {
    // SAFETY: `node` is a DIType.
    unsafe { di::LLVMDITypeGetSizeInBits(node) / 8 }
}

fn align_bytes(node: LLVMMetadataRef) -> u64 {
    // SAFETY: `node` is a DIType.
    unsafe { u64::from(di::LLVMDITypeGetAlignInBits(node)) / 8 }
}

fn offset_bytes(node: LLVMMetadataRef) -> u64 {
    // SAFETY: `node` is a DIType.
    unsafe { di::LLVMDITypeGetOffsetInBits(node) / 8 }
}

/// Looks through typedefs and qualifiers to the type that has the layout.
fn strip_qualifiers(module: &Module<'_>, mut node: LLVMMetadataRef) -> Option<LLVMMetadataRef> {
    while matches!(
        tag(node),
        DW_TAG_TYPEDEF
            | DW_TAG_CONST_TYPE
            | DW_TAG_VOLATILE_TYPE
            | DW_TAG_RESTRICT_TYPE
            | DW_TAG_ATOMIC_TYPE
    ) {
        node = operand(module, node, DITYPE_BASE_TYPE)?;
    }
    // Sizes and names are only read from DI types.
    is_di_type(node).then_some(node)
}

fn source_type(module: &Module<'_>, node: LLVMMetadataRef) -> Option<SourceType> {
    if node.is_null() || !is_di_type(node) {
        return None;
    }
    let node = strip_qualifiers(module, node)?;
    let is_aggregate = matches!(
        tag(node),
        DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE | DW_TAG_ARRAY_TYPE | DW_TAG_UNION_TYPE
    );
    let mut leaves = Vec::new();
    let leaves = flatten(module, node, 0, &mut leaves, 0).then_some(leaves);
    Some(SourceType {
        size: size_bytes(node),
        align: align_bytes(node),
        is_aggregate,
        leaves,
    })
}

/// Appends the scalar leaves of `node` placed at `base`; false when the type
/// cannot be split (unions, variant parts, unknown shapes, deep nesting).
fn flatten(
    module: &Module<'_>,
    node: LLVMMetadataRef,
    base: u64,
    out: &mut Vec<Leaf>,
    depth: u32,
) -> bool {
    if depth > 32 || out.len() > 4096 {
        return false;
    }
    let Some(node) = strip_qualifiers(module, node) else {
        return false;
    };
    let size = size_bytes(node);
    match tag(node) {
        DW_TAG_POINTER_TYPE | DW_TAG_REFERENCE_TYPE | DW_TAG_RVALUE_REFERENCE_TYPE => {
            out.push(Leaf {
                offset: base,
                size,
                kind: LeafKind::Pointer,
            });
            true
        }
        DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE => {
            let Some(elements) = operand(module, node, DICOMPOSITE_ELEMENTS) else {
                return size == 0;
            };
            ir::md_operands(module, elements).into_iter().all(|member| {
                if member.is_null() || !is_di_type(member) {
                    // Subprograms and template parameters carry no storage.
                    return true;
                }
                match tag(member) {
                    DW_TAG_MEMBER | DW_TAG_INHERITANCE => {
                        match operand(module, member, DITYPE_BASE_TYPE) {
                            Some(base_type) => flatten(
                                module,
                                base_type,
                                base + offset_bytes(member),
                                out,
                                depth + 1,
                            ),
                            None => false,
                        }
                    }
                    _ => false,
                }
            })
        }
        DW_TAG_ARRAY_TYPE => {
            let Some(element) = operand(module, node, DITYPE_BASE_TYPE) else {
                return false;
            };
            let stride = strip_qualifiers(module, element)
                .map(size_bytes)
                .unwrap_or(0);
            if stride == 0 {
                return size == 0;
            }
            (0..size / stride).all(|i| flatten(module, element, base + i * stride, out, depth + 1))
        }
        DW_TAG_ENUMERATION_TYPE => {
            out.push(Leaf {
                offset: base,
                size,
                kind: LeafKind::Value,
            });
            true
        }
        _ if is_basic_type(node) => {
            out.push(Leaf {
                offset: base,
                size,
                kind: LeafKind::Value,
            });
            true
        }
        // Unions, Rust enums (variant parts) and the like have no single field list.
        _ => false,
    }
}
