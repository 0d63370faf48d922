//! Source-level parameter types from debug info.
//!
//! rustc ≤ 1.95 splits or indirects the aggregates of `extern "gpu-kernel"`
//! functions, leaving IR parameters whose source types the IR alone cannot
//! tell. The kernel's `DISubprogram` keeps a `DISubroutineType` whose type
//! list holds every source parameter's type in order (after the return type)
//! even when optimisation turned the `#dbg_declare` records into `ptr undef`.
//! This module reads that list through the DI classes' accessors (in
//! `ir/llvm_ext.cpp`: the C API has none for these) and flattens each type
//! into scalar leaves (offset, size, kind), which is what matching IR
//! parameters to source parameters needs.
//!
//! Debug info is untrusted input: every walk is bounded (type cycles through
//! typedefs or members, huge arrays, empty element lists), and sizes,
//! offsets and alignments are checked against each other. What does not hold
//! together is a [`DebugInfoError`]; the planner then falls back to what the
//! IR proves and tells the user.

use inkwell::values::FunctionValue;
use llvm_sys::debuginfo as di;
use llvm_sys::prelude::LLVMMetadataRef;

use crate::ir::{Metadata, metadata};

unsafe extern "C" {
    // In ir/llvm_ext.cpp; each returns null (0) for a node of another class.
    fn offload_di_subprogram_type(subprogram: LLVMMetadataRef) -> LLVMMetadataRef;
    fn offload_di_subroutine_types(subroutine: LLVMMetadataRef) -> LLVMMetadataRef;
    fn offload_di_composite_elements(composite: LLVMMetadataRef) -> LLVMMetadataRef;
    fn offload_di_tuple_size(tuple: LLVMMetadataRef) -> u32;
    fn offload_di_tuple_at(tuple: LLVMMetadataRef, index: u32) -> LLVMMetadataRef;
    fn offload_di_base_type(ty: LLVMMetadataRef) -> LLVMMetadataRef;
    fn offload_di_is_variant_part(ty: LLVMMetadataRef) -> i32;
    fn offload_di_basic_encoding(ty: LLVMMetadataRef) -> u32;
    fn offload_di_subprogram_is_optimized(subprogram: LLVMMetadataRef) -> i32;
    fn offload_di_discriminator(variant_part: LLVMMetadataRef) -> LLVMMetadataRef;
}

// DWARF tags and encodings (llvm/BinaryFormat/Dwarf.def).
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
const DW_ATE_FLOAT: u32 = 0x04;

/// Bounds on one parameter's walk: nested types, leaves, nodes visited.
const MAX_DEPTH: u32 = 64;
const MAX_LEAVES: usize = 4096;
const MAX_NODES: u32 = 20_000;
/// Typedef and qualifier hops before a type with a layout.
const MAX_QUALIFIERS: u32 = 64;

/// What IR type can carry a scalar leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    Pointer,
    Integer,
    Float,
}

/// One scalar piece of a source type, at a byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    pub offset: u64,
    pub size: u64,
    pub kind: LeafKind,
    /// For a pointer: the alignment of what it points at (0 unknown).
    pub pointee_align: u64,
}

/// The shape of a source type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A struct or class: its fields are `leaves`.
    Struct,
    Array,
    /// A union or a Rust enum (a variant part): overlapping storage.
    Variants,
    /// A Rust enum whose only data is one pointer filling it, with the other
    /// variants empty (`Option<&T>`, `Option<NonNull<T>>`, `Option<Box<T>>`):
    /// rustc passes it as that pointer (its niche is the null value).
    PointerNiche,
    /// A scalar, pointer or C-like enum.
    Scalar,
}

/// A source parameter's type as debug info describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceType {
    /// Size and alignment in bytes (alignment 0 when debug info leaves it out).
    pub size: u64,
    pub align: u64,
    pub shape: Shape,
    /// Scalar leaves in layout order; `None` when the storage is not one
    /// list of fields (unions, Rust enums) or too large to list.
    pub leaves: Option<Vec<Leaf>>,
}

impl SourceType {
    /// A struct, class, union, array or enum with variants: what a C ABI
    /// passes as an aggregate.
    pub fn is_aggregate(&self) -> bool {
        self.shape != Shape::Scalar
    }
}

/// Debug info that does not describe a type consistently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugInfoError {
    /// The source parameter (0-based, in the subroutine type's order).
    pub param: usize,
    pub why: String,
}

impl std::fmt::Display for DebugInfoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "debug info of source parameter {}: {}", self.param, self.why)
    }
}

/// A kernel's source parameters as its `DISubprogram` lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sources {
    pub params: Vec<SourceType>,
    /// The subprogram's optimized flag: rustc marks every by-value
    /// aggregate it passes indirectly `dead_on_return` when optimizing, so
    /// only unoptimized IR has bare `ptr align A` aggregates.
    pub optimized: bool,
}

/// Source parameter types of `function`, in order, from its `DISubprogram`;
/// `Ok(None)` without debug info (or without a type list: `-Cdebuginfo=1`).
pub fn source_parameter_types(function: FunctionValue<'_>) -> Result<Option<Sources>, DebugInfoError> {
    let Some(subprogram) = metadata::attachment_of_kind(function, metadata::DBG) else {
        return Ok(None);
    };
    // SAFETY: the accessor takes any metadata and checks its class.
    let optimized = unsafe { offload_di_subprogram_is_optimized(subprogram.as_raw()) } != 0;
    // SAFETY: the accessors take any metadata and return null for other
    // classes; results are live nodes of the same context.
    let list = unsafe {
        let subroutine = offload_di_subprogram_type(subprogram.as_raw());
        offload_di_subroutine_types(subroutine)
    };
    // SAFETY: a null list is none; a tuple's operands are live (or null).
    let Some(list) = (unsafe { Metadata::from_raw_opt(list) }) else {
        return Ok(None);
    };
    let types = tuple(list);
    if types.len() <= 1 {
        return Ok(None);
    }
    // The first element is the return type (null for none).
    types[1..]
        .iter()
        .enumerate()
        .map(|(param, ty)| {
            let mut walk = Walk::default();
            walk.source_type(*ty)
                .map_err(|why| DebugInfoError { param, why })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|params| Some(Sources { params, optimized }))
}

/// How unoptimized code declares parameter `index`'s variable: `Some(true)`
/// when a `#dbg_declare` names the parameter itself (the parameter is the
/// variable's address: passed indirectly), `Some(false)` when it names an
/// alloca the parameter is stored to (passed by value), `None` when neither
/// is seen.
pub fn declared_at_parameter(function: FunctionValue<'_>, index: u32) -> Option<bool> {
    let param = crate::ir::naming::param(function, index)?;
    let entry = crate::ir::Block::from(function.get_first_basic_block()?);
    let mut declared = Vec::new();
    for inst in entry.instructions() {
        // SAFETY: walks the debug records of a live instruction.
        unsafe {
            let mut record = llvm_sys::core::LLVMGetFirstDbgRecord(inst.as_raw());
            while !record.is_null() {
                if llvm_sys::core::LLVMDbgRecordGetKind(record) == llvm_sys::LLVMDbgRecordKind::LLVMDbgRecordDeclare
                    && let Some(address) = crate::ir::Value::from_raw_opt(llvm_sys::core::LLVMDbgVariableRecordGetValue(record, 0))
                {
                    declared.push(address);
                }
                record = llvm_sys::core::LLVMGetNextDbgRecord(record);
            }
        }
    }
    if declared.contains(&param) {
        return Some(true);
    }
    let spilled = param.users().into_iter().any(|user| {
        user.opcode() == Some(llvm_sys::LLVMOpcode::LLVMStore)
            && user.operand(0) == Some(param)
            && user.operand(1).is_some_and(|slot| declared.contains(&slot))
    });
    spilled.then_some(false)
}

/// The operands of a metadata tuple (null entries as `None`).
fn tuple(tuple: Metadata<'_>) -> Vec<Option<Metadata<'_>>> {
    // SAFETY: `tuple` is live; the accessors check it is an MDTuple and
    // bound the index.
    unsafe {
        (0..offload_di_tuple_size(tuple.as_raw()))
            .map(|i| Metadata::from_raw_opt(offload_di_tuple_at(tuple.as_raw(), i)))
            .collect()
    }
}

fn is_di_type(node: Metadata<'_>) -> bool {
    use llvm_sys::debuginfo::LLVMMetadataKind::*;
    // SAFETY: any live metadata has a kind.
    let kind = unsafe { di::LLVMGetMetadataKind(node.as_raw()) };
    matches!(
        kind,
        LLVMDIBasicTypeMetadataKind
            | LLVMDIDerivedTypeMetadataKind
            | LLVMDICompositeTypeMetadataKind
            | LLVMDISubroutineTypeMetadataKind
            | LLVMDIStringTypeMetadataKind
    )
}

/// The DWARF tag of a DI type (0 for other metadata: LLVMGetDINodeTag
/// assumes a DINode).
fn tag(node: Metadata<'_>) -> u16 {
    // SAFETY: only called on DI types, which are DINodes.
    if is_di_type(node) { unsafe { di::LLVMGetDINodeTag(node.as_raw()) } } else { 0 }
}

/// Size, alignment and offset in bytes of a DI type (callers check
/// [`is_di_type`] first).
fn size_bytes(node: Metadata<'_>) -> u64 {
    // SAFETY: `node` is a DIType.
    unsafe { di::LLVMDITypeGetSizeInBits(node.as_raw()) / 8 }
}

fn align_bytes(node: Metadata<'_>) -> u64 {
    // SAFETY: `node` is a DIType.
    unsafe { u64::from(di::LLVMDITypeGetAlignInBits(node.as_raw())) / 8 }
}

fn offset_bytes(node: Metadata<'_>) -> u64 {
    // SAFETY: `node` is a DIType.
    unsafe { di::LLVMDITypeGetOffsetInBits(node.as_raw()) / 8 }
}

fn base_type(node: Metadata<'_>) -> Option<Metadata<'_>> {
    // SAFETY: the accessor checks the node's class; the result is live or null.
    unsafe { Metadata::from_raw_opt(offload_di_base_type(node.as_raw())) }
}

fn elements(node: Metadata<'_>) -> Option<Vec<Option<Metadata<'_>>>> {
    // SAFETY: the accessor checks the node's class; the result is live or null.
    let list = unsafe { Metadata::from_raw_opt(offload_di_composite_elements(node.as_raw())) }?;
    Some(tuple(list))
}

/// One bounded walk over one parameter's type.
#[derive(Default)]
struct Walk {
    nodes: u32,
}

impl Walk {
    fn source_type(&mut self, node: Option<Metadata<'_>>) -> Result<SourceType, String> {
        let node = node.ok_or("no type")?;
        let node = self.strip_qualifiers(node)?;
        let size = size_bytes(node);
        let align = align_bytes(node);
        if align != 0 && !align.is_power_of_two() {
            return Err(format!("alignment {align} is not a power of two"));
        }
        if align != 0 && !size.is_multiple_of(align) {
            return Err(format!("size {size} is not a multiple of its alignment {align}"));
        }
        // SAFETY: the accessor checks the node's class.
        let variants = unsafe { offload_di_is_variant_part(node.as_raw()) } != 0;
        let shape = match tag(node) {
            DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE if variants || self.has_variant_part(node) => {
                Shape::Variants
            }
            DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE => Shape::Struct,
            DW_TAG_ARRAY_TYPE => Shape::Array,
            DW_TAG_UNION_TYPE => Shape::Variants,
            _ => Shape::Scalar,
        };
        let mut leaves = Vec::new();
        let leaves = match shape {
            // A union's fields overlap in ways no pair of scalars carries.
            Shape::Variants if tag(node) == DW_TAG_UNION_TYPE => None,
            Shape::Variants => self.variant_leaves(node, 0, size, 0)?,
            _ => self.flatten(node, 0, size, &mut leaves, 0)?.then_some(leaves),
        };
        let pointer_niche = matches!(leaves.as_deref(),
            Some([leaf]) if shape == Shape::Variants && leaf.kind == LeafKind::Pointer && leaf.offset == 0 && leaf.size == size);
        let shape = if pointer_niche { Shape::PointerNiche } else { shape };
        Ok(SourceType {
            size,
            align,
            shape,
            leaves,
        })
    }

    /// The scalar leaves of a Rust enum (a struct holding a variant part)
    /// placed at `base`: its discriminator and every variant's fields, merged.
    /// `None` when variants put different kinds of scalars at one place, or
    /// overlapping ones (no pair of scalars carries such storage). Where a
    /// niche tag (an integer) and a pointer share the same bytes, the leaf is
    /// the pointer: `Option<&T>` is the pointer, null for `None`.
    fn variant_leaves(&mut self, node: Metadata<'_>, base: u64, size: u64, depth: u32) -> Result<Option<Vec<Leaf>>, String> {
        let Some(part) = elements(node).unwrap_or_default().into_iter().flatten().find(|m| {
            // SAFETY: the accessor checks the node's class.
            unsafe { offload_di_is_variant_part(m.as_raw()) != 0 }
        }) else {
            return Ok(None);
        };
        let mut all = Vec::new();
        // SAFETY: the accessor checks the node's class; the result is live or null.
        let discriminator = unsafe { Metadata::from_raw_opt(offload_di_discriminator(part.as_raw())) };
        let members = discriminator.into_iter().chain(elements(part).unwrap_or_default().into_iter().flatten());
        for member in members {
            self.visit()?;
            let Some(payload) = (tag(member) == DW_TAG_MEMBER).then(|| base_type(member)).flatten() else {
                return Ok(None);
            };
            if !self.flatten(payload, base + offset_bytes(member), base + size, &mut all, depth + 1)? {
                return Ok(None);
            }
        }
        Ok(merge_overlapping(all))
    }

    /// True when a struct's elements hold a variant part (a Rust enum).
    fn has_variant_part(&mut self, node: Metadata<'_>) -> bool {
        elements(node).unwrap_or_default().into_iter().flatten().any(|member| {
            // SAFETY: the accessor checks the node's class.
            unsafe { offload_di_is_variant_part(member.as_raw()) != 0 }
        })
    }

    fn visit(&mut self) -> Result<(), String> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(format!("describes more than {MAX_NODES} type nodes"));
        }
        Ok(())
    }

    /// Looks through typedefs and qualifiers to the type that has a layout.
    fn strip_qualifiers<'m>(&mut self, mut node: Metadata<'m>) -> Result<Metadata<'m>, String> {
        for _ in 0..MAX_QUALIFIERS {
            self.visit()?;
            if !is_di_type(node) {
                return Err("a type that is not a DI type".into());
            }
            if !matches!(
                tag(node),
                DW_TAG_TYPEDEF | DW_TAG_CONST_TYPE | DW_TAG_VOLATILE_TYPE | DW_TAG_RESTRICT_TYPE | DW_TAG_ATOMIC_TYPE
            ) {
                return Ok(node);
            }
            node = base_type(node).ok_or("a typedef or qualifier without a base type")?;
        }
        Err(format!("more than {MAX_QUALIFIERS} typedefs or qualifiers in a row (a cycle?)"))
    }

    /// Appends the scalar leaves of `node`, placed at `base` inside an
    /// aggregate of `outer` bytes. `Ok(false)` when the type cannot be split
    /// into fields (variant storage, too many leaves); `Err` when debug info
    /// contradicts itself (a field past the end, a cycle).
    fn flatten(
        &mut self,
        node: Metadata<'_>,
        base: u64,
        outer: u64,
        out: &mut Vec<Leaf>,
        depth: u32,
    ) -> Result<bool, String> {
        if depth > MAX_DEPTH {
            return Err(format!("types nest deeper than {MAX_DEPTH} levels (a cycle?)"));
        }
        if out.len() > MAX_LEAVES {
            return Ok(false);
        }
        let node = self.strip_qualifiers(node)?;
        let size = size_bytes(node);
        if base.checked_add(size).is_none_or(|end| end > outer) {
            return Err(format!(
                "a {size}-byte field at offset {base} runs past the {outer}-byte parameter"
            ));
        }
        let leaf = |kind| Leaf {
            offset: base,
            size,
            kind,
            pointee_align: 0,
        };
        match tag(node) {
            DW_TAG_POINTER_TYPE | DW_TAG_REFERENCE_TYPE | DW_TAG_RVALUE_REFERENCE_TYPE => {
                let pointee = base_type(node).and_then(|t| self.strip_qualifiers(t).ok());
                out.push(Leaf {
                    pointee_align: pointee.map(natural_align).unwrap_or(0),
                    ..leaf(LeafKind::Pointer)
                });
                Ok(true)
            }
            DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE => self.flatten_members(node, base, size, out, depth),
            DW_TAG_ARRAY_TYPE => self.flatten_array(node, base, size, out, depth),
            DW_TAG_ENUMERATION_TYPE => {
                out.push(leaf(LeafKind::Integer));
                Ok(true)
            }
            _ if is_basic(node) => {
                // SAFETY: the accessor checks the node's class.
                let encoding = unsafe { offload_di_basic_encoding(node.as_raw()) };
                let kind = if encoding == DW_ATE_FLOAT { LeafKind::Float } else { LeafKind::Integer };
                if size > 0 {
                    out.push(leaf(kind));
                }
                Ok(true)
            }
            // Unions and the like have no single field list.
            _ => Ok(false),
        }
    }

    fn flatten_members(
        &mut self,
        node: Metadata<'_>,
        base: u64,
        size: u64,
        out: &mut Vec<Leaf>,
        depth: u32,
    ) -> Result<bool, String> {
        let Some(members) = elements(node) else {
            return Ok(size == 0);
        };
        if self.has_variant_part(node) {
            // A Rust enum as a field: its merged variant leaves.
            return Ok(match self.variant_leaves(node, base, size, depth)? {
                Some(leaves) => {
                    out.extend(leaves);
                    true
                }
                None => false,
            });
        }
        for member in members.into_iter().flatten() {
            self.visit()?;
            if !is_di_type(member) {
                continue; // subprograms and template parameters have no storage
            }
            match tag(member) {
                DW_TAG_MEMBER | DW_TAG_INHERITANCE => {
                    let offset = offset_bytes(member);
                    let Some(ty) = base_type(member) else {
                        return Err("a member without a type".into());
                    };
                    if offset > size {
                        return Err(format!("a member at offset {offset} of a {size}-byte struct"));
                    }
                    if !self.flatten(ty, base + offset, base + size, out, depth + 1)? {
                        return Ok(false);
                    }
                }
                _ => return Ok(false), // a variant part
            }
        }
        Ok(true)
    }

    fn flatten_array(
        &mut self,
        node: Metadata<'_>,
        base: u64,
        size: u64,
        out: &mut Vec<Leaf>,
        depth: u32,
    ) -> Result<bool, String> {
        let element = base_type(node).ok_or("an array without an element type")?;
        let element_type = self.strip_qualifiers(element)?;
        let stride = size_bytes(element_type);
        if stride == 0 {
            return if size == 0 {
                Ok(true)
            } else {
                Err(format!("a {size}-byte array of zero-sized elements"))
            };
        }
        if !size.is_multiple_of(stride) {
            return Err(format!("a {size}-byte array of {stride}-byte elements"));
        }
        let count = size / stride;
        if count > MAX_LEAVES as u64 {
            return Ok(false); // too many to list; still one aggregate
        }
        for i in 0..count {
            self.visit()?;
            if !self.flatten(element, base + i * stride, base + size, out, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Leaves of several variants in one list, by offset; equal places merge
/// (a pointer over an integer: a niche), other overlaps are `None`.
fn merge_overlapping(mut leaves: Vec<Leaf>) -> Option<Vec<Leaf>> {
    leaves.sort_by_key(|l| (l.offset, l.size));
    let mut out: Vec<Leaf> = Vec::new();
    for leaf in leaves {
        match out.last_mut() {
            Some(last) if last.offset == leaf.offset && last.size == leaf.size => {
                match (last.kind, leaf.kind) {
                    (a, b) if a == b => {
                        if last.pointee_align != leaf.pointee_align {
                            last.pointee_align = 0;
                        }
                    }
                    (LeafKind::Integer, LeafKind::Pointer) => *last = leaf,
                    (LeafKind::Pointer, LeafKind::Integer) => {}
                    _ => return None,
                }
            }
            Some(last) if leaf.offset < last.offset + last.size => return None,
            _ => out.push(leaf),
        }
    }
    Some(out)
}

/// A DI type's alignment; rustc leaves it out of basic types, whose natural
/// alignment is their size.
fn natural_align(node: Metadata<'_>) -> u64 {
    // (Wider scalars, u128 or f128, are aligned as the target decides: 8 on
    // amdgcn, 16 elsewhere; unknown here.)
    match align_bytes(node) {
        0 if is_basic(node) && size_bytes(node).is_power_of_two() && size_bytes(node) <= 8 => size_bytes(node),
        align => align,
    }
}

fn is_basic(node: Metadata<'_>) -> bool {
    // SAFETY: any live metadata has a kind.
    let kind = unsafe { di::LLVMGetMetadataKind(node.as_raw()) };
    matches!(kind, llvm_sys::debuginfo::LLVMMetadataKind::LLVMDIBasicTypeMetadataKind)
}
