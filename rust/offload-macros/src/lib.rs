//! Procedural macros of the [`offload`](https://docs.rs/offload) crate:
//! `#[kernel]`, `#[derive(DeviceCopy)]` and `#[derive(AnyBitPattern)]`. Use
//! them through `offload` (`offload::kernel`, `offload::DeviceCopy`,
//! `offload::AnyBitPattern`); their expansion refers to it
//! as `::offload`.

#![deny(missing_docs)]

mod classify;
mod derive_device_copy;
mod entry;
mod expand;
#[cfg(test)]
mod fuzz;

use proc_macro::TokenStream;

/// Marks a kernel; see `offload::kernel`.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    entry::kernel(attr.into(), item.into()).into()
}

/// Derives `offload::DeviceCopy`; see there.
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    entry::derive_device_copy(item.into()).into()
}

/// Derives `offload::AnyBitPattern`; see there.
#[proc_macro_derive(AnyBitPattern)]
pub fn derive_any_bit_pattern(item: TokenStream) -> TokenStream {
    entry::derive_any_bit_pattern(item.into()).into()
}
