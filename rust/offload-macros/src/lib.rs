//! Procedural macros of the [`offload`](https://docs.rs/offload) crate:
//! `#[kernel]` and `#[derive(DeviceCopy)]`. Use them through `offload`
//! (`offload::kernel`, `offload::DeviceCopy`); their expansion refers to it
//! as `::offload`.

mod classify;
mod expand;

use proc_macro::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, ItemFn, parse_macro_input};

/// Marks a kernel; see `offload::kernel`.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut options = expand::Options::default();
    let parser = syn::meta::parser(|meta| options.parse(meta));
    parse_macro_input!(attr with parser);
    let function = parse_macro_input!(item as ItemFn);
    match expand::kernel(options, function) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Derives `offload::DeviceCopy`; see there.
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    let input = parse_macro_input!(item as DeriveInput);
    match device_copy(&input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

fn device_copy(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let fields = match &input.data {
        Data::Struct(data) => &data.fields,
        Data::Enum(data) => {
            return Err(syn::Error::new(
                data.enum_token.span(),
                "DeviceCopy: an enum may hold bytes a kernel writes that are no variant; use a #[repr(C)] struct with an integer field",
            ));
        }
        Data::Union(data) => {
            return Err(syn::Error::new(
                data.union_token.span(),
                "DeviceCopy: unions are not supported; use a #[repr(C)] struct",
            ));
        }
    };
    let mut repr_c = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("C") || meta.path.is_ident("transparent") {
                repr_c = true;
            }
            // `align(N)`, `packed(N)`: the argument is the layout's business.
            if meta.input.peek(syn::token::Paren) {
                let args;
                syn::parenthesized!(args in meta.input);
                args.parse::<proc_macro2::TokenStream>()?;
            }
            Ok(())
        })?;
    }
    if !repr_c {
        return Err(syn::Error::new(
            input.ident.span(),
            "DeviceCopy: the struct needs #[repr(C)] (Rust's own layout may differ between the host and the device)",
        ));
    }
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let field_types: Vec<&syn::Type> = match fields {
        Fields::Named(f) => f.named.iter().map(|f| &f.ty).collect(),
        Fields::Unnamed(f) => f.unnamed.iter().map(|f| &f.ty).collect(),
        Fields::Unit => Vec::new(),
    };
    let checks = field_types.iter().map(|ty| {
        quote_spanned! {ty.span()=>
            ::offload::__private::assert_device_copy::<#ty>();
        }
    });
    let mut bounds = where_clause
        .cloned()
        .unwrap_or_else(|| syn::parse_quote!(where));
    // A generic struct gets a bound per field; a plain one is checked field
    // by field below (the error at the field, not at the derive).
    if !input.generics.params.is_empty() {
        for ty in &field_types {
            bounds
                .predicates
                .push(syn::parse_quote!(#ty: ::offload::DeviceCopy));
        }
    }
    let check_fn = if input.generics.params.is_empty() {
        quote! {
            const _: () = {
                #(#checks)*
            };
        }
    } else {
        quote! {}
    };
    Ok(quote! {
        // SAFETY: #[repr(C)] (checked by the derive), Copy (a supertrait),
        // every field DeviceCopy (the bounds and the checks below).
        unsafe impl #impl_generics ::offload::DeviceCopy for #name #ty_generics #bounds {}
        #check_fn
    })
}
