//! The kind of a launch argument (a kernel record's `kind` field) and the
//! Rust scalar types a kernel takes by value with theirs. A leaf: the
//! [record](crate::record) stores kinds, the [layout word](crate::layout)
//! of a scalar mixes its kind in.

/// [`ArgRecord::kind`](crate::record::ArgRecord::kind) of a pointer.
pub const KIND_PTR: u16 = 1;
/// [`ArgRecord::kind`](crate::record::ArgRecord::kind) of an integer.
pub const KIND_INT: u16 = 2;
/// [`ArgRecord::kind`](crate::record::ArgRecord::kind) of a float.
pub const KIND_FLOAT: u16 = 3;
/// [`ArgRecord::kind`](crate::record::ArgRecord::kind) of a `bool`.
pub const KIND_BOOL: u16 = 4;
/// A Rust type a kernel takes by value in one 8-byte launch slot, and its
/// [`ArgRecord::kind`](crate::record::ArgRecord::kind).
pub trait ScalarArg: Copy {
    /// [`KIND_INT`], [`KIND_FLOAT`] or [`KIND_BOOL`].
    const KIND: u16;
}

macro_rules! scalar_args {
    ($kind:ident: $($t:ty),*) => { $(impl ScalarArg for $t { const KIND: u16 = $kind; })* };
}
scalar_args!(KIND_INT: u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);
scalar_args!(KIND_FLOAT: f32, f64);
scalar_args!(KIND_BOOL: bool);
