// The lang items a `#![no_core]` GPU crate needs, shared by the Rust kernels
// of the tests and examples: stable rustc 1.95's `amdgcn-amd-amdhsa` and
// `nvptx64-nvidia-cuda` targets ship no `core`, so each such crate declares
// the traits rustc itself asks for (Sized, Copy, the operators, ...).
//
// A crate uses it as a module (crate attributes cannot come from a module,
// so the crate root enables at least these features):
//
//     #![feature(no_core, lang_items, auto_traits)]
//     #![no_core]
//     #[path = "<relative path>/test-ir/Inputs/minicore.rs"]
//     mod minicore;
//
// rustc finds lang items wherever they are declared; a crate names them
// only to add impls (`impl minicore::Copy for f16 {}`). Nothing here
// is code a kernel runs: the operators on primitives are built in, and the
// impls below only let them type-check; lang items and impls a crate does
// not use emit no IR.

// The trait methods exist for their signatures; nothing calls them.
#![allow(dead_code)]

#[lang = "pointee_sized"]
pub trait PointeeSized {}
#[lang = "meta_sized"]
pub trait MetaSized: PointeeSized {}
#[lang = "sized"]
pub trait Sized: MetaSized {}
#[lang = "copy"]
pub trait Copy: Sized {}
// `Sync` is asked for by statics; `Freeze` by a `&T` parameter's noalias and
// readonly attributes (a T without interior mutability).
#[lang = "sync"]
pub unsafe auto trait Sync {}
#[lang = "freeze"]
pub unsafe auto trait Freeze {}
#[lang = "drop_in_place"]
fn drop_in_place<T: PointeeSized>(_: *mut T) {}
// Methods taking `&self`.
#[lang = "legacy_receiver"]
pub trait LegacyReceiver: PointeeSized {}
impl<T: PointeeSized> LegacyReceiver for &T {}

#[lang = "add"]
pub trait Add<Rhs = Self> {
    type Output;
    fn add(self, rhs: Rhs) -> Self::Output;
}
#[lang = "mul"]
pub trait Mul<Rhs = Self> {
    type Output;
    fn mul(self, rhs: Rhs) -> Self::Output;
}
#[lang = "div"]
pub trait Div<Rhs = Self> {
    type Output;
    fn div(self, rhs: Rhs) -> Self::Output;
}
#[lang = "eq"]
pub trait PartialEq<Rhs: PointeeSized = Self>: PointeeSized {
    fn eq(&self, other: &Rhs) -> bool;
}
#[lang = "partial_ord"]
pub trait PartialOrd<Rhs: PointeeSized = Self>: PartialEq<Rhs> + PointeeSized {
    fn lt(&self, other: &Rhs) -> bool;
}

macro_rules! minicore_arithmetic {
    ($($t:ty)*) => { $(
        impl Copy for $t {}
        impl Add for $t { type Output = $t; fn add(self, rhs: $t) -> $t { self + rhs } }
        impl Mul for $t { type Output = $t; fn mul(self, rhs: $t) -> $t { self * rhs } }
        impl Div for $t { type Output = $t; fn div(self, rhs: $t) -> $t { self / rhs } }
        impl PartialEq for $t { fn eq(&self, other: &$t) -> bool { *self == *other } }
        impl PartialOrd for $t { fn lt(&self, other: &$t) -> bool { *self < *other } }
    )* };
}
minicore_arithmetic!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64);
impl Copy for bool {}
impl<T: PointeeSized> Copy for *const T {}
impl<T: PointeeSized> Copy for *mut T {}
impl<T: PointeeSized> Copy for &T {}
impl<T: Copy, const N: usize> Copy for [T; N] {}
