//! What offload-build reads of a package's manifest (`Cargo.toml`): its
//! name and its features, line by line (no TOML parser among its
//! dependencies).

use std::path::Path;

use crate::error::{Error, io};

/// The `[package] name` of a manifest (the line `name = "..."`).
pub(crate) fn package_name(manifest: &Path) -> Result<String, Error> {
    let text = std::fs::read_to_string(manifest).map_err(io(manifest))?;
    let mut in_package = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package && let Some(rest) = line.strip_prefix("name") {
            let value = rest.trim_start().trim_start_matches('=').trim();
            return Ok(value.trim_matches('"').trim_matches('\'').to_owned());
        }
    }
    Err(Error::NoPackageName {
        manifest: manifest.to_path_buf(),
    })
}

/// The names in a manifest's `[features]` table (one `name = [...]` a line).
pub(crate) fn manifest_features(manifest: &str) -> Vec<String> {
    let mut in_features = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') && !line.starts_with("[\"") {
            in_features = line == "[features]";
        } else if in_features && let Some((key, _)) = line.split_once('=') {
            let key = key.trim().trim_matches('"').trim_matches('\'');
            let plain = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '+' | '.'));
            if plain {
                out.push(key.to_owned());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_features() {
        let dir =
            std::env::temp_dir().join(format!("offload-build-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"my-kernels\"\nversion = \"0.1.0\"\n",
        )
        .unwrap();
        assert_eq!(package_name(&dir.join("Cargo.toml")).unwrap(), "my-kernels");
        assert_eq!(
            manifest_features(
                "[features]\ndefault = [\"a\"]\ndouble = []\n\"x-y\" = [\n  \"k/z\",\n]\n[dependencies]\nk = \"1\"\n"
            ),
            ["default", "double", "x-y"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
