//! The plugin, `liboffload_passes.so`: where it is (a given path, else
//! `OFFLOAD_PASSES_PLUGIN`, resolved against the package whose build script
//! runs, else the one built from its crate, [`cached`]) and how
//! paths are written into its pass parameters.

pub(crate) mod cached;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// The plugin: `given`, else `OFFLOAD_PASSES_PLUGIN`, else the plugin
/// built from its crate (built once into the cache).
pub(crate) fn find(given: Option<PathBuf>) -> Result<PathBuf, Error> {
    println!("cargo::rerun-if-env-changed=OFFLOAD_PASSES_PLUGIN");
    let path = match named(given, std::env::var_os("OFFLOAD_PASSES_PLUGIN")) {
        Some(path) => {
            let package = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
            resolve_plugin(path, package.as_deref())?
        }
        None => resolve_plugin(cached::cached_plugin()?, None)?,
    };
    println!("cargo::rerun-if-changed={}", path.display());
    Ok(path)
}

/// The plugin the build names: `given`, else the variable's value. An
/// empty value names none, as if unset (as for the cache directory's
/// variables): the plugin is then built from its crate.
fn named(given: Option<PathBuf>, variable: Option<OsString>) -> Option<PathBuf> {
    given.or_else(|| variable.filter(|v| !v.is_empty()).map(PathBuf::from))
}

/// The plugin's canonical path: a relative `path` is joined to `package`,
/// the directory of the package whose build script runs (cargo's working
/// directory for it, and what the error says). rustc splits
/// `-Zllvm-plugins` at whitespace, so a path with any is refused.
fn resolve_plugin(path: PathBuf, package: Option<&Path>) -> Result<PathBuf, Error> {
    let path = match package {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path,
    };
    let path = path.canonicalize().map_err(|source| Error::PluginPath {
        path: path.clone(),
        source,
    })?;
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.iter().any(u8::is_ascii_whitespace) {
        return Err(Error::PluginPathWhitespace { path });
    }
    Ok(path)
}

/// `path` as a pass-parameter value ([`offload_contract::pass_param`]):
/// the bytes pipeline texts split at, and every non-ASCII byte, as `%XX`.
pub(crate) fn param_path(path: &Path) -> String {
    use offload_contract::pass_param::{ESCAPE, needs_escape};
    let mut out = String::new();
    for &byte in path.as_os_str().as_encoded_bytes() {
        if needs_escape(byte) || !byte.is_ascii() {
            out.push_str(&format!("{}{byte:02X}", ESCAPE as char));
        } else {
            out.push(char::from(byte));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_paths_escape_what_pipelines_split_at() {
        assert_eq!(
            param_path(Path::new("/my dir/semi;x%,<é>.so")),
            "/my%20dir/semi%3Bx%25%2C%3C%C3%A9%3E.so"
        );
    }

    #[test]
    fn an_empty_plugin_variable_names_no_plugin() {
        let var = |v: &str| Some(OsString::from(v));
        assert_eq!(named(None, var("")), None);
        assert_eq!(named(None, None), None);
        assert_eq!(named(None, var("/p.so")), Some(PathBuf::from("/p.so")));
        assert_eq!(
            named(Some("/given.so".into()), var("/p.so")),
            Some(PathBuf::from("/given.so"))
        );
        assert_eq!(
            named(Some("/given.so".into()), var("")),
            Some(PathBuf::from("/given.so"))
        );
    }

    #[test]
    fn plugin_paths_resolve_against_the_package_and_refuse_whitespace() {
        let dir = std::env::temp_dir().join(format!("offload-build-plugin-{}", std::process::id()));
        let spaced = dir.join("my dir");
        std::fs::create_dir_all(&spaced).unwrap();
        std::fs::write(dir.join("p.so"), b"").unwrap();
        std::fs::write(spaced.join("p.so"), b"").unwrap();
        let found = resolve_plugin(PathBuf::from("p.so"), Some(&dir)).unwrap();
        assert_eq!(found, dir.canonicalize().unwrap().join("p.so"));
        let missing = resolve_plugin(PathBuf::from("nope.so"), Some(&dir)).unwrap_err();
        assert!(
            missing
                .to_string()
                .contains("resolved against the directory of the package whose build script runs"),
            "{missing}"
        );
        let spaced = resolve_plugin(PathBuf::from("my dir/p.so"), Some(&dir)).unwrap_err();
        assert!(
            matches!(spaced, Error::PluginPathWhitespace { .. }),
            "{spaced}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
