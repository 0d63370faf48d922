//! `#[derive(DeviceCopy)]` and `#[derive(AnyBitPattern)]`: an `unsafe impl`
//! of `offload::DeviceCopy` or `offload::AnyBitPattern` for a `#[repr(C)]`
//! struct, with every field checked to implement the trait too.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Type};

/// The `DeviceCopy` impl for `input`, or an error at what makes it no
/// `DeviceCopy` type.
pub fn device_copy(input: &DeriveInput) -> syn::Result<TokenStream> {
    let fields = struct_fields(input, "DeviceCopy")?;
    derive(input, "DeviceCopy", None, &layout(fields))
}

/// The `LAYOUT` of a derived `DeviceCopy` struct: its size and alignment,
/// and per field its offset and layout word, as rustc computes them in this
/// build.
fn layout(fields: &Fields) -> TokenStream {
    let l = quote!(::offload::__private::layout);
    let members: Vec<(syn::Member, &Type)> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let member = match &f.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(syn::Index::from(i)),
            };
            (member, &f.ty)
        })
        .collect();
    // Each field's `LAYOUT` is also its check (the error at the field).
    let steps = members.iter().map(|(member, ty)| {
        let field_layout = quote_spanned!(ty.span()=> <#ty as ::offload::DeviceCopy>::LAYOUT);
        quote! {
            hash = #l::field(hash, ::core::mem::offset_of!(Self, #member), #field_layout);
        }
    });
    quote! {
        const LAYOUT: u64 = {
            let mut hash = #l::START;
            #(#steps)*
            #l::word(::core::mem::size_of::<Self>(), ::core::mem::align_of::<Self>(), hash)
        };
    }
}

/// The `AnyBitPattern` impl for `input` (a `DeviceCopy` struct whose fields
/// are all `AnyBitPattern`, so every bit pattern is a value).
pub fn any_bit_pattern(input: &DeriveInput) -> syn::Result<TokenStream> {
    derive(
        input,
        "AnyBitPattern",
        Some("assert_any_bit_pattern"),
        &TokenStream::new(),
    )
}

/// The impl of `offload::<trait_name>` for `input` with the items `body`,
/// each field checked by `offload::__private::<check>` (if `body` does not
/// check them).
fn derive(
    input: &DeriveInput,
    trait_name: &str,
    check: Option<&str>,
    body: &TokenStream,
) -> syn::Result<TokenStream> {
    let fields = struct_fields(input, trait_name)?;
    check_repr_c(input, trait_name)?;
    let name = &input.ident;
    let trait_ident = Ident::new(trait_name, name.span());

    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let field_types: Vec<&Type> = match fields {
        Fields::Named(f) => f.named.iter().map(|f| &f.ty).collect(),
        Fields::Unnamed(f) => f.unnamed.iter().map(|f| &f.ty).collect(),
        Fields::Unit => Vec::new(),
    };
    let checks = check.into_iter().flat_map(|check| {
        let check = Ident::new(check, name.span());
        field_types.iter().map(move |ty| {
            quote_spanned! {ty.span()=>
                ::offload::__private::#check::<#ty>();
            }
        })
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
                .push(syn::parse_quote!(#ty: ::offload::#trait_ident));
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
    // Its docs, so that rustdoc and `cargo expand` show it too.
    let why = crate::expand::safety::safety(&format!(
        "the derive checked `#[repr(C)]`; the supertraits hold, and every field implements `{trait_ident}` (the impl's bounds, or the field checks beside it)."
    ));
    Ok(quote! {
        #why
        unsafe impl #impl_generics ::offload::#trait_ident for #name #ty_generics #bounds {
            #body
        }
        #check_fn
    })
}

/// The fields of a struct; an enum or a union is an error.
fn struct_fields<'a>(input: &'a DeriveInput, trait_name: &str) -> syn::Result<&'a Fields> {
    match &input.data {
        Data::Struct(data) => Ok(&data.fields),
        Data::Enum(data) => Err(syn::Error::new(
            data.enum_token.span(),
            format!(
                "{trait_name}: an enum may hold bytes a kernel writes that are no variant; use a #[repr(C)] struct with an integer field"
            ),
        )),
        Data::Union(data) => Err(syn::Error::new(
            data.union_token.span(),
            format!("{trait_name}: unions are not supported; use a #[repr(C)] struct"),
        )),
    }
}

/// An error unless the struct is `#[repr(C)]` or `#[repr(transparent)]`.
fn check_repr_c(input: &DeriveInput, trait_name: &str) -> syn::Result<()> {
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
                args.parse::<TokenStream>()?;
            }
            Ok(())
        })?;
    }
    if repr_c {
        Ok(())
    } else {
        Err(syn::Error::new(
            input.ident.span(),
            format!(
                "{trait_name}: the struct needs #[repr(C)] (Rust's own layout may differ between the host and the device)"
            ),
        ))
    }
}
