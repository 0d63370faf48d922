//! The kernel crate's features, read from its manifest, for the feature
//! word ([`offload_contract::features`]) both halves of the expansion
//! carry: rustc evaluates the word's `cfg!(feature = ...)` in each build,
//! so a feature enabled in the host build but not in the device build
//! (cargo's `--features kernels/x` on the command line reaches only the
//! host build) is a launch error instead of a kernel that does something
//! else than the host expects.

use std::path::Path;

use offload_contract::features::bit;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use toml::{Table, Value};

/// The names of the features of the crate being compiled (cargo's
/// `CARGO_MANIFEST_DIR`), sorted; none outside cargo.
pub fn crate_features() -> Result<Vec<String>, String> {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return Ok(Vec::new());
    };
    let path = Path::new(&dir).join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let manifest: Table = text
        .parse()
        .map_err(|e| format!("cannot parse {}: {e}", path.display()))?;
    Ok(feature_names(&manifest))
}

/// The keys of `[features]` and the optional dependencies no feature
/// names as `dep:<name>` (cargo gives those an implicit feature), sorted.
fn feature_names(manifest: &Table) -> Vec<String> {
    let features = manifest.get("features").and_then(Value::as_table);
    let mut names: Vec<String> = features
        .into_iter()
        .flat_map(|t| t.keys().cloned())
        .collect();
    let named_as_dep = |dep: &str| {
        features.into_iter().flat_map(|t| t.values()).any(|v| {
            v.as_array().is_some_and(|items| {
                items
                    .iter()
                    .any(|i| i.as_str() == Some(&format!("dep:{dep}")))
            })
        })
    };
    for deps in dependency_tables(manifest) {
        for (name, spec) in deps {
            let optional = spec.get("optional").and_then(Value::as_bool) == Some(true);
            if optional && !named_as_dep(name) && !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    names.sort();
    names
}

/// `[dependencies]`, `[build-dependencies]` and their `[target.*.]` forms.
fn dependency_tables(manifest: &Table) -> Vec<&Table> {
    let kinds = ["dependencies", "build-dependencies"];
    let mut tables: Vec<&Table> = kinds
        .iter()
        .filter_map(|k| manifest.get(*k).and_then(Value::as_table))
        .collect();
    let targets = manifest.get("target").and_then(Value::as_table);
    for target in targets.into_iter().flat_map(|t| t.values()) {
        tables.extend(
            kinds
                .iter()
                .filter_map(|k| target.get(*k).and_then(Value::as_table)),
        );
    }
    tables
}

/// The feature word of `names` as rustc evaluates it in the build the
/// expansion is compiled in.
pub fn word(names: &[String]) -> TokenStream {
    let bits = names.iter().enumerate().map(|(i, name)| {
        let value = Literal::u64_suffixed(bit(i));
        quote!(if ::core::cfg!(feature = #name) { #value } else { 0 })
    });
    quote!(0u64 #(| #bits)*)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_implicit_features_of_optional_dependencies() {
        let manifest: Table = r#"
            [package]
            name = "k"
            [features]
            double = []
            fast = ["dep:simd"]
            [dependencies]
            libm = { version = "0.2", optional = true }
            simd = { version = "1", optional = true }
            offload = "0.1"
            [target.'cfg(unix)'.dependencies]
            extra = { version = "1", optional = true }
        "#
        .parse()
        .unwrap();
        assert_eq!(
            feature_names(&manifest),
            ["double", "extra", "fast", "libm"]
        );
        let none: Table = "[package]\nname = \"k\"".parse().unwrap();
        assert!(feature_names(&none).is_empty());
    }

    #[test]
    fn the_word_has_one_bit_per_feature() {
        let word = word(&["a".into(), "b".into()]).to_string();
        assert!(
            word.contains("feature = \"a\"") && word.contains("1u64"),
            "{word}"
        );
        assert!(
            word.contains("feature = \"b\"") && word.contains("2u64"),
            "{word}"
        );
    }
}
