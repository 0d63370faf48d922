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
    let result = syn::parse2::<ItemFn>(item).and_then(|function| expand::kernel(options, function));
    result.unwrap_or_else(|error| error.to_compile_error())
}

/// `#[derive(DeviceCopy)] item`: the impl or a `compile_error!`.
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    let result = syn::parse2::<DeriveInput>(item)
        .and_then(|input| crate::derive_device_copy::device_copy(&input));
    result.unwrap_or_else(|error| error.to_compile_error())
}
