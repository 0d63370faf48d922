//! The fuzzer's findings, each as its reproducer: the rule holds for it.

use super::oracle::{self, Outcome};
use crate::entry;

fn kernel(attr: &str, item: &str) -> Result<Outcome, String> {
    let attr = attr.parse().expect("attr lexes");
    let item = item.parse().expect("item lexes");
    oracle::run(|| entry::kernel(attr, item))
}

fn derive(item: &str) -> Result<Outcome, String> {
    let item = item.parse().expect("item lexes");
    oracle::run(|| entry::derive_device_copy(item))
}

#[test]
fn plain_kernel_expands() {
    assert!(matches!(
        kernel("", "fn k(x: &mut [f32]) {}"),
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
        "fn k(x: &mut [f32]) { #![allow(unused)] }",
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
        "&mut [impl Tr + 'a]",
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
