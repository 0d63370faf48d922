//! offload-build's cache directory, where what is built once per user
//! lives (the shared `core` of each GPU target, the shared device target
//! directory, the plugin built from its crate, ptxas's cubins), and the
//! file locks under which it is written.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{Error, io};

/// The environment variable naming offload-build's cache directory (else
/// `$XDG_CACHE_HOME/offload-build` or `~/.cache/offload-build`): the shared
/// device target directory (see
/// [`OFFLOAD_DEVICE_TARGET_DIR`](crate::OFFLOAD_DEVICE_TARGET_DIR)), the
/// plugin built from its crate, the cubins ptxas made (keyed by the PTX,
/// the arch and ptxas's version) and each GPU target's `core`: built once
/// per toolchain, target, cpu and flags (keyed by `rustc -vV`) into a
/// sysroot that every device build of that target uses with `--sysroot`.
/// Each is built under an exclusive file lock, so concurrent builds wait
/// for one another.
pub const OFFLOAD_SYSROOT_CACHE: &str = "OFFLOAD_SYSROOT_CACHE";

/// The cache directory: `OFFLOAD_SYSROOT_CACHE`, else
/// `$XDG_CACHE_HOME/offload-build`, else `$HOME/.cache/offload-build`.
pub(crate) fn cache_root() -> Option<PathBuf> {
    println!("cargo::rerun-if-env-changed={OFFLOAD_SYSROOT_CACHE}");
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    cache_root_from(
        var(OFFLOAD_SYSROOT_CACHE),
        var("XDG_CACHE_HOME"),
        var("HOME"),
    )
}

fn cache_root_from(
    given: Option<std::ffi::OsString>,
    xdg: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    if let Some(dir) = given {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = xdg {
        return Some(PathBuf::from(dir).join("offload-build"));
    }
    home.map(|home| PathBuf::from(home).join(".cache/offload-build"))
}

/// An exclusive lock on a file, held until dropped.
pub(crate) struct Lock {
    _file: File,
}

/// Waits for the exclusive lock on `<dir>/<name>` (creating both).
pub(crate) fn lock(dir: &Path, name: &str) -> Result<Lock, Error> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let path = dir.join(name);
    let file = File::create(&path).map_err(io(&path))?;
    file.lock().map_err(io(&path))?;
    Ok(Lock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_root_is_the_variable_then_xdg_then_home() {
        let s = |v: &str| Some(std::ffi::OsString::from(v));
        assert_eq!(
            cache_root_from(s("/c"), s("/x"), s("/h")),
            Some(PathBuf::from("/c"))
        );
        assert_eq!(
            cache_root_from(None, s("/x"), s("/h")),
            Some(PathBuf::from("/x/offload-build"))
        );
        assert_eq!(
            cache_root_from(None, None, s("/h")),
            Some(PathBuf::from("/h/.cache/offload-build"))
        );
        assert_eq!(cache_root_from(None, None, None), None);
    }
}
