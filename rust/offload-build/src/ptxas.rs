//! NVPTX images become cubins: libomptarget's CUDA plugin loads a cubin
//! (PTX would need its JIT and a registered NVPTX target). ptxas keeps the
//! kernel records as symbols of `.nv.global.init`, so they are read from the
//! cubin like from any other image.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::Error;

/// The environment variable naming ptxas.
pub const OFFLOAD_PASSES_PTXAS: &str = "OFFLOAD_PASSES_PTXAS";

/// ptxas: `OFFLOAD_PASSES_PTXAS`, else the offload-passes repository's
/// `tools/bin/ptxas` (where scripts/setup.sh puts it) found from the plugin
/// at `<repository>/target/<profile>/liboffload_passes.so`, else `ptxas` on
/// `PATH`.
pub(crate) fn find(plugin: &Path) -> Result<PathBuf, Error> {
    println!("cargo::rerun-if-env-changed={OFFLOAD_PASSES_PTXAS}");
    let path = std::env::var_os("PATH").unwrap_or_default();
    find_in(
        std::env::var_os(OFFLOAD_PASSES_PTXAS).map(PathBuf::from),
        plugin,
        &path,
    )
}

fn find_in(
    given: Option<PathBuf>,
    plugin: &Path,
    path: &std::ffi::OsStr,
) -> Result<PathBuf, Error> {
    if let Some(given) = given {
        return if given.is_file() {
            Ok(given)
        } else {
            Err(Error::PtxasNotFound {
                given: Some(given),
                plugin: plugin.to_path_buf(),
            })
        };
    }
    let repository = plugin.ancestors().nth(3);
    let bundled = repository.map(|r| r.join("tools/bin/ptxas"));
    let on_path = std::env::split_paths(path).map(|dir| dir.join("ptxas"));
    bundled
        .into_iter()
        .chain(on_path)
        .find(|p| p.is_file())
        .ok_or_else(|| Error::PtxasNotFound {
            given: None,
            plugin: plugin.to_path_buf(),
        })
}

/// Assembles `ptx` for `arch` (`sm_90`) into `cubin`.
pub(crate) fn assemble(ptxas: &Path, arch: &str, ptx: &Path, cubin: &Path) -> Result<(), Error> {
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(ptx)
        .arg("-o")
        .arg(cubin)
        .output()
        .map_err(|source| Error::Spawn {
            tool: "ptxas",
            source,
        })?;
    if !out.status.success() {
        return Err(Error::PtxasFailed {
            ptx: ptx.to_path_buf(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_order_and_the_missing_ptxas_error() {
        let dir = std::env::temp_dir().join(format!("offload-build-ptxas-{}", std::process::id()));
        let repo = dir.join("repo");
        let plugin = repo.join("target/release/liboffload_passes.so");
        let bin = dir.join("bin");
        std::fs::create_dir_all(plugin.parent().unwrap()).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        let path = std::env::join_paths([&bin]).unwrap();
        let error = find_in(None, &plugin, &path).unwrap_err().to_string();
        assert!(error.contains("no ptxas"), "{error}");
        assert!(error.contains("OFFLOAD_PASSES_PTXAS"), "{error}");
        assert!(error.contains("scripts/setup.sh"), "{error}");
        std::fs::write(bin.join("ptxas"), b"").unwrap();
        assert_eq!(find_in(None, &plugin, &path).unwrap(), bin.join("ptxas"));
        std::fs::create_dir_all(repo.join("tools/bin")).unwrap();
        std::fs::write(repo.join("tools/bin/ptxas"), b"").unwrap();
        assert_eq!(
            find_in(None, &plugin, &path).unwrap(),
            repo.join("tools/bin/ptxas")
        );
        let given = find_in(Some(dir.join("nope")), &plugin, &path).unwrap_err();
        assert!(given.to_string().contains("nope"), "{given}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
