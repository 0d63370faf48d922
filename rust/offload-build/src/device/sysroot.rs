//! The shared `core` of a GPU target: `core` and `compiler_builtins` built
//! once with `-Zbuild-std=core` per toolchain, target, cpu and flags into a
//! sysroot in a cache directory, which every kernel crate's device build of
//! that target then uses with `--sysroot` (through `RUSTFLAGS`, which with
//! `--target` reach only the target's crates, not build scripts or proc
//! macros).
//!
//! Layout of `<cache>/<triple>-<cpu>-<key>/`: `lib/rustlib/<triple>/lib/`
//! holds the two rlibs, `lib/rustlib/<host>` links to the toolchain's own
//! (its linkers: `rust-lld`, `llvm-bitcode-linker`), and `ready` is written
//! last. `<key>` is a hash of `rustc -vV`, the toolchain's sysroot path, the
//! target, the cpu and the flags, so a new toolchain or other flags build a
//! new sysroot. Concurrent builds take `<cache>/<name>.lock` (an exclusive
//! file lock): one builds, the others wait and then use its sysroot.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use offload_contract::digest::image_digest;

use crate::cache::cache_root;
use crate::error::{Error, io};
use crate::mode::nested_cargo;

/// `core`'s profile: what the device profile sets that reaches `core`
/// (`panic = "abort"`, no debug assertions or overflow checks, one codegen
/// unit), with bitcode embedded for the kernel crate's fat LTO.
const PROFILE: &str = "[profile.release]\nopt-level = 3\ndebug = false\npanic = \"abort\"\n\
codegen-units = 1\ndebug-assertions = false\noverflow-checks = false\nincremental = false\n";
const EMBED_BITCODE: &str = "-Cembed-bitcode=yes";

/// The cache directory ([`cache_root`]), else
/// `fallback` (the device build's target directory).
pub(crate) fn cache_dir(fallback: &Path) -> PathBuf {
    cache_root().unwrap_or_else(|| fallback.join("offload-sysroot"))
}

/// What the key hashes, from `rustc`.
struct Toolchain {
    version: String,
    sysroot: PathBuf,
    host: String,
}

fn toolchain() -> Result<Toolchain, Error> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let run = |args: &[&str]| {
        Command::new(&rustc)
            .args(args)
            .output()
            .map_err(|source| Error::Spawn {
                tool: "rustc",
                source,
            })
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let version = run(&["-vV"])?;
    let sysroot = PathBuf::from(run(&["--print", "sysroot"])?.trim());
    let host = version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or("x86_64-unknown-linux-gnu")
        .to_owned();
    Ok(Toolchain {
        version,
        sysroot,
        host,
    })
}

/// The directory name of a target's sysroot.
fn name(toolchain: &Toolchain, triple: &str, cpu: &str) -> String {
    let key = format!(
        "{}\n{}\n{triple}\n{cpu}\n{PROFILE}\n{EMBED_BITCODE}",
        toolchain.version,
        toolchain.sysroot.display()
    );
    format!("{triple}-{cpu}-{:016x}", image_digest(key.as_bytes()))
}

/// The sysroot with `core` for `triple` and `cpu`, built on first use.
pub(crate) fn shared_core(cache: &Path, triple: &str, cpu: &str) -> Result<PathBuf, Error> {
    let toolchain = toolchain()?;
    let name = name(&toolchain, triple, cpu);
    let root = cache.join(&name);
    std::fs::create_dir_all(cache).map_err(io(cache))?;
    let lock_path = cache.join(format!("{name}.lock"));
    let lock = File::create(&lock_path).map_err(io(&lock_path))?;
    // Held until this function returns: another build of the same sysroot
    // waits here, then finds it ready.
    lock.lock().map_err(io(&lock_path))?;
    if root.join("ready").exists() {
        return Ok(root);
    }
    println!(
        "cargo::warning=offload-build: building core for {triple} ({cpu}) once into {} (shared by later builds)",
        root.display()
    );
    let work = cache.join(format!("{name}.build"));
    let rlibs = build_core(&work, triple, cpu)?;
    let _ = std::fs::remove_dir_all(&root);
    let lib = root.join("lib/rustlib").join(triple).join("lib");
    std::fs::create_dir_all(&lib).map_err(io(&lib))?;
    for rlib in rlibs {
        let to = lib.join(rlib.file_name().expect("an rlib file name"));
        std::fs::copy(&rlib, &to).map_err(|source| Error::Copy {
            from: rlib.clone(),
            to: to.clone(),
            source,
        })?;
    }
    let host = root.join("lib/rustlib").join(&toolchain.host);
    let real = toolchain.sysroot.join("lib/rustlib").join(&toolchain.host);
    std::os::unix::fs::symlink(&real, &host).map_err(io(&host))?;
    let ready = root.join("ready");
    std::fs::write(&ready, &toolchain.version).map_err(io(&ready))?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(root)
}

/// Builds `core` for the target with cargo's `-Zbuild-std=core` (an empty
/// `no_std` library in `work`); returns its rlibs (`core`,
/// `compiler_builtins`).
fn build_core(work: &Path, triple: &str, cpu: &str) -> Result<Vec<PathBuf>, Error> {
    let src = work.join("crate/src");
    std::fs::create_dir_all(&src).map_err(io(&src))?;
    let manifest = work.join("crate/Cargo.toml");
    let text = format!(
        "[package]\nname = \"offload_core\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[workspace]\n\n{PROFILE}"
    );
    std::fs::write(&manifest, text).map_err(io(&manifest))?;
    std::fs::write(src.join("lib.rs"), "#![no_std]\n").map_err(io(&src))?;
    let mut cmd = nested_cargo();
    let flags = [format!("-Ctarget-cpu={cpu}"), EMBED_BITCODE.to_owned()];
    cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\u{1f}"))
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", work.join("target"))
        .arg("build")
        .arg("--manifest-path")
        .arg(&manifest)
        .args(["--release", "--target", triple, "-Zbuild-std=core"])
        .stdout(std::io::stderr());
    let status = cmd.status().map_err(|source| Error::Spawn {
        tool: "cargo",
        source,
    })?;
    if !status.success() {
        return Err(Error::CoreBuildFailed {
            target: triple.to_owned(),
            dir: work.to_path_buf(),
        });
    }
    let deps = work.join("target").join(triple).join("release/deps");
    let rlibs: Vec<PathBuf> = std::fs::read_dir(&deps)
        .map_err(io(&deps))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let file = p.file_name().map(|f| f.to_string_lossy().into_owned());
            file.is_some_and(|f| {
                (f.starts_with("libcore-") || f.starts_with("libcompiler_builtins-"))
                    && f.ends_with(".rlib")
            })
        })
        .collect();
    if rlibs.len() != 2 {
        return Err(Error::CoreBuildFailed {
            target: triple.to_owned(),
            dir: work.to_path_buf(),
        });
    }
    Ok(rlibs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_changes_with_toolchain_target_and_cpu() {
        let toolchain = |version: &str| Toolchain {
            version: version.into(),
            sysroot: "/t".into(),
            host: "x86_64-unknown-linux-gnu".into(),
        };
        let a = name(&toolchain("rustc 1.95.0"), "amdgcn-amd-amdhsa", "gfx90a");
        assert!(a.starts_with("amdgcn-amd-amdhsa-gfx90a-"), "{a}");
        assert_eq!(
            a,
            name(&toolchain("rustc 1.95.0"), "amdgcn-amd-amdhsa", "gfx90a")
        );
        assert_ne!(
            a,
            name(&toolchain("rustc 1.96.0"), "amdgcn-amd-amdhsa", "gfx90a")
        );
        assert_ne!(
            a,
            name(&toolchain("rustc 1.95.0"), "amdgcn-amd-amdhsa", "gfx942")
        );
    }
}
