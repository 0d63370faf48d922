//! Source types from debug info: how a parameter's DI type flattens into
//! scalar leaves, and how the leaves of a Rust enum's variants merge.

use inkwell::context::Context;

use super::debug_info::{
    DebugInfoError, Leaf, LeafKind, Shape, SourceType, merge_overlapping, source_parameter_types,
};
use crate::test_support::parse;

/// A kernel `@k` whose `DISubprogram` lists the source parameter types
/// `params` (metadata references); `types` defines them and may use the
/// basic types !20 to !27 defined here.
fn kernel_with_debug_info(params: &str, types: &str) -> String {
    format!(
        r#"target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k() !dbg !5 {{
  ret void
}}

!llvm.dbg.cu = !{{!0}}
!llvm.module.flags = !{{!2}}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{{i32 2, !"Debug Info Version", i32 3}}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{{null, {params}}}
!20 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!21 = !DIBasicType(name: "u16", size: 16, encoding: DW_ATE_unsigned)
!22 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!23 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!24 = !DIBasicType(name: "f32", size: 32, encoding: DW_ATE_float)
!25 = !DIBasicType(name: "f64", size: 64, encoding: DW_ATE_float)
!26 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*const u64", baseType: !23, size: 64, align: 64)
!27 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&u32", baseType: !22, size: 64, align: 64)
{types}
"#
    )
}

/// The source parameter types `source_parameter_types` reads from `ir`.
fn sources(ir: &str) -> Result<Option<Vec<SourceType>>, DebugInfoError> {
    let context = Context::create();
    let module = parse(&context, ir);
    let kernel = module.get_function("k").expect("the test kernel");
    source_parameter_types(kernel).map(|sources| sources.map(|s| s.params))
}

fn only_source(params: &str, types: &str) -> SourceType {
    let mut params = sources(&kernel_with_debug_info(params, types))
        .expect("consistent debug info")
        .expect("a type list");
    assert_eq!(params.len(), 1, "one source parameter");
    params.remove(0)
}

fn leaf(offset: u64, size: u64, kind: LeafKind) -> Leaf {
    Leaf {
        offset,
        size,
        kind,
        pointee_align: 0,
    }
}

fn pointer(offset: u64, pointee_align: u64) -> Leaf {
    Leaf {
        pointee_align,
        ..leaf(offset, 8, LeafKind::Pointer)
    }
}

#[test]
fn nested_struct_flattens_to_its_fields_at_their_offsets() {
    // struct Outer { a: u32, inner: Inner { b: f32, p: *const u64 }, c: Byte }
    // with `type Byte = u8`: padding after `a`, after `b` and at the end.
    let types = r#"
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "Outer", size: 256, align: 64, elements: !11)
!11 = !{!12, !13, !14}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !22, size: 32, offset: 0)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "inner", baseType: !15, size: 128, offset: 64)
!14 = !DIDerivedType(tag: DW_TAG_member, name: "c", baseType: !19, size: 8, offset: 192)
!15 = !DICompositeType(tag: DW_TAG_structure_type, name: "Inner", size: 128, align: 64, elements: !16)
!16 = !{!17, !18}
!17 = !DIDerivedType(tag: DW_TAG_member, name: "b", baseType: !24, size: 32, offset: 0)
!18 = !DIDerivedType(tag: DW_TAG_member, name: "p", baseType: !26, size: 64, offset: 64)
!19 = !DIDerivedType(tag: DW_TAG_typedef, name: "Byte", baseType: !20)
"#;
    assert_eq!(
        only_source("!10", types),
        SourceType {
            size: 32,
            align: 8,
            shape: Shape::Struct,
            leaves: Some(vec![
                leaf(0, 4, LeafKind::Integer),
                leaf(8, 4, LeafKind::Float),
                // A u64 without a DI alignment is aligned to its size.
                pointer(16, 8),
                leaf(24, 1, LeafKind::Integer),
            ]),
        }
    );
}

#[test]
fn array_of_structs_repeats_the_element_leaves_at_each_stride() {
    // [Pair; 3] with Pair { x: u16, y: f64 }: 16-byte elements.
    let types = r#"
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, size: 384, align: 64, elements: !15)
!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "Pair", size: 128, align: 64, elements: !12)
!12 = !{!13, !14}
!13 = !DIDerivedType(tag: DW_TAG_member, name: "x", baseType: !21, size: 16, offset: 0)
!14 = !DIDerivedType(tag: DW_TAG_member, name: "y", baseType: !25, size: 64, offset: 64)
!15 = !{!16}
!16 = !DISubrange(count: 3, lowerBound: 0)
"#;
    let expected: Vec<Leaf> = (0..3)
        .flat_map(|i| {
            [
                leaf(16 * i, 2, LeafKind::Integer),
                leaf(16 * i + 8, 8, LeafKind::Float),
            ]
        })
        .collect();
    assert_eq!(
        only_source("!10", types),
        SourceType {
            size: 48,
            align: 8,
            shape: Shape::Array,
            leaves: Some(expected),
        }
    );
}

#[test]
fn union_is_overlapping_storage_without_leaves() {
    let types = r#"
!10 = !DICompositeType(tag: DW_TAG_union_type, name: "U", size: 64, align: 64, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "bits", baseType: !23, size: 64, offset: 0)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "value", baseType: !24, size: 32, offset: 0)
"#;
    assert_eq!(
        only_source("!10", types),
        SourceType {
            size: 8,
            align: 8,
            shape: Shape::Variants,
            leaves: None,
        }
    );
}

/// A Rust enum as rustc describes it: a struct holding a variant part,
/// whose discriminator `tag` (offset in bits) and variants `None` (empty)
/// and `Some` (one field of type `payload` at bit `payload_offset`) follow.
fn rust_enum(size_bits: u64, tag: &str, payload: &str, payload_offset: u64) -> String {
    format!(
        r#"
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "E", size: {size_bits}, align: 64, elements: !11)
!11 = !{{!12}}
!12 = !DICompositeType(tag: DW_TAG_variant_part, scope: !10, size: {size_bits}, align: 64, elements: !13, discriminator: !14)
!13 = !{{!15, !16}}
!14 = !DIDerivedType(tag: DW_TAG_member, scope: !10, baseType: {tag}, offset: 0, flags: DIFlagArtificial)
!15 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !12, baseType: !17, size: {size_bits}, align: 64, extraData: i64 0)
!16 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !12, baseType: !18, size: {size_bits}, align: 64)
!17 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !10, size: {size_bits}, align: 64, elements: !{{}})
!18 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !10, size: {size_bits}, align: 64, elements: !19)
!19 = !{{!30}}
!30 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !18, baseType: {payload}, offset: {payload_offset})
"#
    )
}

#[test]
fn option_of_a_reference_is_its_pointer() {
    // Option<&u32>: the niche tag (a u64) and the pointer share bytes 0..8.
    assert_eq!(
        only_source("!10", &rust_enum(64, "!23", "!27", 0)),
        SourceType {
            size: 8,
            align: 8,
            shape: Shape::PointerNiche,
            leaves: Some(vec![pointer(0, 4)]),
        }
    );
}

#[test]
fn enum_payload_after_its_tag_merges_into_both_leaves() {
    // enum { None, Some(f64) } with a u64 tag: tag at 0, payload at 8.
    assert_eq!(
        only_source("!10", &rust_enum(128, "!23", "!25", 64)),
        SourceType {
            size: 16,
            align: 8,
            shape: Shape::Variants,
            leaves: Some(vec![
                leaf(0, 8, LeafKind::Integer),
                leaf(8, 8, LeafKind::Float)
            ]),
        }
    );
}

#[test]
fn enum_whose_payload_overlaps_its_tag_differently_has_no_leaves() {
    // A f32 payload over the first half of a u64 tag: no pair of scalars
    // carries that storage.
    let source = only_source("!10", &rust_enum(64, "!23", "!24", 0));
    assert_eq!((source.shape, source.leaves), (Shape::Variants, None));
}

#[test]
fn inconsistent_parameter_is_an_error_naming_it() {
    // The second parameter's member runs past its 8-byte struct.
    let types = r#"
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", size: 64, align: 32, elements: !11)
!11 = !{!12}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !22, size: 32, offset: 64)
"#;
    assert_eq!(
        sources(&kernel_with_debug_info("!22, !10", types)),
        Err(DebugInfoError {
            param: 1,
            why: "a 4-byte field at offset 8 runs past the 8-byte parameter".into(),
        })
    );
}

#[test]
fn kernel_without_debug_info_has_no_sources() {
    let ir =
        "target triple = \"amdgcn-amd-amdhsa\"\ndefine amdgpu_kernel void @k() {\n  ret void\n}\n";
    assert_eq!(sources(ir), Ok(None));
}

#[test]
fn merging_nothing_is_nothing() {
    assert_eq!(merge_overlapping(Vec::new()), Some(Vec::new()));
}

#[test]
fn disjoint_leaves_come_out_sorted_by_offset() {
    let leaves = vec![
        leaf(8, 8, LeafKind::Float),
        leaf(0, 4, LeafKind::Integer),
        pointer(16, 4),
    ];
    assert_eq!(
        merge_overlapping(leaves),
        Some(vec![
            leaf(0, 4, LeafKind::Integer),
            leaf(8, 8, LeafKind::Float),
            pointer(16, 4)
        ])
    );
}

#[test]
fn touching_leaves_stay_apart() {
    let leaves = vec![leaf(4, 4, LeafKind::Float), leaf(0, 4, LeafKind::Integer)];
    assert_eq!(
        merge_overlapping(leaves),
        Some(vec![
            leaf(0, 4, LeafKind::Integer),
            leaf(4, 4, LeafKind::Float)
        ])
    );
}

#[test]
fn partly_overlapping_leaves_do_not_merge() {
    let leaves = vec![leaf(0, 8, LeafKind::Integer), leaf(4, 8, LeafKind::Integer)];
    assert_eq!(merge_overlapping(leaves), None);
}

#[test]
fn nested_leaves_do_not_merge() {
    // One leaf inside another, at its start or in its middle.
    let at_start = vec![leaf(0, 8, LeafKind::Integer), leaf(0, 4, LeafKind::Integer)];
    let inside = vec![leaf(0, 8, LeafKind::Integer), leaf(2, 2, LeafKind::Integer)];
    assert_eq!(merge_overlapping(at_start), None);
    assert_eq!(merge_overlapping(inside), None);
}

#[test]
fn equal_leaves_merge_and_keep_only_an_agreed_pointee_alignment() {
    let agreed = vec![pointer(0, 8), pointer(0, 8)];
    let disagreed = vec![pointer(0, 8), pointer(0, 4)];
    assert_eq!(merge_overlapping(agreed), Some(vec![pointer(0, 8)]));
    assert_eq!(merge_overlapping(disagreed), Some(vec![pointer(0, 0)]));
}

#[test]
fn pointer_over_an_integer_is_the_pointer_in_either_order() {
    let integer = leaf(0, 8, LeafKind::Integer);
    assert_eq!(
        merge_overlapping(vec![integer, pointer(0, 4)]),
        Some(vec![pointer(0, 4)])
    );
    assert_eq!(
        merge_overlapping(vec![pointer(0, 4), integer]),
        Some(vec![pointer(0, 4)])
    );
}

#[test]
fn float_and_integer_at_one_place_do_not_merge() {
    let leaves = vec![leaf(0, 4, LeafKind::Float), leaf(0, 4, LeafKind::Integer)];
    assert_eq!(merge_overlapping(leaves), None);
}
