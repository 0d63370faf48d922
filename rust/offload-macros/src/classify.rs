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
    /// `&T`: pointer, TO.
    Ref(Type),
    /// `&[T]`: pointer and length, TO.
    Slice(Type),
    /// `InOut<'_, T>`: pointer, TO|FROM.
    InOutOne(Type),
    /// `InOut<'_, [T]>`: pointer and length, TO|FROM.
    InOutSlice(Type),
    /// `Out<'_, T>`: pointer, FROM.
    OutOne(Type),
    /// `Out<'_, [T]>`: pointer and length, FROM.
    OutSlice(Type),
    /// `&A` for an atomic type `A`: a pointer to its `value` type, TO|FROM.
    AtomicOne { atomic: Type, value: Type },
    /// `&[A]` for an atomic type `A`: pointer and length, TO|FROM.
    AtomicSlice { atomic: Type, value: Type },
    /// `RawIn<T>`, `RawOut<T>`, `RawInOut<T>`: pointer and length.
    Raw { elem: Type, dir: Dir },
}

impl Shape {
    /// Short tag for the signature hash.
    pub fn tag(&self) -> &'static str {
        match self {
            Shape::Scalar(_) => "s",
            Shape::ByValue(_) => "v",
            Shape::Ref(_) => "r",
            Shape::InOutOne(_) => "m",
            Shape::Slice(_) => "sr",
            Shape::InOutSlice(_) => "sm",
            Shape::OutOne(_) => "o",
            Shape::OutSlice(_) => "so",
            Shape::AtomicOne { .. } => "a",
            Shape::AtomicSlice { .. } => "sa",
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
            Shape::Scalar(t)
            | Shape::ByValue(t)
            | Shape::Ref(t)
            | Shape::Slice(t)
            | Shape::InOutOne(t)
            | Shape::InOutSlice(t)
            | Shape::OutOne(t)
            | Shape::OutSlice(t) => t,
            Shape::AtomicOne { atomic, .. } | Shape::AtomicSlice { atomic, .. } => atomic,
            Shape::Raw { elem, .. } => elem,
        }
    }

    /// What the launch does with it, for the launcher's docs.
    pub fn describe(&self) -> &'static str {
        match self {
            Shape::Scalar(_) => "passed by value",
            Shape::ByValue(_) => "copied to the device (TO), the kernel gets its own copy",
            Shape::Ref(_) | Shape::Slice(_) => "copied to the device (TO)",
            Shape::InOutOne(_) | Shape::InOutSlice(_) => "copied to the device and back (TO|FROM)",
            Shape::AtomicOne { .. } | Shape::AtomicSlice { .. } => {
                "atomics: the plain values copied to the device and back (TO|FROM)"
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

/// The type arguments of a path segment like `Out<'_, [T], P>`.
fn type_arguments(args: &PathArguments) -> Vec<&Type> {
    let PathArguments::AngleBracketed(args) = args else {
        return Vec::new();
    };
    args.args
        .iter()
        .filter_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// The single type argument of a path segment like `RawIn<T>`.
fn type_argument(args: &PathArguments) -> Option<&Type> {
    match type_arguments(args)[..] {
        [only] => Some(only),
        _ => None,
    }
}

/// The viewed type of `Out<'_, T>`, `Out<'_, [T], P>` (a slice with its
/// partition `P`, which the entry point's return type takes from the
/// kernel's signature) or the same `InOut`.
fn view_argument(args: &PathArguments) -> Option<&Type> {
    match type_arguments(args)[..] {
        [only] => Some(only),
        [slice @ Type::Slice(_), _partition] => Some(slice),
        _ => None,
    }
}

/// The shape of a parameter of type `ty`, or an error pointing at it;
/// `param` names the parameter and its kernel for the errors that need
/// them (``kernel `k`, parameter `x` ``).
pub fn classify(ty: &Type, param: &str) -> syn::Result<Shape> {
    let shape = shape_of(ty, param)?;
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

/// The atomic types a kernel parameter may reference (`&A`, `&[A]`).
const ATOMICS: &[&str] = &[
    "AtomicU32",
    "AtomicI32",
    "AtomicU64",
    "AtomicI64",
    "AtomicUsize",
    "AtomicIsize",
    "AtomicF32",
    "AtomicF64",
];

/// `core::sync::atomic`'s other atomics.
const OTHER_ATOMICS: &[&str] = &[
    "AtomicBool",
    "AtomicU8",
    "AtomicI8",
    "AtomicU16",
    "AtomicI16",
    "AtomicPtr",
];

/// The last segment's name of a path type without `<...>` arguments.
fn plain_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            last.arguments.is_empty().then(|| last.ident.to_string())
        }
        Type::Paren(p) => plain_name(&p.elem),
        Type::Group(g) => plain_name(&g.elem),
        _ => None,
    }
}

/// The shape of `&A` or `&[A]` (`ty`, referencing `elem`) for an atomic
/// type `A`, `None` for other types.
fn atomic(ty: &Type, elem: &Type, param: &str) -> syn::Result<Option<Shape>> {
    let (atomic, slice) = match elem {
        Type::Slice(s) => (&*s.elem, true),
        other => (other, false),
    };
    let Some(name) = plain_name(atomic) else {
        return Ok(None);
    };
    if OTHER_ATOMICS.contains(&name.as_str()) {
        return Err(error(
            ty,
            &format!(
                "{param}: `{name}` cannot be a kernel parameter: atomic kernel parameters are `&[A]` and `&A` for A = AtomicU32, AtomicI32, AtomicU64, AtomicI64, AtomicUsize, AtomicIsize, offload::atomic::AtomicF32 or AtomicF64 (the widths both GPU targets update atomically)"
            ),
        ));
    }
    if !ATOMICS.contains(&name.as_str()) {
        return Ok(None);
    }
    let atomic = atomic.clone();
    let value: Type = syn::parse_quote!(<#atomic as ::offload::atomic::DeviceAtomic>::Value);
    Ok(Some(if slice {
        Shape::AtomicSlice { atomic, value }
    } else {
        Shape::AtomicOne { atomic, value }
    }))
}

/// The error for a `&mut` parameter referencing `elem`: every thread of
/// the grid would get the same `&mut`.
fn shared_mut(elem: &Type) -> String {
    let (inner, slice) = match elem {
        Type::Slice(s) => (&*s.elem, true),
        other => (other, false),
    };
    let text = quote::quote!(#inner).to_string().replace(" :: ", "::");
    if plain_name(inner).is_some_and(|n| ATOMICS.contains(&n.as_str())) {
        let sound = if slice {
            format!("&[{text}]")
        } else {
            format!("&{text}")
        };
        return format!(
            "`&mut {}`: atomics are shared by the threads of the grid: take `{sound}` (the host still passes `&mut`)",
            &sound[1..]
        );
    }
    let (view, host) = if slice {
        (format!("InOut<'_, [{text}]>"), format!("&mut [{text}]"))
    } else {
        (format!("InOut<'_, {text}>"), format!("&mut {text}"))
    };
    let reach = if slice {
        format!(
            "its `.grid_stride()` gives each thread its own elements; `InOut<'_, [{text}], offload::partition::FirstThread>` gives all of them to one thread"
        )
    } else {
        "its `.first_thread()` gives it to one thread".to_owned()
    };
    format!(
        "`{host}` would be the same `&mut` in every thread of the grid, a data race once they run concurrently: take `offload::{view}` (mapped TO|FROM; {reach}), `offload::Out` if the kernel only writes it, or atomics (`&[AtomicU32]`); the host still passes `{host}`"
    )
}

fn shape_of(ty: &Type, param: &str) -> syn::Result<Shape> {
    match ty {
        Type::Paren(p) => classify(&p.elem, param),
        Type::Group(g) => classify(&g.elem, param),
        Type::Reference(r) if r.mutability.is_some() => {
            Err(error(ty, &format!("{param}: {}", shared_mut(&r.elem))))
        }
        Type::Reference(r) => {
            if let Some(shape) = atomic(ty, &r.elem, param)? {
                return Ok(shape);
            }
            match &*r.elem {
                Type::Slice(s) => Ok(Shape::Slice((*s.elem).clone())),
                Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => Err(error(
                    ty,
                    "a `&str` cannot be passed to a kernel: pass its bytes, `&[u8]` (`s.as_bytes()`)",
                )),
                Type::TraitObject(_) => Err(error(
                    ty,
                    "a trait object cannot be passed to a kernel: its vtable points at host code",
                )),
                elem => Ok(Shape::Ref(elem.clone())),
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
            if name == "Out" || name == "InOut" {
                let inner = view_argument(&last.arguments).ok_or_else(|| {
                    error(
                        ty,
                        &format!(
                            "{param}: write `{name}<'_, T>`, `{name}<'_, [T]>` or `{name}<'_, [T], P>` with a partition `P` of `offload::partition`"
                        ),
                    )
                })?;
                return Ok(match (inner, name == "Out") {
                    (Type::Slice(s), true) => Shape::OutSlice((*s.elem).clone()),
                    (other, true) => Shape::OutOne(other.clone()),
                    (Type::Slice(s), false) => Shape::InOutSlice((*s.elem).clone()),
                    (other, false) => Shape::InOutOne(other.clone()),
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
