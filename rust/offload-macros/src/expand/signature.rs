//! The kernel's signature: the checks a kernel function passes, and its
//! parameters with their shapes.

use proc_macro2::{Ident, Span};
use syn::spanned::Spanned;
use syn::{FnArg, GenericParam, ItemFn, Pat, ReturnType, Type};

use crate::classify::{Shape, classify};

/// A kernel parameter: its name, its type as written, its shape.
pub struct Param {
    pub name: Ident,
    pub ty: Type,
    pub shape: Shape,
}

/// An error at the first part of the signature a kernel cannot have.
pub fn check_signature(function: &ItemFn) -> syn::Result<()> {
    let sig = &function.sig;
    let fail = |span: Span, message: &str| Err(syn::Error::new(span, message));
    if let Some(t) = &sig.asyncness {
        return fail(t.span(), "a kernel cannot be async");
    }
    if let Some(t) = &sig.constness {
        return fail(t.span(), "a kernel cannot be const");
    }
    if let Some(t) = &sig.unsafety {
        return fail(
            t.span(),
            "a kernel is a safe function: its arguments are checked by their types; take raw pointers as offload::RawIn/RawOut/RawInOut",
        );
    }
    if let Some(abi) = &sig.abi {
        return fail(
            abi.span(),
            "remove the ABI: #[kernel] gives the kernel entry point its own",
        );
    }
    if let Some(v) = &sig.variadic {
        return fail(v.span(), "a kernel cannot be variadic");
    }
    // Type and const parameters: `super::generic::type_param`.
    let generic = sig
        .generics
        .params
        .iter()
        .any(|p| !matches!(p, GenericParam::Lifetime(_)));
    if let Some(w) = &sig.generics.where_clause
        && !generic
    {
        return fail(
            w.span(),
            "a kernel without type parameters cannot have a where clause",
        );
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        let unit = matches!(&**ty, Type::Tuple(t) if t.elems.is_empty());
        if !unit {
            return fail(
                ty.span(),
                "a kernel returns nothing: write results through `offload::Out`, `offload::InOut` or atomic parameters",
            );
        }
    }
    Ok(())
}

/// The parameters, or an error at the first one a kernel cannot take.
pub fn params(function: &ItemFn) -> syn::Result<Vec<Param>> {
    let mut out = Vec::new();
    for input in &function.sig.inputs {
        let typed = match input {
            FnArg::Receiver(r) => {
                return Err(syn::Error::new(
                    r.span(),
                    "a kernel is a free function, not a method",
                ));
            }
            FnArg::Typed(t) => t,
        };
        let name = match &*typed.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "a kernel parameter is a plain name (`x` or `mut x`)",
                ));
            }
        };
        if name == "launch" {
            return Err(syn::Error::new(
                name.span(),
                "`launch` names the host launcher's first argument (the Launch); rename this parameter",
            ));
        }
        if name.to_string().starts_with("__offload_") {
            return Err(syn::Error::new(
                name.span(),
                "names starting with `__offload_` are the #[kernel] expansion's; rename this parameter",
            ));
        }
        let context = format!("kernel `{}`, parameter `{name}`", function.sig.ident);
        let shape = classify(&typed.ty, &context)?;
        out.push(Param {
            name,
            ty: (*typed.ty).clone(),
            shape,
        });
    }
    Ok(out)
}
