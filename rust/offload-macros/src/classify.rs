//! How a kernel parameter crosses to the device, from its Rust type.

use syn::{GenericArgument, PathArguments, Type};

/// Direction of a raw-pointer wrapper.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    In,
    Out,
    InOut,
}

/// A parameter's shape: what the launch passes and maps.
#[derive(Clone)]
pub enum Shape {
    /// An integer, float or `bool` by value (LITERAL).
    Scalar(Type),
    /// A `DeviceCopy` value by value: a pointer to a copy mapped TO.
    ByValue(Type),
    /// `&T` (TO) or `&mut T` (TO|FROM).
    Ref { ty: Type, mutable: bool },
    /// `&[T]` (TO) or `&mut [T]` (TO|FROM): pointer and length.
    Slice { elem: Type, mutable: bool },
    /// `Out<'_, T>`: pointer, FROM.
    OutOne(Type),
    /// `Out<'_, [T]>`: pointer and length, FROM.
    OutSlice(Type),
    /// `RawIn<T>`, `RawOut<T>`, `RawInOut<T>`: pointer and length.
    Raw { elem: Type, dir: Dir },
}

impl Shape {
    /// Short tag for the signature hash.
    pub fn tag(&self) -> &'static str {
        match self {
            Shape::Scalar(_) => "s",
            Shape::ByValue(_) => "v",
            Shape::Ref { mutable: false, .. } => "r",
            Shape::Ref { mutable: true, .. } => "m",
            Shape::Slice { mutable: false, .. } => "sr",
            Shape::Slice { mutable: true, .. } => "sm",
            Shape::OutOne(_) => "o",
            Shape::OutSlice(_) => "so",
            Shape::Raw { dir: Dir::In, .. } => "ri",
            Shape::Raw { dir: Dir::Out, .. } => "ro",
            Shape::Raw {
                dir: Dir::InOut, ..
            } => "rio",
        }
    }

    /// The type the hash and the DeviceCopy check look at.
    pub fn inner(&self) -> &Type {
        match self {
            Shape::Scalar(t) | Shape::ByValue(t) | Shape::OutOne(t) | Shape::OutSlice(t) => t,
            Shape::Ref { ty, .. } => ty,
            Shape::Slice { elem, .. } | Shape::Raw { elem, .. } => elem,
        }
    }

    /// What the launch does with it, for the launcher's docs.
    pub fn describe(&self) -> &'static str {
        match self {
            Shape::Scalar(_) => "passed by value",
            Shape::ByValue(_) => "copied to the device (TO), the kernel gets its own copy",
            Shape::Ref { mutable: false, .. } | Shape::Slice { mutable: false, .. } => {
                "copied to the device (TO)"
            }
            Shape::Ref { mutable: true, .. } | Shape::Slice { mutable: true, .. } => {
                "copied to the device and back (TO|FROM)"
            }
            Shape::OutOne(_) | Shape::OutSlice(_) => {
                "write-only: copied back from the device only (FROM)"
            }
            Shape::Raw { dir: Dir::In, .. } => "raw pointer, copied to the device (TO)",
            Shape::Raw { dir: Dir::Out, .. } => "raw pointer, copied back (FROM)",
            Shape::Raw {
                dir: Dir::InOut, ..
            } => "raw pointer, copied to the device and back (TO|FROM)",
        }
    }
}

const SCALARS: &[&str] = &[
    "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64", "bool",
];

const IMPL_OR_DYN: &str = "`impl Trait` and `dyn Trait` cannot be passed to a kernel: kernel arguments have concrete types";

fn error(ty: &Type, message: &str) -> syn::Error {
    syn::Error::new_spanned(ty, message)
}

/// The single type argument of a path segment like `Out<'_, T>`.
fn type_argument(args: &PathArguments) -> Option<&Type> {
    let PathArguments::AngleBracketed(args) = args else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    let first = types.next()?;
    types.next().is_none().then_some(first)
}

/// The shape of a parameter of type `ty`, or an error pointing at it.
pub fn classify(ty: &Type) -> syn::Result<Shape> {
    let shape = shape_of(ty)?;
    // What a reference, slice, `Out` or `Raw*` points at: no `impl Trait` or
    // `dyn Trait` there either (nor, unparenthesized, after `*const`), no
    // `impl Trait` anywhere (it makes the kernel generic), nothing unsized.
    match shape.inner() {
        Type::ImplTrait(_) | Type::TraitObject(_) => Err(error(ty, IMPL_OR_DYN)),
        _ if has_impl_trait(quote::quote!(#ty)) => Err(error(ty, IMPL_OR_DYN)),
        Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => Err(error(
            ty,
            "a `str` cannot be passed to a kernel: pass its bytes, `[u8]` (`s.as_bytes()`)",
        )),
        Type::Slice(_) => Err(error(
            ty,
            "write `RawIn<T>`, `RawOut<T>`, `RawInOut<T>` with the element type, not a slice",
        )),
        _ => Ok(shape),
    }
}

/// Whether `tokens` (a type) hold the keyword `impl`: only `impl Trait`
/// can put it in a type.
fn has_impl_trait(tokens: proc_macro2::TokenStream) -> bool {
    tokens.into_iter().any(|tree| match tree {
        proc_macro2::TokenTree::Ident(i) => i == "impl",
        proc_macro2::TokenTree::Group(g) => has_impl_trait(g.stream()),
        _ => false,
    })
}

fn shape_of(ty: &Type) -> syn::Result<Shape> {
    match ty {
        Type::Paren(p) => classify(&p.elem),
        Type::Group(g) => classify(&g.elem),
        Type::Reference(r) => {
            let mutable = r.mutability.is_some();
            match &*r.elem {
                Type::Slice(s) => Ok(Shape::Slice {
                    elem: (*s.elem).clone(),
                    mutable,
                }),
                Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => Err(error(
                    ty,
                    "a `&str` cannot be passed to a kernel: pass its bytes, `&[u8]` (`s.as_bytes()`)",
                )),
                Type::TraitObject(_) => Err(error(
                    ty,
                    "a trait object cannot be passed to a kernel: its vtable points at host code",
                )),
                elem => Ok(Shape::Ref {
                    ty: elem.clone(),
                    mutable,
                }),
            }
        }
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return Err(error(ty, "this type cannot be passed to a kernel"));
            };
            let name = last.ident.to_string();
            let dir = match name.as_str() {
                "RawIn" => Some(Dir::In),
                "RawOut" => Some(Dir::Out),
                "RawInOut" => Some(Dir::InOut),
                _ => None,
            };
            if name == "Out" {
                let inner = type_argument(&last.arguments)
                    .ok_or_else(|| error(ty, "write `Out<'_, T>` or `Out<'_, [T]>`"))?;
                return Ok(match inner {
                    Type::Slice(s) => Shape::OutSlice((*s.elem).clone()),
                    other => Shape::OutOne(other.clone()),
                });
            }
            if let Some(dir) = dir {
                let elem = type_argument(&last.arguments)
                    .ok_or_else(|| error(ty, "write `RawIn<T>` with the element type"))?;
                return Ok(Shape::Raw {
                    elem: elem.clone(),
                    dir,
                });
            }
            if p.path.segments.len() == 1
                && last.arguments.is_empty()
                && SCALARS.contains(&name.as_str())
            {
                return Ok(Shape::Scalar(ty.clone()));
            }
            Ok(Shape::ByValue(ty.clone()))
        }
        Type::Array(_) => Ok(Shape::ByValue(ty.clone())),
        Type::Ptr(_) => Err(error(
            ty,
            "a raw pointer cannot be a kernel argument: nothing says how much it points at or which way the data goes; use `offload::RawIn<T>`, `RawOut<T>` or `RawInOut<T>` (pointer, length and direction)",
        )),
        Type::Tuple(t) if t.elems.is_empty() => {
            Err(error(ty, "a `()` parameter passes nothing; remove it"))
        }
        Type::Tuple(_) => Err(error(
            ty,
            "a tuple has no C layout: use a #[repr(C)] struct with #[derive(Clone, Copy, offload::DeviceCopy)]",
        )),
        Type::BareFn(_) => Err(error(
            ty,
            "a function pointer cannot be passed to a kernel: it points at host code",
        )),
        Type::ImplTrait(_) | Type::TraitObject(_) => Err(error(ty, IMPL_OR_DYN)),
        Type::Never(_) => Err(error(ty, "a `!` parameter can never be passed")),
        _ => Err(error(ty, "this type cannot be passed to a kernel")),
    }
}
