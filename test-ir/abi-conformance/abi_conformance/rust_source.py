"""The Rust side of a kernel: rustc 1.95 source for a `#![no_core]` crate
(`extern "gpu-kernel"`), with `const` checks that rustc agrees with the
layout model."""

from .aggregates import Array, Struct, Wrapper
from .types import Ptr

RUST_PRELUDE = """\
#![feature(no_core, lang_items, abi_gpu_kernel, intrinsics, rustc_attrs, auto_traits, builtin_syntax, f16)]
#![no_core]
#![allow(internal_features, improper_ctypes_definitions, improper_gpu_kernel_arg, improper_ctypes)]
#![allow(dead_code, unused, non_camel_case_types, non_snake_case)]
#[lang = "pointee_sized"] pub trait PointeeSized {}
#[lang = "meta_sized"] pub trait MetaSized: PointeeSized {}
#[lang = "sized"] pub trait Sized: MetaSized {}
#[lang = "copy"] pub trait Copy {}
#[lang = "freeze"] pub unsafe auto trait Freeze {}
#[lang = "unpin"] pub auto trait Unpin {}
#[lang = "unsafe_unpin"] pub unsafe auto trait UnsafeUnpin {}
#[lang = "neg"] pub trait Neg { type Output; fn neg(self) -> Self::Output; }
#[rustc_intrinsic] pub const fn size_of<T>() -> usize;
#[rustc_intrinsic] pub const fn align_of<T>() -> usize;
#[lang = "offset_of"] #[rustc_intrinsic] pub const fn offset_of<T: PointeeSized>(variant: u32, field: u32) -> usize;
macro_rules! scalars { ($($t:ty)*) => { $(impl Copy for $t {})* } }
scalars!(u8 i8 u16 i16 u32 i32 u64 i64 u128 i128 usize isize f16 f32 f64 bool char);
macro_rules! neg { ($($t:ty)*) => { $(impl Neg for $t { type Output = $t; fn neg(self) -> $t { -self } })* } }
neg!(i8 i16 i32 i64 i128 isize f16 f32 f64);
impl<T: Copy, const N: usize> Copy for [T; N] {}
impl<T: ?Sized> Copy for *const T {}
impl<T: ?Sized> Copy for *mut T {}
impl<'a, T: ?Sized> Copy for &'a T {}
/// NonNull<T>: a pointer that is never null (the niche Option uses).
#[rustc_layout_scalar_valid_range_start(1)] #[repr(transparent)] pub struct NN<T>(*const T);
impl<T> Copy for NN<T> {}
pub enum OptRef<'a, T> { None, Some(&'a T) }
impl<'a, T> Copy for OptRef<'a, T> {}
pub enum OptMut<'a, T> { None, Some(&'a mut T) }
pub enum OptNN<T> { None, Some(NN<T>) }
impl<T> Copy for OptNN<T> {}
pub enum Maybe<'a, T> { Some(&'a T), Nothing }
impl<'a, T> Copy for Maybe<'a, T> {}
const _: [(); 8] = [(); size_of::<OptRef<'static, u8>>()];
const _: [(); 8] = [(); size_of::<OptNN<u8>>()];
const _: [(); 8] = [(); size_of::<Maybe<'static, u64>>()];
const _: [(); 8] = [(); align_of::<u128>()];
"""


def signature(k):
    """The kernel's `extern "gpu-kernel"` signature; written parameters are `mut`."""
    written = {p for w in k.writes for p, _ in w["targets"]}
    parts = []
    for n, t in k.sig_params():
        if t is None:
            parts.append(f"out: *mut {k.rec_ty.name}")
        else:
            parts.append(f"{'mut ' if n in written else ''}{n}: {t.rust()}")
    return f"pub unsafe extern \"gpu-kernel\" fn {k.name}({', '.join(parts)})"


def kernel_rust(k):
    """The kernel's Rust: its types, record, layout checks and the kernel."""
    out = []
    for t in k.types:
        if hasattr(t, "rust_decl"):
            out.append(t.rust_decl())
            if t.copy():
                out.append(f"impl Copy for {t.name} {{}}")
    rec = k.rec_ty
    fields = ", ".join(f"pub r{i}: {t.rust()}" for i, (t, _) in enumerate(k.rec))
    out.append(f"#[repr(C)] pub struct {rec.name} {{ {fields} }}")
    out += asserts(k)
    out.append("#[unsafe(no_mangle)]")
    out.append(signature(k) + " {")
    out.append("    unsafe {")
    out += [f"        {s}" for s in k.rust_body]
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


def asserts(k):
    """`const` checks that rustc's sizes, alignments and field offsets are the model's."""
    out = []
    for t in k.types + [k.rec_ty]:
        if isinstance(t, (Ptr, Array)):
            continue
        rt = t.rust() if t is not k.rec_ty else t.name
        out.append(f"const _: [(); {t.size}] = [(); size_of::<{rt}>()];")
        out.append(f"const _: [(); {t.align}] = [(); align_of::<{rt}>()];")
        if isinstance(t, (Struct, Wrapper)):
            for f, o in t.field_offsets():
                out.append(f"const _: [(); {o}] = [(); builtin # offset_of({rt}, {f})];")
    return out
