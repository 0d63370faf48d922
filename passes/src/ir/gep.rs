//! Element addresses (`getelementptr`) with the checks that make them safe
//! to build: inkwell marks every GEP `unsafe` because LLVM trusts the
//! indices it is given.

use inkwell::builder::{Builder, BuilderError};
use inkwell::types::{ArrayType, BasicType};
use inkwell::values::{IntValue, PointerValue};

/// The constant `getelementptr (T, ptr base, i64 index)`: `base` plus
/// `index` elements of `element`, as a constant expression (an address in
/// or one past the end of a global's initializer, for example).
pub fn const_element<'ctx>(
    base: PointerValue<'ctx>,
    element: impl BasicType<'ctx>,
    index: u64,
) -> PointerValue<'ctx> {
    let i64 = base.get_type().get_context().i64_type();
    // SAFETY: one `i64` index over a sized element type: LLVM computes
    // `base + index * sizeof(T)` and nothing else. Without `inbounds` the
    // result is defined whatever the index.
    unsafe { base.const_gep(element, &[i64.const_int(index, false)]) }
}

/// `getelementptr inbounds [N x T], ptr array, i64 0, i64 index` at the
/// builder: the address of element `index` of the array at `array`.
///
/// # Panics
/// When `index` is not below `N`: the address would not be in bounds.
pub fn array_element<'ctx>(
    builder: &Builder<'ctx>,
    ty: ArrayType<'ctx>,
    array: PointerValue<'ctx>,
    index: u32,
) -> Result<PointerValue<'ctx>, BuilderError> {
    assert!(
        index < ty.len(),
        "element {index} of a [{} x T] array",
        ty.len()
    );
    let i64 = ty.get_context().i64_type();
    let indices = [i64.const_zero(), i64.const_int(index.into(), false)];
    // SAFETY: indices (0, index) of an array type with index < N (asserted
    // above) address an element of the array, so `inbounds` holds whenever
    // `array` points at an `[N x T]`, which the caller's type says.
    unsafe { builder.build_in_bounds_gep(ty, array, &indices, "") }
}

/// `getelementptr T, ptr base, i32 index` at the builder: `base` plus a
/// run-time `index` elements of `element` (no `inbounds`: the caller's
/// loop bounds keep it in the array, LLVM assumes nothing).
pub fn element<'ctx>(
    builder: &Builder<'ctx>,
    element: impl BasicType<'ctx>,
    base: PointerValue<'ctx>,
    index: IntValue<'ctx>,
) -> Result<PointerValue<'ctx>, BuilderError> {
    // SAFETY: one index over a sized element type and no `inbounds`: LLVM
    // computes `base + index * sizeof(T)`, defined for any index; only a
    // load or store through it needs it in bounds.
    unsafe { builder.build_gep(element, base, &[index], "") }
}
