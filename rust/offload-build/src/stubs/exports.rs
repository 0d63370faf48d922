//! What a stub module exports for each kernel beside its stubs, for the
//! host's launcher and the linker: the record's layout and feature words,
//! the images' targets, and the symbols whose names are link errors.

use offload_contract::record::{
    FEATURES_PREFIX, IMAGES_PREFIX, LAYOUTS_PREFIX, NO_IMAGE_PREFIX, NO_IMAGE_RULE,
};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::safety::safety;
use crate::Image;
use crate::image::Kernel;

/// The layout words of kernel `i`'s arguments from its record, exported for
/// the host's launcher, which compares its own with them.
pub(super) fn layouts(i: usize, kernel: &Kernel) -> TokenStream {
    let name = format_ident!("L{i}");
    let symbol = format!("{LAYOUTS_PREFIX}{}.{:016x}", kernel.symbol, kernel.hash);
    let count = Literal::usize_unsuffixed(kernel.args.len());
    let words = kernel
        .args
        .iter()
        .map(|a| Literal::u64_unsuffixed(a.layout));
    quote! {
        #[unsafe(export_name = #symbol)]
        pub static #name: [u64; #count] = [#(#words),*];
    }
}

/// The symbol whose name says how to link kernel `i`'s image
/// (`offload_contract::record::NO_IMAGE_PREFIX`), which every launcher
/// references.
pub(super) fn no_image(i: usize, kernel: &Kernel) -> TokenStream {
    let name = format_ident!("N{i}");
    let symbol = format!(
        "{NO_IMAGE_PREFIX}`{}` ({:016x}){NO_IMAGE_RULE}",
        kernel.symbol, kernel.hash
    );
    // Weak: two stub modules with one kernel library's kernel define it
    // twice, and `once_per_program`'s symbol, not this one, says why.
    quote! {
        #[unsafe(export_name = #symbol)]
        #[linkage = "weak"]
        pub static #name: u8 = 0;
    }
}

/// A symbol every stub module defines for kernel `i`: a kernel library's
/// kernel is in the image of every kernel crate that
/// uses it, with the same stubs, so two such kernel crates in one program
/// are a duplicate symbol, and the first the linker names says why.
pub(super) fn once_per_program(i: usize, kernel: &Kernel) -> TokenStream {
    let name = format_ident!("O{i}");
    let symbol = format!(
        "offload: kernel `{}` ({:016x}) is in the images of two kernel crates of this program: a kernel library's kernels come with the image of each kernel crate that uses it, and their launch stubs with each image; let one kernel crate of a program use the library",
        kernel.symbol, kernel.hash
    );
    quote! {
        #[unsafe(export_name = #symbol)]
        pub static #name: u8 = 0;
    }
}

/// The kernel crate's feature word in kernel `i`'s record, exported for the
/// host's launcher, which compares its own with it.
pub(super) fn features(i: usize, kernel: &Kernel) -> TokenStream {
    let name = format_ident!("F{i}");
    let symbol = format!("{FEATURES_PREFIX}{}.{:016x}", kernel.symbol, kernel.hash);
    let word = Literal::u64_unsuffixed(kernel.features);
    quote! {
        #[unsafe(export_name = #symbol)]
        pub static #name: u64 = #word;
    }
}

/// Kernel `i`'s function returning the targets of the images the module
/// registers (`IMAGE_TARGETS`), for the host's launcher, which names them
/// when no device here takes any image.
pub(super) fn image_targets(i: usize, kernel: &Kernel) -> TokenStream {
    let name = format_ident!("T{i}");
    let symbol = format!("{IMAGES_PREFIX}{}.{:016x}", kernel.symbol, kernel.hash);
    let why =
        safety("the launcher passes the address of a `usize` it owns (the function's contract).");
    quote! {
        #[unsafe(export_name = #symbol)]
        pub unsafe extern "C" fn #name(len: *mut usize) -> *const u8 {
            #why
            unsafe { *len = IMAGE_TARGETS.len() };
            IMAGE_TARGETS.as_ptr()
        }
    }
}

/// The targets of `images` as a launch error names them: `host (<host
/// triple>)`, `<triple>:<cpu>`, comma-separated, in registration order.
pub(super) fn targets_text(images: &[Image], host: &str) -> String {
    let names: Vec<String> = images
        .iter()
        .map(|image| match &image.target {
            crate::Target::Host => format!("host ({host})"),
            device => device.to_string(),
        })
        .collect();
    names.join(", ")
}
