//! NVPTX images become cubins: libomptarget's CUDA plugin loads a cubin
//! (PTX would need its JIT and a registered NVPTX target). ptxas keeps the
//! kernel records as symbols of `.nv.global.init`, so they are read from the
//! cubin like from any other image.

use std::path::{Path, PathBuf};
use std::process::Command;

use offload_contract::digest::image_digest;

use crate::error::{Error, io};

/// The environment variable naming ptxas, which assembles an NVPTX image
/// (PTX) into the cubin libomptarget loads; else the offload-passes
/// repository's `tools/bin`, else `PATH`.
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

/// Assembles `ptx` for `arch` (`sm_90`) into `cubin`, or copies the cubin
/// an earlier build made from the same PTX, arch and ptxas version from
/// `cache` (`<cache>/<key>.cubin`, written under a temporary name and
/// renamed, so a concurrent build reads a whole file or none).
pub(crate) fn assemble(
    ptxas: &Path,
    arch: &str,
    ptx: &Path,
    cubin: &Path,
    cache: &Path,
) -> Result<(), Error> {
    let text = std::fs::read(ptx).map_err(io(ptx))?;
    let cached = cache.join(format!(
        "{}.cubin",
        cache_key(&version(ptxas)?, arch, &text)
    ));
    if std::fs::copy(&cached, cubin).is_ok() {
        return Ok(());
    }
    run(ptxas, arch, ptx, cubin)?;
    std::fs::create_dir_all(cache).map_err(io(cache))?;
    let partial = cached.with_extension(format!("partial{}", std::process::id()));
    std::fs::copy(cubin, &partial).map_err(|source| Error::Copy {
        from: cubin.to_path_buf(),
        to: partial.clone(),
        source,
    })?;
    std::fs::rename(&partial, &cached).map_err(io(&cached))
}

/// The cache key of a cubin: a digest of ptxas's version, the arch and the
/// PTX.
fn cache_key(version: &str, arch: &str, ptx: &[u8]) -> String {
    let mut key = format!("{version}\n{arch}\n").into_bytes();
    key.extend_from_slice(ptx);
    format!("{arch}-{:016x}", image_digest(&key))
}

/// `ptxas --version`.
fn version(ptxas: &Path) -> Result<String, Error> {
    let out = Command::new(ptxas)
        .arg("--version")
        .output()
        .map_err(|source| Error::Spawn {
            tool: "ptxas",
            source,
        })?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn run(ptxas: &Path, arch: &str, ptx: &Path, cubin: &Path) -> Result<(), Error> {
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

    #[test]
    fn cubins_are_cached_by_ptx_arch_and_version() {
        let key = cache_key("V 12.9", "sm_90", b".entry k");
        assert!(key.starts_with("sm_90-"), "{key}");
        assert_eq!(key, cache_key("V 12.9", "sm_90", b".entry k"));
        assert_ne!(key, cache_key("V 12.8", "sm_90", b".entry k"));
        assert_ne!(key, cache_key("V 12.9", "sm_80", b".entry k"));
        assert_ne!(key, cache_key("V 12.9", "sm_90", b".entry j"));
        // A stand-in ptxas that counts its runs: the second assembly of the
        // same PTX is a copy from the cache, other PTX runs it again.
        let dir = std::env::temp_dir().join(format!("offload-build-cubin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let ptxas = dir.join("ptxas");
        let script = format!(
            "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo fake 1; exit 0; }}\necho run >> {runs}\ncp \"$2\" \"$4\"\n",
            runs = dir.join("runs").display()
        );
        std::fs::write(&ptxas, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ptxas, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (ptx, cubin, cache) = (dir.join("k.ptx"), dir.join("k.cubin"), dir.join("cache"));
        let runs = || {
            std::fs::read_to_string(dir.join("runs"))
                .unwrap_or_default()
                .lines()
                .count()
        };
        std::fs::write(&ptx, "one").unwrap();
        assemble(&ptxas, "sm_90", &ptx, &cubin, &cache).unwrap();
        assert_eq!(
            (runs(), std::fs::read_to_string(&cubin).unwrap().as_str()),
            (1, "one")
        );
        std::fs::remove_file(&cubin).unwrap();
        assemble(&ptxas, "sm_90", &ptx, &cubin, &cache).unwrap();
        assert_eq!(
            (runs(), std::fs::read_to_string(&cubin).unwrap().as_str()),
            (1, "one")
        );
        std::fs::write(&ptx, "two").unwrap();
        assemble(&ptxas, "sm_90", &ptx, &cubin, &cache).unwrap();
        assert_eq!(
            (runs(), std::fs::read_to_string(&cubin).unwrap().as_str()),
            (2, "two")
        );
        assemble(&ptxas, "sm_80", &ptx, &cubin, &cache).unwrap();
        assert_eq!(runs(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
