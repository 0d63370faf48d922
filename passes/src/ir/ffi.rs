//! The one declaration of the C functions in `llvm_ext.cpp`: LLVM C++ calls
//! the C API lacks, one call sequence each, over C API handles.
//!
//! Every function takes untrusted IR and checks the class of what it is
//! given (`dyn_cast`): a handle of another class, or null, gives the "none"
//! result each one documents, never undefined behaviour. What stays the
//! caller's to uphold is that every non-null handle is live and that
//! pointers to arrays and out-parameters are valid for what is read or
//! written. The typed wrappers elsewhere in [`crate::ir`] are the only
//! callers.

use std::ffi::{c_char, c_void};

use llvm_sys::prelude::{
    LLVMAttributeRef, LLVMBasicBlockRef, LLVMContextRef, LLVMMetadataRef, LLVMTypeRef, LLVMValueRef,
};

/// One parameter of a new signature (`offload_ir_new_param`).
#[repr(C)]
pub(super) struct RawParam {
    /// Attributes: those of old parameter `attrs_of` when it is >= 0, else
    /// the set `attr_set` (from [`offload_ir_param_attribute_set`]; null:
    /// none).
    pub attrs_of: i32,
    pub attr_set: *mut c_void,
    /// Name: that of old parameter `name_of` when it is >= 0, else
    /// `name[..name_len]` (empty: unnamed).
    pub name_of: i32,
    pub name: *const c_char,
    pub name_len: usize,
}

unsafe extern "C" {
    /// A function of type `fn_type` that takes the place of `old`, created
    /// right before it with its linkage, address space, the attributes
    /// `Function::copyAttributesFrom` copies, comdat, metadata, name and
    /// function and return attributes, and for each of the `num_params`
    /// `params` the attributes and name it gives. The body moves over; the
    /// old function is left without body or name, for the caller to
    /// retarget parameter uses and erase. Null (nothing changed) when the
    /// arguments do not fit together: `old` no function in a module,
    /// `fn_type` no function type of `num_params` parameters, or an
    /// `attrs_of`/`name_of` past the old parameters.
    pub(super) fn offload_ir_replace_function(
        old: LLVMValueRef,
        fn_type: LLVMTypeRef,
        params: *const RawParam,
        num_params: u32,
    ) -> LLVMValueRef;

    /// The parameter attribute set of the `num_attrs` attributes at `attrs`
    /// (attributes of `context`), uniqued in `context` and living as long
    /// as it: a handle for [`RawParam::attr_set`] (the `AttributeSet`'s
    /// bytes), null for no attributes.
    pub(super) fn offload_ir_param_attribute_set(
        context: LLVMContextRef,
        attrs: *const LLVMAttributeRef,
        num_attrs: u32,
    ) -> *mut c_void;

    /// The number of operands of an MDNode; 0 for other metadata.
    pub(super) fn offload_ir_md_operand_count(node: LLVMMetadataRef) -> u32;

    /// Operand `index` of an MDNode; null for a null operand, an index past
    /// the end or metadata that is no MDNode.
    pub(super) fn offload_ir_md_operand(node: LLVMMetadataRef, index: u32) -> LLVMMetadataRef;

    /// An integer constant (`i32 3`) up to 64 bits wide: 1, with its value
    /// zero-extended in `*out`; 0 (and `*out` untouched) for anything else.
    pub(super) fn offload_ir_md_integer(node: LLVMMetadataRef, out: *mut u64) -> i32;

    /// `GlobalObject::getMetadata`: the first attachment of kind `kind` of
    /// a function or global variable; null when there is none or `global`
    /// is no global object.
    pub(super) fn offload_ir_global_metadata(global: LLVMValueRef, kind: u32) -> LLVMMetadataRef;

    /// `DISubprogram::getType`: the subprogram's `DISubroutineType`; null
    /// for none or for a node that is no `DISubprogram`.
    pub(super) fn offload_di_subprogram_type(subprogram: LLVMMetadataRef) -> LLVMMetadataRef;

    /// The type list (an `MDTuple`, return type first) of a
    /// `DISubroutineType`; null for none or another class.
    pub(super) fn offload_di_subroutine_types(subroutine: LLVMMetadataRef) -> LLVMMetadataRef;

    /// The elements (an `MDTuple`) of a `DICompositeType`; null for none or
    /// another class.
    pub(super) fn offload_di_composite_elements(composite: LLVMMetadataRef) -> LLVMMetadataRef;

    /// The number of operands of an `MDTuple`; 0 for other metadata.
    pub(super) fn offload_di_tuple_size(tuple: LLVMMetadataRef) -> u32;

    /// Operand `index` of an `MDTuple`; null for a null operand, an index
    /// past the end or metadata that is no tuple.
    pub(super) fn offload_di_tuple_at(tuple: LLVMMetadataRef, index: u32) -> LLVMMetadataRef;

    /// The base type (a `DIType`) of a `DIDerivedType` (typedef, qualifier,
    /// pointer, member) or `DICompositeType` (an array's element type, an
    /// enum's underlying type); null for none or another class.
    pub(super) fn offload_di_base_type(ty: LLVMMetadataRef) -> LLVMMetadataRef;

    /// 1 when the node is a `DICompositeType` tagged `DW_TAG_variant_part`
    /// (the variants of a Rust enum), else 0.
    pub(super) fn offload_di_is_variant_part(ty: LLVMMetadataRef) -> i32;

    /// The `DW_ATE_*` encoding of a `DIBasicType`; 0 for another class.
    pub(super) fn offload_di_basic_encoding(ty: LLVMMetadataRef) -> u32;

    /// 1 when a `DISubprogram` says its function was optimized, else 0.
    pub(super) fn offload_di_subprogram_is_optimized(subprogram: LLVMMetadataRef) -> i32;

    /// The discriminator member (a `DIDerivedType`) of a variant part: the
    /// artificial member holding a Rust enum's tag, or the niche field's
    /// bytes; null for none or another class.
    pub(super) fn offload_di_discriminator(variant_part: LLVMMetadataRef) -> LLVMMetadataRef;

    /// Makes alias `alias` of a defined function of the same type a
    /// function of its own (a clone of the aliasee's body and
    /// `DISubprogram`, under the alias's name, linkage, visibility, DLL
    /// storage and dso_local, without `unnamed_addr`), replacing and
    /// erasing the alias. Null, with the module unchanged, when it cannot;
    /// `*why` (always written) says why: 1 not an alias of a defined
    /// function, 2 the alias's function type is not its aliasee's, 3
    /// something other than `@llvm.used`/`@llvm.compiler.used` uses the
    /// alias; 0 on success.
    pub(super) fn offload_ir_unmerge_alias(alias: LLVMValueRef, why: *mut i32) -> LLVMValueRef;

    /// The Itanium (C++) demangling of the `len` bytes at `symbol`: a
    /// NUL-terminated string from `malloc` (free it with
    /// `LLVMDisposeMessage`), or null when it is not a mangled name.
    pub(super) fn offload_ir_itanium_demangle(
        symbol: *const std::ffi::c_char,
        len: usize,
    ) -> *mut std::ffi::c_char;

    /// `SplitBlock` right after `inst`: the new block holding the rest,
    /// which the old block branches to; null for no instruction in a block
    /// or a terminator.
    pub(super) fn offload_ir_split_block_after(inst: LLVMValueRef) -> LLVMBasicBlockRef;

    /// `InlineFunction` on a direct call of a defined function other than
    /// the caller: 1 when inlined, 0 (nothing changed) otherwise.
    pub(super) fn offload_ir_inline_call(call: LLVMValueRef) -> i32;

    /// A clone of defined function `function` with type `fn_type` (whose
    /// leading parameters are the old ones), internal, named
    /// `name[..len]`; null when the types do not fit.
    pub(super) fn offload_ir_clone_function(
        function: LLVMValueRef,
        fn_type: LLVMTypeRef,
        name: *const c_char,
        len: usize,
    ) -> LLVMValueRef;

    /// Runs function pipeline `pipeline[..len]` on `function` alone: 1 when
    /// it ran, 0 for no defined function or a pipeline that does not parse.
    pub(super) fn offload_ir_run_function_pipeline(
        function: LLVMValueRef,
        pipeline: *const c_char,
        len: usize,
    ) -> i32;

    /// The value pointer instruction `pointer` is based on through
    /// getelementptrs of constant indices and casts, and the constant byte
    /// offset from it in `*offset`; null when `pointer` is no instruction
    /// or the offset does not fit 64 bits.
    pub(super) fn offload_ir_strip_constant_offset(
        pointer: LLVMValueRef,
        offset: *mut i64,
    ) -> LLVMValueRef;

    /// The linkage name (else the name) of the subprogram enclosing the
    /// debug scope `scope`, its length in `*len`; null when `scope` is no
    /// local scope or lies in no subprogram. The bytes live as long as the
    /// context.
    pub(super) fn offload_di_scope_subprogram_name(
        scope: LLVMMetadataRef,
        len: *mut usize,
    ) -> *const c_char;
}
