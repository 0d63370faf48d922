//! The fuzzer's findings, each as its reproducer: the rule holds for it.

use proc_macro2::TokenStream;

use super::oracle::{self, Outcome};
use crate::entry;

fn kernel(attr: &str, item: &str) -> Result<Outcome, String> {
    let attr = attr.parse().expect("attr lexes");
    let item: TokenStream = item.parse().expect("item lexes");
    oracle::run(&item.clone(), || entry::kernel(attr, item))
}

fn derive(item: &str) -> Result<Outcome, String> {
    let item: TokenStream = item.parse().expect("item lexes");
    oracle::run(&item.clone(), || entry::derive_device_copy(item))
}

#[test]
fn plain_kernel_expands() {
    assert!(matches!(
        kernel("", "fn k(x: InOut<'_, [f32]>) {}"),
        Ok(Outcome::Expanded)
    ));
    assert!(matches!(
        derive("#[repr(C)] struct P { x: f32 }"),
        Ok(Outcome::Expanded)
    ));
}

/// Inner attributes and inner docs of a kernel's body stay in its block in
/// both halves (printed before the function they were `#![...]` outside
/// any block, which does not parse).
#[test]
fn inner_attributes_stay_in_the_body() {
    for item in [
        "fn k(x: offload::InOut<'_, [f32]>) { #![allow(unused)] }",
        "/// Outer.\nfn k() { //! Inner doc.\n }",
    ] {
        assert!(matches!(kernel("", item), Ok(Outcome::Expanded)), "{item}");
    }
}

/// `impl Trait` or `dyn Trait` behind a slice, `Out` or `Raw*` is refused
/// (the entry point's `*mut impl Tr + 'a` did not parse).
#[test]
fn trait_element_types_are_refused() {
    for ty in [
        "&[impl Tr + 'a]",
        "InOut<'a, [impl Tr + 'a]>",
        "&[dyn Tr + Send]",
        "offload::Out<'_, dyn Tr + Send>",
        "Out<'_, [impl Tr]>",
        "RawIn<dyn Tr + Send + 'a>",
        "RawOut<impl Fn(u8) -> u8 + 'a>",
    ] {
        let item = format!("fn k<'a>(x: {ty}) {{}}");
        let outcome = kernel("", &item);
        assert!(
            matches!(&outcome, Ok(Outcome::Refused(m)) if m.contains("`dyn Trait`")),
            "{ty}: {:?}",
            outcome.err()
        );
    }
}

/// The entry point's parameters in the device half, by name.
fn entry_params(item: &str) -> Vec<String> {
    let output = entry::kernel(TokenStream::new(), item.parse().expect("item lexes"));
    let file: syn::File = syn::parse2(output).expect("the expansion parses");
    let Some(syn::Item::Macro(half)) = file.items.last() else {
        panic!("no __kernel_item!");
    };
    let device = half
        .mac
        .tokens
        .clone()
        .into_iter()
        .nth(1)
        .expect("device { .. }");
    let proc_macro2::TokenTree::Group(device) = device else {
        panic!("device half");
    };
    let file: syn::File = syn::parse2(device.stream()).expect("the device half parses");
    let entry = file.items.iter().find_map(|item| match item {
        syn::Item::Fn(f) if f.sig.ident.to_string().starts_with("__offload_entry_") => Some(f),
        _ => None,
    });
    let entry = entry.expect("an entry point");
    entry
        .sig
        .inputs
        .iter()
        .map(|input| match input {
            syn::FnArg::Typed(t) => {
                let pat = &t.pat;
                quote::quote!(#pat).to_string()
            }
            syn::FnArg::Receiver(_) => panic!("a receiver"),
        })
        .collect()
}

/// The entry point names its parameters by slot (after the launch grid's
/// hidden slots): a parameter named like
/// the kernel no longer shadows the kernel it calls (rustc: "expected
/// function, found `*mut f32`"), nor `x_len` collides with `x`'s length.
#[test]
fn entry_point_parameters_are_the_slots() {
    let params = entry_params("fn k(k: InOut<'_, [f32]>, x: &[u8], x_len: usize) {}");
    assert_eq!(
        params,
        [
            "__offload_grid0",
            "__offload_grid1",
            "__offload_grid2",
            "__offload_grid3",
            "__offload_s4",
            "__offload_s5",
            "__offload_s6",
            "__offload_s7",
            "__offload_s8"
        ]
    );
}

/// `&mut` parameters, which every thread of the grid would share, are
/// refused with the kernel, the parameter and the sound form; atomics are
/// taken by shared reference.
#[test]
fn shared_mutable_parameters_are_refused_and_atomics_taken() {
    for (ty, says) in [
        ("&mut [f32]", "take `offload::InOut<'_, [f32]>`"),
        ("&'a mut u32", "take `offload::InOut<'_, u32>`"),
        ("&mut [AtomicU32]", "take `&[AtomicU32]`"),
        ("&[AtomicBool]", "`AtomicBool` cannot be a kernel parameter"),
        (
            "Out<'a, u8, FirstThread>",
            "with a partition `P` of `offload::partition`",
        ),
    ] {
        let outcome = kernel("", &format!("fn k<'a>(x: {ty}) {{}}"));
        assert!(
            matches!(&outcome, Ok(Outcome::Refused(m)) if m.starts_with("kernel `k`, parameter `x`: ") && m.contains(says)),
            "{ty}: {:?}",
            outcome.err()
        );
    }
    for ty in [
        "&[AtomicU32]",
        "&core::sync::atomic::AtomicI64",
        "&[offload::atomic::AtomicF32]",
        "Out<'_, u8>",
        "Out<'_, [u8], offload::partition::Chunks<4>>",
        "InOut<'a, [Point], FirstThread>",
    ] {
        let item = format!("fn k(x: {ty}) {{}}");
        assert!(matches!(kernel("", &item), Ok(Outcome::Expanded)), "{ty}");
    }
}

/// What the fuzzer's rustc check found compiling to errors in the
/// expansion is refused, with the macro's own error.
#[test]
fn clashing_kernels_are_refused() {
    let cases = [
        ("fn k(__offload_stub: i32) {}", "`__offload_`"),
        ("#[kernel] fn k() {}", "applied twice"),
        (
            "#[offload::kernel(name = \"x\")] fn k() {}",
            "applied twice",
        ),
    ];
    for (item, expected) in cases {
        let outcome = kernel("", item);
        assert!(
            matches!(&outcome, Ok(Outcome::Refused(m)) if m.contains(expected)),
            "{item}: {:?}",
            outcome.err()
        );
    }
}

/// A `#[test]` kernel is refused (its entry point called a function only
/// test builds have).
#[test]
fn test_kernels_are_refused() {
    let outcome = kernel("", "#[test] fn k() {}");
    assert!(
        matches!(&outcome, Ok(Outcome::Refused(m)) if m.contains("#[test]")),
        "{:?}",
        outcome.err()
    );
}

/// The launcher's parameter types name no lifetime of the kernel's (it
/// declares none): `'a` became `'static` only where it was `'_` or elided.
#[test]
fn launcher_types_have_static_lifetimes() {
    let output = entry::kernel(
        TokenStream::new(),
        "fn k<'a>(x: [Out<'a, [f32]>; 3], y: &'a [&'a u8], z: RawIn<&'a u8>) {}"
            .parse()
            .expect("item lexes"),
    )
    .to_string();
    let host = output.split("host {").nth(1).expect("a host half");
    let launcher = host.split("fn k (").nth(1).expect("a launcher");
    let signature = launcher.split('{').next().expect("its signature");
    assert!(!signature.contains("'a"), "{signature}");
}

/// `impl Trait` nested in a parameter's type (the launcher's
/// `impl HostIn<[&[impl Tr]]>` nested it), an unsized `Out<'_, str>` and a
/// `RawIn<[T]>` (their entry point sizes were no constants) are refused.
#[test]
fn nested_impl_trait_and_unsized_pointees_are_refused() {
    for ty in [
        "&[&[impl Tr]]",
        "[Option<impl Copy>; 2]",
        "Out<'_, str>",
        "RawIn<[u8]>",
    ] {
        let item = format!("fn k(x: {ty}) {{}}");
        assert!(matches!(kernel("", &item), Ok(Outcome::Refused(_))), "{ty}");
    }
}

/// The checks, the record and the entry point name no lifetime of the
/// kernel's either (`Box<Out<'a, [u8]>>` left `'a` undeclared in the
/// checks' `const _`).
#[test]
fn expansion_items_have_static_lifetimes() {
    let output = entry::kernel(
        TokenStream::new(),
        "fn k<'a>(p: Box<Out<'a, [u8]>>, q: &'a [&'a u8]) {}"
            .parse()
            .expect("item lexes"),
    )
    .to_string();
    let checks = output.split("__kernel_item").next().expect("the checks");
    assert!(!checks.contains("'a"), "{checks}");
    let entry = output
        .split("fn __offload_entry_k")
        .nth(1)
        .expect("an entry point");
    let entry = entry.split('{').next().expect("its signature");
    assert!(!entry.contains("'a"), "{entry}");
}

/// Every `unsafe` block the expansion adds says why it is sound, as a
/// `SAFETY:` doc attribute of its statement, in both halves, for each form
/// of parameter and for a generic kernel's instances; the kernel's own
/// blocks are left as written.
#[test]
fn every_added_unsafe_block_says_why() {
    let params = "a: f32, v: P, r: &P, io: InOut<'_, P>, o: Out<'_, f32>, at: &AtomicU32, \
                  s: &[f32], ios: InOut<'_, [f32]>, os: Out<'_, [f32]>, ats: &[AtomicU32], \
                  ri: RawIn<f32>, ro: RawOut<f32>, rio: RawInOut<f32>";
    for (attr, item) in [
        ("", format!("fn k({params}) {{}}")),
        (
            "instances(f32, f64)",
            "fn g<T: Copy>(x: &[T], y: InOut<'_, [T]>) {}".to_owned(),
        ),
        (
            "",
            "fn w(x: &[f32]) { let _ = unsafe { x.get_unchecked(0) }; }".to_owned(),
        ),
    ] {
        let outcome = kernel(attr, &item);
        let refused = match &outcome {
            Ok(Outcome::Refused(m)) => m.as_str(),
            _ => "",
        };
        assert!(
            matches!(outcome, Ok(Outcome::Expanded)),
            "{item}: {refused}{:?}",
            outcome.as_ref().err()
        );
    }
}
