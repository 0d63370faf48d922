//! Generic kernels: `#[kernel(instances(f32, f64))]` on a function with one
//! type parameter. The image is built before any launch is compiled (and a
//! proc macro sees no launches), so the instances are listed: each is a
//! kernel of its own, with its own symbol (`axpy_f32`), entry point, record
//! and launch stub. The host's launcher is generic over a sealed trait the
//! listed types alone implement, so launching another instance is a
//! compile-time error naming the kernel and its instances.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{GenericParam, ItemFn, Type};

use super::device::Callee;
use super::host::{self, LauncherItem};
use super::signature::{Param, params};
use super::{Options, checks, signature_hash, symbol_of};

/// The type parameter of a kernel with `instances(...)`, `None` for a
/// kernel without type parameters; an error at a const parameter, at a
/// second type parameter, at a type parameter without instances and at
/// instances without a type parameter.
pub fn type_param(function: &ItemFn, options: &Options) -> syn::Result<Option<Ident>> {
    let mut found: Option<Ident> = None;
    for param in &function.sig.generics.params {
        match param {
            GenericParam::Lifetime(_) => {}
            GenericParam::Const(c) => {
                return Err(syn::Error::new(
                    c.span(),
                    "a kernel cannot have a const parameter: instances are listed as types in `#[kernel(instances(...))]`; pass the value as an argument, or write one #[kernel] per value that calls a const-generic function",
                ));
            }
            GenericParam::Type(t) if found.is_some() => {
                return Err(syn::Error::new(
                    t.span(),
                    "a generic kernel has one type parameter (its instances are the types in `#[kernel(instances(...))]`); write one generic #[kernel] per combination of the others, or make them one type",
                ));
            }
            GenericParam::Type(t) => found = Some(t.ident.clone()),
        }
    }
    match (&found, &options.instances) {
        (Some(t), None) => Err(syn::Error::new(
            t.span(),
            format!(
                "a generic kernel lists the types it is built for: `#[kernel(instances(f32, f64))]`; the image is built before any launch is compiled, so each instance of `{t}` is a kernel of its own (symbol `{}_f32`)",
                function.sig.ident
            ),
        )),
        (None, Some(_)) => Err(syn::Error::new(
            function.sig.ident.span(),
            "`instances(...)` is for a generic kernel: this one has no type parameter",
        )),
        _ => Ok(found),
    }
}

/// Replaces the type parameter by an instance's type.
struct Substitute<'a> {
    param: &'a Ident,
    with: &'a Type,
}

impl VisitMut for Substitute<'_> {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(p) = ty
            && p.qself.is_none()
            && p.path.is_ident(self.param)
        {
            *ty = self.with.clone();
            return;
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// A type as the errors and docs show it: `offload::atomic::AtomicU32`.
fn type_text(ty: &Type) -> String {
    quote!(#ty)
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" < ", "<")
        .replace(" >", ">")
}

/// The instance's symbol suffix: the type's text, every run of other
/// characters than ASCII letters and digits one `_` (`f32`, `common_Vec3`).
fn suffix(ty: &Type) -> String {
    let text = quote!(#ty).to_string();
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// One instance: its type, its symbol and its parameters with the type
/// substituted.
struct Instance {
    ty: Type,
    symbol: String,
    suffix: String,
    params: Vec<Param>,
}

/// The instances of `function`, each parameter of the same form as the
/// generic one (a scalar or a value by value stay a value: both are `T`).
fn instances(
    function: &ItemFn,
    param: &Ident,
    types: &[Type],
    base: &str,
    generic: &[Param],
) -> syn::Result<Vec<Instance>> {
    let mut out: Vec<Instance> = Vec::new();
    for ty in types {
        let suffix = suffix(ty);
        let symbol = format!("{base}_{suffix}");
        if let Some(clash) = super::reserved::clash(&symbol) {
            return Err(syn::Error::new(
                ty.span(),
                format!(
                    "kernel `{}`, instance `{}`: its symbol `{symbol}` is taken by {clash}; a kernel's symbol is exported from its image: give the generic kernel another base symbol with `#[kernel(name = \"...\")]`",
                    function.sig.ident,
                    type_text(ty)
                ),
            ));
        }
        if let Some(other) = out.iter().find(|i| i.symbol == symbol) {
            let (a, b) = (&other.ty, ty);
            return Err(syn::Error::new(
                ty.span(),
                format!(
                    "kernel `{}`: the instances `{}` and `{}` have the same symbol `{symbol}`; list each type once",
                    function.sig.ident,
                    type_text(a),
                    type_text(b)
                ),
            ));
        }
        let mut concrete = function.clone();
        Substitute { param, with: ty }.visit_signature_mut(&mut concrete.sig);
        let params = params(&concrete)?;
        for (g, p) in generic.iter().zip(&params) {
            let value = |tag| matches!(tag, "s" | "v");
            let (gt, pt) = (g.shape.tag(), p.shape.tag());
            if gt != pt && !(value(gt) && value(pt)) {
                return Err(syn::Error::new(
                    ty.span(),
                    format!(
                        "kernel `{}`, instance `{}`: parameter `{}` is {} in this instance but {} as written; a parameter of a generic kernel crosses to the device the same way in every instance",
                        function.sig.ident,
                        type_text(ty),
                        p.name,
                        p.shape.describe(),
                        g.shape.describe()
                    ),
                ));
            }
        }
        out.push(Instance {
            ty: ty.clone(),
            symbol,
            suffix,
            params,
        });
    }
    Ok(out)
}

/// The expansion of a generic kernel with type parameter `param`: the
/// checks of every instance, then the device half (the function as
/// written and each instance's entry point and record) and the host half
/// (its body, each instance's launcher and the generic launcher).
pub fn kernel(
    options: &Options,
    function: &ItemFn,
    param: &Ident,
    generic: &[Param],
    features: &[String],
) -> syn::Result<TokenStream> {
    let types = options.instances.as_deref().unwrap_or_default();
    let base = symbol_of(options, function)?;
    let instances = instances(function, param, types, &base, generic)?;
    let generic_decls = host::plain_decls(generic);
    let args: Vec<&Ident> = generic.iter().map(|p| &p.name).collect();
    let shared = Generic {
        name: &function.sig.ident,
        param,
        decls: &generic_decls,
        args: &args,
        features,
    };
    let InstanceItems {
        checks,
        device,
        host,
    } = instance_items(&shared, &instances);
    let body = host::body(function);
    let launcher = generic_launcher(function, &shared, &instances, &host);
    let cfgs: Vec<_> = function.attrs.iter().filter(|a| super::is_cfg(a)).collect();
    Ok(quote! {
        #(#cfgs)*
        const _: () = { #(#checks)* };
        #(#cfgs)*
        ::offload::__kernel_item! {
            device {
                #function
                #(#device)*
            }
            host {
                #body
                #launcher
            }
        }
    })
}

/// What each instance adds to the expansion.
struct InstanceItems {
    /// Its parameters' checks and its kernel marker.
    checks: Vec<TokenStream>,
    /// Its entry point and record.
    device: Vec<TokenStream>,
    /// Its launcher and its impl of the sealed instance trait.
    host: Vec<TokenStream>,
}

fn instance_items(generic: &Generic, instances: &[Instance]) -> InstanceItems {
    let name = generic.name;
    let mut items = InstanceItems {
        checks: Vec::new(),
        device: Vec::new(),
        host: Vec::new(),
    };
    for instance in instances {
        let hash = signature_hash(&instance.symbol, &instance.params);
        items.checks.push(checks(&instance.params));
        items.checks.push(super::marker(
            &instance.symbol,
            &format!("{name}::<{}>", type_text(&instance.ty)),
        ));
        let ty = &instance.ty;
        let tag = format_ident!("{}_{}", name, instance.suffix);
        let callee = Callee {
            path: quote!(#name::<#ty>),
            tag: tag.clone(),
        };
        items.device.push(super::device::entry_point(
            None,
            &callee,
            &instance.params,
            &instance.symbol,
            hash,
            generic.features,
        ));
        items
            .host
            .push(host_instance(generic, instance, &tag, hash));
    }
    items
}

/// The launcher of the generic kernel `function`: generic over a sealed
/// trait that the `instances` alone implement (in their `host` items),
/// whose error names the kernel and its instances.
fn generic_launcher(
    function: &ItemFn,
    generic: &Generic,
    instances: &[Instance],
    host: &[TokenStream],
) -> TokenStream {
    let Generic {
        name,
        param,
        decls,
        args,
        ..
    } = generic;
    let trait_name = format_ident!("__offload_instance_{}", name);
    let sealed = format_ident!("__offload_sealed_{}", name);
    let list = instances
        .iter()
        .map(|i| type_text(&i.ty))
        .collect::<Vec<_>>()
        .join(", ");
    let message = format!("the generic kernel `{name}` has no instance for `{{Self}}`");
    let label = format!("`{name}` is built for {list} only");
    let note = format!(
        "the image holds the instances `#[kernel(instances({list}))]` lists: add `{{Self}}` there to launch it"
    );
    let (lp, result) = (launch_type(), result_type());
    let docs = function.attrs.iter().filter(|a| a.path().is_ident("doc"));
    let vis = &function.vis;
    let self_decls: Vec<TokenStream> = decls
        .iter()
        .map(|d| substitute_tokens(d, param, &quote!(Self)))
        .collect();
    let symbols = instances
        .iter()
        .map(|i| format!("`{}`", i.symbol))
        .collect::<Vec<_>>()
        .join(", ");
    let doc = format!(
        "\n\n# Launch\n\nLaunches the instance `{name}::<{param}>` of the generic kernel `{name}` with `launch`'s grid and waits for it; `Err` if the runtime did not launch it. Its instances: {list} (image symbols {symbols}); any other `{param}` does not compile."
    );
    let lifetimes = function.sig.generics.lifetimes();
    let span = Span::call_site();
    quote::quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(non_snake_case)]
        mod #sealed {
            pub trait Sealed {}
        }

        /// The instances of a generic kernel (sealed: only those its
        /// `#[kernel(instances(...))]` lists).
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        pub trait #trait_name: #sealed::Sealed + Sized {
            #[allow(clippy::too_many_arguments)]
            fn __offload_launch(launch: &#lp, #(#self_decls),*) -> #result;
        }

        #(#host)*

        #(#docs)*
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        #vis fn #name<#(#lifetimes,)* #param: #trait_name>(launch: &#lp, #(#decls),*) -> #result {
            <#param as #trait_name>::__offload_launch(launch, #(#args),*)
        }
    }
}

fn launch_type() -> TokenStream {
    quote!(::offload::Launch)
}

fn result_type() -> TokenStream {
    quote!(::core::result::Result<(), ::offload::LaunchError>)
}

/// What every instance's host items share.
struct Generic<'a> {
    name: &'a Ident,
    param: &'a Ident,
    /// The launcher's parameter declarations as written (with `param`).
    decls: &'a [TokenStream],
    args: &'a [&'a Ident],
    features: &'a [String],
}

/// An instance's host items: its concrete launcher, the check of the
/// kernel's bounds for it, and its impls of the sealed instance trait.
fn host_instance(generic: &Generic, instance: &Instance, tag: &Ident, hash: u64) -> TokenStream {
    let Generic {
        name,
        param,
        decls,
        args,
        features,
    } = generic;
    let ty = &instance.ty;
    let trait_name = format_ident!("__offload_instance_{}", name);
    let sealed = format_ident!("__offload_sealed_{}", name);
    let launch_fn = format_ident!("__offload_launch_{}", tag);
    let item = LauncherItem {
        ident: launch_fn.clone(),
        vis: syn::Visibility::Inherited,
        attrs: Vec::new(),
        kernel: format!("{}::<{}>", name, type_text(ty)),
    };
    let launcher = host::launcher_fn(&item, &instance.params, &instance.symbol, hash, features);
    let decls: Vec<TokenStream> = decls
        .iter()
        .map(|d| substitute_tokens(d, param, &quote!(#ty)))
        .collect();
    let body_name = format_ident!("__offload_body_{}", name);
    let (lp, result) = (launch_type(), result_type());
    quote! {
        // The kernel's bounds and where clause hold for the instance
        // (the device build's entry point checks them there).
        const _: () = {
            let _ = #body_name::<#ty>;
        };
        #[doc(hidden)]
        #[allow(non_snake_case, clippy::too_many_arguments)]
        #launcher
        impl #sealed::Sealed for #ty {}
        impl #trait_name for #ty {
            #[allow(clippy::too_many_arguments)]
            fn __offload_launch(launch: &#lp, #(#decls),*) -> #result {
                #launch_fn(launch, #(#args),*)
            }
        }
    }
}

/// `tokens` with every identifier `param` replaced by `with`.
fn substitute_tokens(tokens: &TokenStream, param: &Ident, with: &TokenStream) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .flat_map(|tree| match tree {
            proc_macro2::TokenTree::Ident(i) if &i == param => with.clone(),
            proc_macro2::TokenTree::Group(g) => {
                let mut group = proc_macro2::Group::new(
                    g.delimiter(),
                    substitute_tokens(&g.stream(), param, with),
                );
                group.set_span(g.span());
                quote!(#group)
            }
            other => quote!(#other),
        })
        .collect()
}
