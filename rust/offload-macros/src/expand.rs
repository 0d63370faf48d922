//! `#[kernel]`'s expansion: a device half (the kernel entry point and its
//! record) and a host half (the typed launcher), chosen by
//! `offload::__kernel_item!` from `offload`'s `device` feature.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, GenericParam, Ident, ItemFn, LitStr, Pat, ReturnType, Type};

use crate::classify::{Dir, Shape, classify};

/// `#[kernel(name = "symbol")]`.
#[derive(Default)]
pub struct Options {
    name: Option<LitStr>,
}

impl Options {
    pub fn parse(&mut self, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        if meta.path.is_ident("name") {
            let name: LitStr = meta.value()?.parse()?;
            let valid = !name.value().is_empty()
                && name
                    .value()
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.');
            if !valid {
                return Err(syn::Error::new(
                    name.span(),
                    "a kernel symbol is ASCII letters, digits, '_', '$' and '.'",
                ));
            }
            self.name = Some(name);
            Ok(())
        } else {
            Err(meta.error("unknown #[kernel] option; the only one is `name = \"symbol\"`"))
        }
    }
}

struct Param {
    name: Ident,
    ty: Type,
    shape: Shape,
}

fn check_signature(function: &ItemFn) -> syn::Result<()> {
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
    for param in &sig.generics.params {
        if !matches!(param, GenericParam::Lifetime(_)) {
            return fail(
                param.span(),
                "a kernel cannot be generic: the image holds one instance of each kernel; write one #[kernel] per type that calls a generic function",
            );
        }
    }
    if let Some(w) = &sig.generics.where_clause {
        return fail(w.span(), "a kernel cannot have a where clause");
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        let unit = matches!(&**ty, Type::Tuple(t) if t.elems.is_empty());
        if !unit {
            return fail(
                ty.span(),
                "a kernel returns nothing: write results through `&mut` or `offload::Out` parameters",
            );
        }
    }
    Ok(())
}

fn params(function: &ItemFn) -> syn::Result<Vec<Param>> {
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
        let shape = classify(&typed.ty)?;
        out.push(Param {
            name,
            ty: (*typed.ty).clone(),
            shape,
        });
    }
    Ok(out)
}

/// FNV-1a 64 of the kernel's symbol and parameter shapes and types.
fn signature_hash(symbol: &str, params: &[Param]) -> u64 {
    let mut text = String::from(symbol);
    for p in params {
        let inner = p.shape.inner();
        text.push_str(&format!("|{}:{}", p.shape.tag(), quote!(#inner)));
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

fn is_cfg(attr: &Attribute) -> bool {
    attr.path().is_ident("cfg") || attr.path().is_ident("cfg_attr")
}

/// The DeviceCopy checks, each at its parameter's type.
fn checks(params: &[Param]) -> TokenStream {
    let checks = params.iter().map(|p| {
        let ty = p.shape.inner();
        match &p.shape {
            Shape::Scalar(_) => {
                quote_spanned!(ty.span()=> ::offload::__private::assert_scalar::<#ty>();)
            }
            _ => quote_spanned!(ty.span()=> ::offload::__private::assert_device_copy::<#ty>();),
        }
    });
    quote! { const _: () = { #(#checks)* }; }
}

pub fn kernel(options: Options, function: ItemFn) -> syn::Result<TokenStream> {
    check_signature(&function)?;
    let params = params(&function)?;
    let name = &function.sig.ident;
    let symbol = options
        .name
        .map(|l| l.value())
        .unwrap_or_else(|| name.to_string().trim_start_matches("r#").to_owned());
    let hash = signature_hash(&symbol, &params);
    let checks = checks(&params);
    let device = device_half(&function, &params, &symbol, hash);
    let host = host_half(&function, &params, &symbol, hash);
    let cfgs: Vec<&Attribute> = function.attrs.iter().filter(|a| is_cfg(a)).collect();
    Ok(quote! {
        #(#cfgs)*
        #checks
        #(#cfgs)*
        ::offload::__kernel_item! {
            device { #device }
            host { #host }
        }
    })
}

fn device_half(function: &ItemFn, params: &[Param], symbol: &str, hash: u64) -> TokenStream {
    let name = &function.sig.ident;
    let entry = format_ident!("__offload_entry_{}", name);
    let record = format_ident!("__OFFLOAD_RECORD_{}", name);
    let record_symbol = format!("__offload_rs_record.{symbol}");
    let marker = format!("__offload_rs_kernel:{symbol}");
    let p = quote!(::offload::__private);
    let mut entry_params = Vec::new();
    let mut call_args = Vec::new();
    let mut records = Vec::new();
    for param in params {
        let n = &param.name;
        let len = format_ident!("{}_len", n);
        let index = records.len() as u16;
        let (ty_ptr, arg, record) = match &param.shape {
            Shape::Scalar(t) => (
                quote!(#t),
                quote!(#n),
                quote!(#p::ArgRecord::scalar::<#t>()),
            ),
            Shape::ByValue(t) => (
                quote!(*const #t),
                quote!(unsafe { #p::by_value(#n) }),
                quote!(#p::ArgRecord::pointer::<#t>(#p::TO)),
            ),
            Shape::Ref { ty, mutable: false } => (
                quote!(*const #ty),
                quote!(unsafe { #p::reference(#n) }),
                quote!(#p::ArgRecord::pointer::<#ty>(#p::TO)),
            ),
            Shape::Ref { ty, mutable: true } => (
                quote!(*mut #ty),
                quote!(unsafe { #p::reference_mut(#n) }),
                quote!(#p::ArgRecord::pointer::<#ty>(#p::TO | #p::FROM)),
            ),
            Shape::OutOne(t) => (
                quote!(*mut #t),
                quote!(unsafe { #p::out_one(#n) }),
                quote!(#p::ArgRecord::pointer::<#t>(#p::FROM)),
            ),
            Shape::Slice { elem, .. } | Shape::OutSlice(elem) | Shape::Raw { elem, .. } => {
                let (ptr, make, map) = slice_parts(&param.shape, elem);
                entry_params.push(quote!(#n: #ptr));
                entry_params.push(quote!(#len: usize));
                call_args.push(quote!(#make(#n, #len)));
                records.push(quote!(#p::ArgRecord::elements::<#elem>(#map, #index + 1)));
                records.push(quote!(#p::ArgRecord::scalar::<usize>()));
                continue;
            }
        };
        entry_params.push(quote!(#n: #ty_ptr));
        call_args.push(arg);
        records.push(record);
    }
    let attrs = &function.attrs;
    let vis = &function.vis;
    let sig = &function.sig;
    let block = &function.block;
    let gpu = quote!(any(target_arch = "amdgpu", target_arch = "nvptx64"));
    let body = quote! {
        #name(#(#call_args),*)
    };
    quote! {
        #(#attrs)*
        #vis #sig #block

        #[doc(hidden)]
        #[cfg(not(#gpu))]
        #[unsafe(export_name = #symbol)]
        unsafe extern "C" fn #entry(#(#entry_params),*) { #body }

        #[doc(hidden)]
        #[cfg(#gpu)]
        #[unsafe(export_name = #symbol)]
        unsafe extern "gpu-kernel" fn #entry(#(#entry_params),*) { #body }

        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #[unsafe(export_name = #record_symbol)]
        static #record: #p::KernelRecord = #p::KernelRecord::new(#symbol, #hash, &[#(#records),*]);

        #[doc(hidden)]
        const _: &str = #marker;
    }
}

/// Entry parameter type, the helper making the kernel's argument, the map.
fn slice_parts(shape: &Shape, elem: &Type) -> (TokenStream, TokenStream, TokenStream) {
    let p = quote!(::offload::__private);
    match shape {
        Shape::Slice { mutable: false, .. } => {
            (quote!(*const #elem), quote!(#p::slice), quote!(#p::TO))
        }
        Shape::Slice { mutable: true, .. } => (
            quote!(*mut #elem),
            quote!(#p::slice_mut),
            quote!(#p::TO | #p::FROM),
        ),
        Shape::OutSlice(_) => (quote!(*mut #elem), quote!(#p::out_slice), quote!(#p::FROM)),
        Shape::Raw { dir: Dir::In, .. } => {
            (quote!(*const #elem), quote!(#p::raw_in), quote!(#p::TO))
        }
        Shape::Raw { dir: Dir::Out, .. } => {
            (quote!(*mut #elem), quote!(#p::raw_out), quote!(#p::FROM))
        }
        Shape::Raw {
            dir: Dir::InOut, ..
        } => (
            quote!(*mut #elem),
            quote!(#p::raw_in_out),
            quote!(#p::TO | #p::FROM),
        ),
        _ => unreachable!("slice_parts on a one-slot shape"),
    }
}

/// One host parameter: its declaration, the statements filling its slots.
struct HostParam {
    decl: TokenStream,
    prepare: TokenStream,
    slots: Vec<(TokenStream, TokenStream)>,
}

/// `ty` with every elided or `'_` lifetime made `'static` (a DeviceCopy
/// type has no other; `impl Trait` arguments may not elide them).
fn static_lifetimes(ty: &Type) -> Type {
    struct Static;
    impl syn::visit_mut::VisitMut for Static {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.as_ref().is_none_or(|l| l.ident == "_") {
                r.lifetime = Some(syn::parse_quote!('static));
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            if l.ident == "_" {
                *l = syn::parse_quote!('static);
            }
        }
    }
    let mut ty = ty.clone();
    syn::visit_mut::VisitMut::visit_type_mut(&mut Static, &mut ty);
    ty
}

fn host_param(param: &Param, index: usize) -> HostParam {
    let p = quote!(::offload::__private);
    let n = &param.name;
    let a = format_ident!("__offload_a{}", index);
    let b = format_ident!("__offload_b{}", index);
    let c = format_ident!("__offload_c{}", index);
    let shape = match &param.shape {
        Shape::Ref { ty, mutable } => Shape::Ref {
            ty: static_lifetimes(ty),
            mutable: *mutable,
        },
        Shape::OutOne(ty) => Shape::OutOne(static_lifetimes(ty)),
        Shape::Slice { elem, mutable } => Shape::Slice {
            elem: static_lifetimes(elem),
            mutable: *mutable,
        },
        Shape::OutSlice(elem) => Shape::OutSlice(static_lifetimes(elem)),
        other => other.clone(),
    };
    let literal = |decl, slot| HostParam {
        decl,
        prepare: quote!(),
        slots: vec![(slot, quote!(0))],
    };
    let pointer = |decl, prepare| HostParam {
        decl,
        prepare,
        slots: vec![(quote!(#a), quote!(#c))],
    };
    let elements = |decl, prepare| HostParam {
        decl,
        prepare,
        slots: vec![(quote!(#a), quote!(#c)), (quote!(#b), quote!(0))],
    };
    match &shape {
        Shape::Scalar(t) => literal(quote!(#n: #t), quote!(#p::scalar::<#t>(#n))),
        Shape::ByValue(t) => pointer(
            quote!(#n: #t),
            quote! {
                let #b: #t = #n;
                let #a = &#b as *const #t as u64;
                let #c = ::core::mem::size_of::<#t>() as u64;
            },
        ),
        Shape::Ref { ty, mutable: false } => pointer(
            quote_spanned!(ty.span()=> #n: impl ::offload::HostIn<#ty>),
            quote!(let (#a, _, #c) = #p::host_in::<#ty, _>(&#n);),
        ),
        Shape::Ref { ty, mutable: true } | Shape::OutOne(ty) => pointer(
            quote_spanned!(ty.span()=> mut #n: impl ::offload::HostMut<#ty>),
            quote!(let (#a, _, #c) = #p::host_mut::<#ty, _>(&mut #n);),
        ),
        Shape::Slice {
            elem,
            mutable: false,
        } => elements(
            quote!(#n: impl ::offload::HostIn<[#elem]>),
            quote!(let (#a, #b, #c) = #p::host_in::<[#elem], _>(&#n);),
        ),
        Shape::Slice {
            elem,
            mutable: true,
        }
        | Shape::OutSlice(elem) => elements(
            quote!(mut #n: impl ::offload::HostMut<[#elem]>),
            quote!(let (#a, #b, #c) = #p::host_mut::<[#elem], _>(&mut #n);),
        ),
        Shape::Raw { elem, .. } => {
            let ty = &param.ty;
            elements(
                quote!(#n: #ty),
                quote! {
                    let #a = #n.as_ptr() as u64;
                    let #b = #n.len() as u64;
                    let #c = (#n.len() * ::core::mem::size_of::<#elem>()) as u64;
                },
            )
        }
    }
}

/// A type as source text: `&mut [f32]`, `Out<'_, [f32]>`.
fn type_text(ty: &Type) -> String {
    let raw = quote!(#ty).to_string();
    let mut out = String::new();
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let before = out.chars().last().unwrap_or(' ');
            let after = chars.get(i + 1).copied().unwrap_or(' ');
            let word = |c: char| c.is_alphanumeric() || c == '_';
            if (word(before) && (word(after) || after == '[' || after == '(' || after == '&'))
                || before == ','
            {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn host_half(function: &ItemFn, params: &[Param], symbol: &str, hash: u64) -> TokenStream {
    let name = &function.sig.ident;
    let name_text = name.to_string().trim_start_matches("r#").to_owned();
    let body_name = format_ident!("__offload_body_{}", name);
    let stub = format!("__offload_rs_launch.{symbol}.{hash:016x}");
    let mut body_sig = function.sig.clone();
    body_sig.ident = body_name;
    let block = &function.block;
    let other_attrs = function.attrs.iter().filter(|a| !is_doc(a));
    let docs = function.attrs.iter().filter(|a| is_doc(a));
    let vis = &function.vis;
    let host: Vec<HostParam> = params
        .iter()
        .enumerate()
        .map(|(i, p)| host_param(p, i))
        .collect();
    let decls = host.iter().map(|h| &h.decl);
    let prepares = host.iter().map(|h| &h.prepare);
    let (slots, sizes): (Vec<_>, Vec<_>) =
        host.iter().flat_map(|h| h.slots.iter().cloned()).unzip();
    let count = slots.len();
    let mut doc = format!(
        "\n\n# Launch\n\nLaunches the kernel `{name}` (image symbol `{symbol}`) with `launch`'s grid \
         and waits for it; `Err` if the runtime did not launch it. Arguments:\n"
    );
    for param in params {
        let ty = &param.ty;
        doc.push_str(&format!(
            "- `{}: {}`: {}\n",
            param.name,
            type_text(ty),
            param.shape.describe()
        ));
    }
    quote! {
        #(#other_attrs)*
        #[allow(dead_code, non_snake_case, unused_mut, unused_variables, clippy::all)]
        #body_sig #block

        #(#docs)*
        #[doc = #doc]
        #[allow(clippy::too_many_arguments, clippy::let_unit_value)]
        #vis fn #name(
            launch: &::offload::Launch,
            #(#decls),*
        ) -> ::core::result::Result<(), ::offload::LaunchError> {
            unsafe extern "C" {
                #[link_name = #stub]
                fn __offload_stub(config: *const ::offload::__private::LaunchConfig, args: *const u64) -> i32;
            }
            #(#prepares)*
            let __offload_args: [u64; #count] = [#(#slots),*];
            let __offload_sizes: [u64; #count] = [#(#sizes),*];
            // The slots point at the arguments, borrowed until the launch returns.
            unsafe {
                ::offload::__private::launch(
                    launch,
                    ::core::concat!(::core::module_path!(), "::", #name_text),
                    #symbol,
                    &__offload_args,
                    &__offload_sizes,
                    __offload_stub,
                )
            }
        }
    }
}
