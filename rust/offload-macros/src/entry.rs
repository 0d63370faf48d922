//! The macros' expansions on `proc_macro2` tokens: what `lib.rs`'s
//! `proc_macro` functions call, and what the fuzz tests call in-process
//! (a proc-macro crate can export nothing but macros).

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::{DeriveInput, ItemFn};

use crate::expand;

/// `#[kernel(attr)] item`: the expansion or a `compile_error!`.
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut options = expand::Options::default();
    let parser = syn::meta::parser(|meta| options.parse(meta));
    if let Err(error) = parser.parse2(attr) {
        return error.to_compile_error();
    }
    let result = syn::parse2::<ItemFn>(item).and_then(|function| {
        check_attributes(&function)?;
        expand::kernel(options, function)
    });
    result.unwrap_or_else(|error| error.to_compile_error())
}

/// An error at an attribute that leaves the expansion no kernel: another
/// `#[kernel]` (each would export the same entry point and record), or
/// `#[test]` (the function is only in test builds; its entry point is in
/// all).
fn check_attributes(function: &ItemFn) -> syn::Result<()> {
    for attr in &function.attrs {
        let Some(last) = attr.path().segments.last() else {
            continue;
        };
        let message = if last.ident == "kernel" {
            "#[kernel] is applied twice to this function"
        } else if attr.path().is_ident("test") {
            "a kernel cannot be a #[test]: it exists only in test builds; test it through its launcher"
        } else {
            continue;
        };
        return Err(syn::Error::new_spanned(attr, message));
    }
    Ok(())
}

/// `#[derive(DeviceCopy)] item`: the impl or a `compile_error!`.
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    let result = syn::parse2::<DeriveInput>(item)
        .and_then(|input| crate::derive_device_copy::device_copy(&input));
    result.unwrap_or_else(|error| error.to_compile_error())
}

/// `#[derive(AnyBitPattern)] item`: the impl or a `compile_error!`.
pub fn derive_any_bit_pattern(item: TokenStream) -> TokenStream {
    let result = syn::parse2::<DeriveInput>(item)
        .and_then(|input| crate::derive_device_copy::any_bit_pattern(&input));
    result.unwrap_or_else(|error| error.to_compile_error())
}
