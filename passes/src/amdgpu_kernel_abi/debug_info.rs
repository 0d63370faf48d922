//! Source-level parameter types from debug info.
//!
//! rustc ≤ 1.95 splits or indirects the aggregates of `extern "gpu-kernel"`
//! functions, leaving IR parameters whose source types the IR alone cannot
//! tell. The kernel's `DISubprogram` keeps a `DISubroutineType` whose type
//! list holds every source parameter's type in order (after the return type)
//! even when optimisation turned the `#dbg_declare` records into `ptr undef`.
//! This module reads that list through [`crate::ir::debug_info`] and
//! flattens each type into scalar leaves (offset, size, kind), which is what matching IR
//! parameters to source parameters needs.
//!
//! Debug info is untrusted input: every walk is bounded (type cycles through
//! typedefs or members, huge arrays, empty element lists), and sizes,
//! offsets and alignments are checked against each other. What does not hold
//! together is a [`DebugInfoError`]; the planner then falls back to what the
//! IR proves and tells the user.

use inkwell::values::FunctionValue;

use crate::ir::debug_info::{DiSubprogram, DiType};
use crate::ir::{Metadata, Opcode, naming};

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
        write!(
            f,
            "debug info of source parameter {}: {}",
            self.param, self.why
        )
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
pub fn source_parameter_types(
    function: FunctionValue<'_>,
) -> Result<Option<Sources>, DebugInfoError> {
    let Some(subprogram) = DiSubprogram::of(function) else {
        return Ok(None);
    };
    let optimized = subprogram.is_optimized();
    let Some(types) = subprogram.signature_types() else {
        return Ok(None);
    };
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
    let param = naming::param(function, index)?;
    let entry = crate::ir::Block::from(function.get_first_basic_block()?);
    let declared: Vec<_> = entry
        .instructions()
        .into_iter()
        .flat_map(|inst| inst.dbg_declare_addresses())
        .collect();
    if declared.contains(&param) {
        return Some(true);
    }
    let spilled = param.users().into_iter().any(|user| {
        user.opcode() == Some(Opcode::LLVMStore)
            && user.operand(0) == Some(param)
            && user.operand(1).is_some_and(|slot| declared.contains(&slot))
    });
    spilled.then_some(false)
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
        let size = node.size_bytes();
        let align = node.align_bytes();
        if align != 0 && !align.is_power_of_two() {
            return Err(format!("alignment {align} is not a power of two"));
        }
        if align != 0 && !size.is_multiple_of(align) {
            return Err(format!(
                "size {size} is not a multiple of its alignment {align}"
            ));
        }
        let shape = match node.tag() {
            DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE
                if node.is_variant_part() || has_variant_part(node) =>
            {
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
            Shape::Variants if node.tag() == DW_TAG_UNION_TYPE => None,
            Shape::Variants => self.variant_leaves(node, 0, size, 0)?,
            _ => self
                .flatten(node.into(), 0, size, &mut leaves, 0)?
                .then_some(leaves),
        };
        let pointer_niche = matches!(leaves.as_deref(),
            Some([leaf]) if shape == Shape::Variants && leaf.kind == LeafKind::Pointer && leaf.offset == 0 && leaf.size == size);
        let shape = if pointer_niche {
            Shape::PointerNiche
        } else {
            shape
        };
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
    fn variant_leaves(
        &mut self,
        node: DiType<'_>,
        base: u64,
        size: u64,
        depth: u32,
    ) -> Result<Option<Vec<Leaf>>, String> {
        let Some(part) = members(node).find(|m| m.is_variant_part()) else {
            return Ok(None);
        };
        let mut all = Vec::new();
        let discriminator = part.discriminator();
        let members = discriminator
            .into_iter()
            .chain(part.elements().unwrap_or_default());
        for member in members {
            self.visit()?;
            let Some(member) = DiType::of(member).filter(|m| m.tag() == DW_TAG_MEMBER) else {
                return Ok(None);
            };
            let Some(payload) = member.base_type() else {
                return Ok(None);
            };
            if !self.flatten(
                payload,
                base + member.offset_bytes(),
                base + size,
                &mut all,
                depth + 1,
            )? {
                return Ok(None);
            }
        }
        Ok(merge_overlapping(all))
    }

    fn visit(&mut self) -> Result<(), String> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(format!("describes more than {MAX_NODES} type nodes"));
        }
        Ok(())
    }

    /// Looks through typedefs and qualifiers to the type that has a layout.
    fn strip_qualifiers<'m>(&mut self, mut node: Metadata<'m>) -> Result<DiType<'m>, String> {
        for _ in 0..MAX_QUALIFIERS {
            self.visit()?;
            let ty = DiType::of(node).ok_or("a type that is not a DI type")?;
            if !matches!(
                ty.tag(),
                DW_TAG_TYPEDEF
                    | DW_TAG_CONST_TYPE
                    | DW_TAG_VOLATILE_TYPE
                    | DW_TAG_RESTRICT_TYPE
                    | DW_TAG_ATOMIC_TYPE
            ) {
                return Ok(ty);
            }
            node = ty
                .base_type()
                .ok_or("a typedef or qualifier without a base type")?;
        }
        Err(format!(
            "more than {MAX_QUALIFIERS} typedefs or qualifiers in a row (a cycle?)"
        ))
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
            return Err(format!(
                "types nest deeper than {MAX_DEPTH} levels (a cycle?)"
            ));
        }
        if out.len() > MAX_LEAVES {
            return Ok(false);
        }
        let node = self.strip_qualifiers(node)?;
        let size = node.size_bytes();
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
        match node.tag() {
            DW_TAG_POINTER_TYPE | DW_TAG_REFERENCE_TYPE | DW_TAG_RVALUE_REFERENCE_TYPE => {
                let pointee = node.base_type().and_then(|t| self.strip_qualifiers(t).ok());
                out.push(Leaf {
                    pointee_align: pointee.map(natural_align).unwrap_or(0),
                    ..leaf(LeafKind::Pointer)
                });
                Ok(true)
            }
            DW_TAG_STRUCTURE_TYPE | DW_TAG_CLASS_TYPE => {
                self.flatten_members(node, base, size, out, depth)
            }
            DW_TAG_ARRAY_TYPE => self.flatten_array(node, base, size, out, depth),
            DW_TAG_ENUMERATION_TYPE => {
                out.push(leaf(LeafKind::Integer));
                Ok(true)
            }
            _ if node.is_basic() => {
                let kind = if node.basic_encoding() == DW_ATE_FLOAT {
                    LeafKind::Float
                } else {
                    LeafKind::Integer
                };
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
        node: DiType<'_>,
        base: u64,
        size: u64,
        out: &mut Vec<Leaf>,
        depth: u32,
    ) -> Result<bool, String> {
        let Some(members) = node.elements() else {
            return Ok(size == 0);
        };
        if has_variant_part(node) {
            // A Rust enum as a field: its merged variant leaves.
            return Ok(match self.variant_leaves(node, base, size, depth)? {
                Some(leaves) => {
                    out.extend(leaves);
                    true
                }
                None => false,
            });
        }
        for member in members {
            self.visit()?;
            let Some(member) = DiType::of(member) else {
                continue; // subprograms and template parameters have no storage
            };
            match member.tag() {
                DW_TAG_MEMBER | DW_TAG_INHERITANCE => {
                    let offset = member.offset_bytes();
                    let Some(ty) = member.base_type() else {
                        return Err("a member without a type".into());
                    };
                    if offset > size {
                        return Err(format!(
                            "a member at offset {offset} of a {size}-byte struct"
                        ));
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
        node: DiType<'_>,
        base: u64,
        size: u64,
        out: &mut Vec<Leaf>,
        depth: u32,
    ) -> Result<bool, String> {
        let element = node.base_type().ok_or("an array without an element type")?;
        let element_type = self.strip_qualifiers(element)?;
        let stride = element_type.size_bytes();
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

/// The members of a composite that are DI types (elements without storage,
/// such as subprograms, are no DI types).
fn members<'m>(node: DiType<'m>) -> impl Iterator<Item = DiType<'m>> {
    node.elements()
        .unwrap_or_default()
        .into_iter()
        .filter_map(DiType::of)
}

/// True when a struct's elements hold a variant part (a Rust enum).
fn has_variant_part(node: DiType<'_>) -> bool {
    members(node).any(|member| member.is_variant_part())
}

/// Leaves of several variants in one list, by offset; equal places merge
/// (a pointer over an integer: a niche), other overlaps are `None`.
pub(super) fn merge_overlapping(mut leaves: Vec<Leaf>) -> Option<Vec<Leaf>> {
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
fn natural_align(node: DiType<'_>) -> u64 {
    // (Wider scalars, u128 or f128, are aligned as the target decides: 8 on
    // amdgcn, 16 elsewhere; unknown here.)
    let size = node.size_bytes();
    match node.align_bytes() {
        0 if node.is_basic() && size.is_power_of_two() && size <= 8 => size,
        align => align,
    }
}
