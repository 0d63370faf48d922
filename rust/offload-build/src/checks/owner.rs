//! Which package owns a kernel crate's device build: the kernel crate itself
//! (its own `build.rs` calls offload-build; every artifact that links it
//! gets the stubs) or a package depending on it (a host crate's `build.rs`
//! naming the kernel crate's directory). One of them, never both: two
//! device builds would put two copies of the image and the stubs in one
//! program.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// The directory of the package whose build script runs, if any.
fn build_script_package() -> Option<PathBuf> {
    std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Whether the build script that runs is the kernel crate's (at `dir`) own.
pub(crate) fn is_own(dir: &Path) -> bool {
    build_script_package().is_some_and(|package| same_dir(&package, dir))
}

/// The features cargo enabled for the kernel crate at `dir` when its own
/// build script runs (its `CARGO_FEATURE_*`, `default` included), by the
/// names of its `[features]` table; `None` for another package's build
/// script.
pub(crate) fn own_features(dir: &Path) -> Option<Vec<String>> {
    if !is_own(dir) {
        return None;
    }
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    Some(
        crate::manifest::manifest_features(&text)
            .into_iter()
            .filter(|name| {
                let key = format!("CARGO_FEATURE_{}", name.to_uppercase().replace('-', "_"));
                std::env::var_os(key).is_some()
            })
            .collect(),
    )
}

/// Whether the kernel crate at `dir` builds its own device image: its
/// `build.rs` uses offload-build.
fn builds_itself(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("build.rs")).is_ok_and(|text| text.contains("offload_build"))
}

/// Refuses a second device build of the kernel crate at `dir`: another
/// package's build script building a kernel crate that builds itself.
pub(crate) fn check_one_build(dir: &Path) -> Result<(), Error> {
    let Some(package) = build_script_package() else {
        return Ok(());
    };
    if same_dir(&package, dir) || !builds_itself(dir) {
        return Ok(());
    }
    let name = |manifest_dir: &Path| {
        crate::manifest::package_name(&manifest_dir.join("Cargo.toml"))
            .unwrap_or_else(|_| manifest_dir.display().to_string())
    };
    Err(Error::TwoDeviceBuilds {
        kernel_crate: name(dir),
        kernel_dir: dir.to_path_buf(),
        package: name(&package),
        package_dir: package,
    })
}
