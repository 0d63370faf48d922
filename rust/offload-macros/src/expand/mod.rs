//! `#[kernel]`'s expansion: a device half (the kernel entry point and its
//! record, [`device`]) and a host half (the typed launcher, [`host`]), chosen
//! by `offload::__kernel_item!` from `offload`'s `device` feature. Both come
//! from one reading of the function's signature ([`signature`]).

mod device;
mod features;
mod generic;
mod host;
mod options;
mod reserved;
pub(crate) mod safety;
mod signature;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, ItemFn};

use crate::classify::Shape;
pub use options::Options;
use signature::{Param, check_signature, params};

/// The expansion of `#[kernel]` on `function`, or an error at the first
/// thing a kernel cannot have.
pub fn kernel(options: Options, function: ItemFn) -> syn::Result<TokenStream> {
    check_signature(&function)?;
    let type_param = generic::type_param(&function, &options)?;
    let mut params = params(&function)?;
    check_slot_count(&function, &params)?;
    for param in &mut params {
        param.shape = host::with_static_lifetimes(&param.shape, host::Lifetimes::Named);
    }
    let name = &function.sig.ident;
    let features = features::crate_features()
        .map_err(|e| syn::Error::new(name.span(), format!("kernel `{name}`: {e}")))?;
    if let Some(param) = &type_param {
        return generic::kernel(&options, &function, param, &params, &features);
    }
    let symbol = symbol_of(&options, &function)?;
    refuse_reserved(&symbol, &function, options.name.as_ref())?;
    let hash = signature_hash(&symbol, &params);
    let checks = checks(&params);
    let callee = device::Callee {
        path: quote!(#name),
        tag: name.clone(),
    };
    let device = device::entry_point(Some(&function), &callee, &params, &symbol, hash, &features);
    let host = host::launcher(&function, &params, &symbol, hash, &features);
    let cfgs: Vec<&Attribute> = function.attrs.iter().filter(|a| is_cfg(a)).collect();
    let marker = marker(&symbol, &name.to_string());
    Ok(quote! {
        #(#cfgs)*
        #checks
        #(#cfgs)*
        #marker
        #(#cfgs)*
        ::offload::__kernel_item! {
            device { #device }
            host { #host }
        }
    })
}

/// The kernel's symbol (of a generic kernel: the base of its instances'):
/// `name = "..."`, else the function's name, which must then be ASCII.
fn symbol_of(options: &Options, function: &ItemFn) -> syn::Result<String> {
    let name = &function.sig.ident;
    if let Some(name) = &options.name {
        return Ok(name.value());
    }
    if !name.to_string().is_ascii() {
        return Err(syn::Error::new(
            name.span(),
            format!(
                "kernel `{name}`: its symbol would be its name, but a kernel symbol is ASCII (letters, digits, '_', '$', '.'): the linker's version script and the image's kernel table take no other; rename the function or give it an ASCII symbol with `#[kernel(name = \"...\")]`"
            ),
        ));
    }
    Ok(name.to_string().trim_start_matches("r#").to_owned())
}

/// The most launch slots a kernel's parameters may take: the record's,
/// less the launch grid's hidden slots.
const MAX_PARAM_SLOTS: usize = offload_contract::record::MAX_ARGS - offload_contract::grid::SLOTS;

/// An error at kernel `function` whose parameters take more launch slots
/// than its record holds (which the record's constant would refuse in the
/// device build only, counting the grid's slots too).
fn check_slot_count(function: &ItemFn, params: &[Param]) -> syn::Result<()> {
    let slots = device::slot_count(params);
    if slots <= MAX_PARAM_SLOTS {
        return Ok(());
    }
    let name = &function.sig.ident;
    Err(syn::Error::new(
        name.span(),
        format!(
            "kernel `{name}`: its parameters take {slots} launch slots, and a kernel's take at most {MAX_PARAM_SLOTS} (a slice, `InOut`/`Out` of a slice and `Raw*` take two: pointer and length; {} of the record's {} slots carry the launch grid); pass related values in one `#[repr(C)]` struct by value",
            offload_contract::grid::SLOTS,
            offload_contract::record::MAX_ARGS,
        ),
    ))
}

/// An error where kernel `function`'s exported `symbol` (from `name =
/// "..."` when `given`, else from the function's name) is taken by the C
/// library or a runtime ([`reserved`]).
fn refuse_reserved(
    symbol: &str,
    function: &ItemFn,
    given: Option<&syn::LitStr>,
) -> syn::Result<()> {
    let Some(clash) = reserved::clash(symbol) else {
        return Ok(());
    };
    let name = &function.sig.ident;
    let (span, whose) = match given {
        Some(given) => (given.span(), format!("its symbol `{symbol}`")),
        None => (
            name.span(),
            format!("its symbol would be its name, `{symbol}`, which"),
        ),
    };
    Err(syn::Error::new(
        span,
        format!(
            "kernel `{name}`: {whose} is taken by {clash}; a kernel's symbol is exported from its image, where the kernel would be called in that one's place: give it another symbol with `#[kernel(name = \"...\")]`"
        ),
    ))
}

/// The kernel's marker (offload-contract's `KERNEL_MARKER`): its symbol
/// and item path (`item`: `axpy`, `axpy::<f32>`), in both builds' expansion,
/// by which offload-build names the two items of a symbol clash.
fn marker(symbol: &str, item: &str) -> TokenStream {
    let text = format!("{}{symbol} ", offload_contract::record::KERNEL_MARKER);
    let item = format!("::{}", item.trim_start_matches("r#"));
    quote! {
        #[doc(hidden)]
        const _: &str = ::core::concat!(#text, ::core::module_path!(), #item);
    }
}

/// FNV-1a 64 of the crate that defines the kernel ([`defining_crate`]),
/// the kernel's symbol and its parameter shapes and types. The stubs'
/// names carry it: two kernel crates with their own images, each with a
/// kernel of one symbol and signature, link into one program, and each
/// launcher calls its own crate's stub (with the crate left out, the
/// linker would keep one of the two stubs for both).
fn signature_hash(symbol: &str, params: &[Param]) -> u64 {
    hash_of(&defining_crate(), symbol, params)
}

/// The crate whose `#[kernel]` is expanded: its name and version, as cargo
/// gives them to rustc (the same in the host and the device build; empty
/// outside cargo).
fn defining_crate() -> String {
    let var = |name| std::env::var(name).unwrap_or_default();
    format!("{}@{}", var("CARGO_CRATE_NAME"), var("CARGO_PKG_VERSION"))
}

fn hash_of(krate: &str, symbol: &str, params: &[Param]) -> u64 {
    let mut text = format!("{krate}|{symbol}");
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

fn is_cfg(attr: &Attribute) -> bool {
    attr.path().is_ident("cfg") || attr.path().is_ident("cfg_attr")
}

/// The checks of the parameters' types that their layout words do not make
/// (the launcher's and the record's `<T as DeviceCopy>::LAYOUT`, spanned at
/// the type, check `DeviceCopy`): scalars, `AnyBitPattern` for `Out`, and
/// the atomic types (whose `Value` the layout words name).
/// Each is at its parameter's type, in both builds.
fn checks(params: &[Param]) -> TokenStream {
    let checks = params.iter().filter_map(|p| {
        let ty = p.shape.inner();
        match &p.shape {
            Shape::Scalar(_) => {
                Some(quote_spanned!(ty.span()=> ::offload::__private::assert_scalar::<#ty>();))
            }
            // Copied back from device memory the kernel may not have written.
            Shape::OutOne(_) | Shape::OutSlice(_) => Some(
                quote_spanned!(ty.span()=> ::offload::__private::assert_any_bit_pattern::<#ty>();),
            ),
            Shape::AtomicOne { .. } | Shape::AtomicSlice { .. } => Some(
                quote_spanned!(ty.span()=> ::offload::__private::assert_device_atomic::<#ty>();),
            ),
            _ => None,
        }
    });
    quote! { const _: () = { #(#checks)* }; }
}

#[cfg(test)]
mod tests {
    use super::{MAX_PARAM_SLOTS, check_slot_count, hash_of, params};

    /// `fn k(...)` with `slices` slices and `scalars` scalars.
    fn kernel_with(slices: usize, scalars: usize) -> syn::ItemFn {
        let slices = (0..slices).map(|i| format!("s{i}: &[f32]"));
        let scalars = (0..scalars).map(|i| format!("x{i}: u32"));
        let list: Vec<String> = slices.chain(scalars).collect();
        syn::parse_str(&format!("fn k({}) {{}}", list.join(", "))).unwrap()
    }

    #[test]
    fn parameters_take_at_most_28_slots() {
        assert_eq!(MAX_PARAM_SLOTS, 28);
        for (slices, scalars, fits) in
            [(14, 0, true), (13, 2, true), (14, 1, false), (0, 29, false)]
        {
            let k = kernel_with(slices, scalars);
            let result = check_slot_count(&k, &params(&k).unwrap());
            assert_eq!(result.is_ok(), fits, "{slices} slices, {scalars} scalars");
            if let Err(e) = result {
                let text = e.to_string();
                assert!(
                    text.contains("at most 28") && text.contains("29 launch slots"),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn the_hash_tells_kernel_crates_apart() {
        let a = hash_of("two_doubler@0.1.0", "scale", &[]);
        assert_ne!(a, hash_of("two_tripler@0.1.0", "scale", &[]));
        assert_ne!(a, hash_of("two_doubler@0.2.0", "scale", &[]));
        assert_ne!(a, hash_of("two_doubler@0.1.0", "scale2", &[]));
        assert_eq!(a, hash_of("two_doubler@0.1.0", "scale", &[]));
    }
}
