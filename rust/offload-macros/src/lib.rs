//! Procedural macros of the [`offload`](https://docs.rs/offload) crate:
//! `#[kernel]`, `#[derive(DeviceCopy)]` and `#[derive(AnyBitPattern)]`. Use
//! them through `offload` (`offload::kernel`, `offload::DeviceCopy`,
//! `offload::AnyBitPattern`); their expansion refers to it
//! as `::offload`.

#![deny(missing_docs)]

mod classify;
mod derive_device_copy;
mod expand;

use proc_macro::TokenStream;
use syn::{DeriveInput, ItemFn, parse_macro_input};

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
    match derive_device_copy::device_copy(&input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Derives `offload::AnyBitPattern`; see there.
#[proc_macro_derive(AnyBitPattern)]
pub fn derive_any_bit_pattern(item: TokenStream) -> TokenStream {
    let input = parse_macro_input!(item as DeriveInput);
    match derive_device_copy::any_bit_pattern(&input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}
