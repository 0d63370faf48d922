//! The plugin built from its crate, for a build that names none: the
//! `offload-passes-plugin` crate of offload-build's own version, built once
//! per user, LLVM version and plugin version into the cache directory
//! ([`crate::cache`]) and used by every later build.
//!
//! Layout of `<cache>/plugin/<llvm version>-<plugin version>/`:
//! `build/` is a one-dependency package (the plugin crate, `=<version>`)
//! that a nested `cargo build --release -p offload-passes-plugin` builds;
//! `liboffload_passes.so` is its result, copied out; `ready` is written
//! last, and `build.log` keeps the nested cargo's output. Concurrent builds
//! take `<cache>/plugin/<name>.lock` (an exclusive file lock): one builds,
//! the others wait and then use its plugin.
//!
//! The plugin crate comes from wherever the user's cargo takes crates:
//! crates.io, a source replacement or a `[patch]` in the cargo
//! configuration of the package whose build script runs (the nested cargo
//! runs in its directory, so that configuration applies). An offload-build
//! compiled from the offload-passes repository itself (a path dependency)
//! builds that repository's `plugin/` instead, in a directory of its own,
//! and lets cargo decide each time whether its sources changed.

use std::path::{Path, PathBuf};
use std::process::Command;

use offload_contract::digest::image_digest;

use crate::cache::{cache_root, lock};
use crate::error::{Error, PluginBuildError, io};
use crate::mode::nested_cargo;

/// The plugin crate's name; offload-build builds the one of its own version.
pub(crate) const PLUGIN_CRATE: &str = "offload-passes-plugin";
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The plugin's file name: the crate's `[lib] name` is `offload_passes`.
pub(crate) const PLUGIN_FILE: &str = "liboffload_passes.so";

/// Where the plugin crate's source comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    /// The registry (or whatever the user's cargo configuration puts in its
    /// place): `=<version>`, immutable once published, so built once.
    Registry,
    /// The offload-passes repository offload-build was compiled from.
    Repository(PathBuf),
}

/// The plugin crate's source: the repository's `plugin/` when this
/// offload-build was compiled from `rust/offload-build` of a checkout
/// (a packaged offload-build has no `../../plugin` of this crate), else the
/// registry.
fn source() -> Source {
    let repo_plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugin");
    let manifest = std::fs::read_to_string(repo_plugin.join("Cargo.toml")).unwrap_or_default();
    if manifest.contains(&format!("name = \"{PLUGIN_CRATE}\"")) {
        return Source::Repository(repo_plugin.canonicalize().unwrap_or(repo_plugin));
    }
    Source::Registry
}

/// The built plugin, building it first where the cache has none.
pub(crate) fn cached_plugin() -> Result<PathBuf, Error> {
    let llvm = llvm_version()?;
    let source = source();
    let name = dir_name(&llvm, &source);
    let root = match cache_root() {
        Some(cache) => cache.join("plugin"),
        None => out_dir()?.join("offload-plugin"),
    };
    // Held until this function returns: another build of the same plugin
    // waits here, then finds it ready.
    let _lock = lock(&root, &format!("{name}.lock"))?;
    let dir = root.join(&name);
    let plugin = dir.join(PLUGIN_FILE);
    if source == Source::Registry && dir.join("ready").exists() && plugin.exists() {
        return Ok(plugin);
    }
    if !dir.join("ready").exists() {
        println!(
            "cargo::warning=offload-build: building the offload-passes plugin ({PLUGIN_CRATE} {VERSION}, LLVM {llvm}) once into {} (a few minutes; shared by later builds)",
            dir.display()
        );
    }
    build(&dir, &source)?;
    Ok(plugin)
}

/// `<llvm version>-<plugin version>`, and for a repository's plugin a hash
/// of the repository's path.
fn dir_name(llvm: &str, source: &Source) -> String {
    match source {
        Source::Registry => format!("{llvm}-{VERSION}"),
        Source::Repository(path) => {
            let hash = image_digest(path.as_os_str().as_encoded_bytes());
            format!("{llvm}-{VERSION}-repository-{hash:016x}")
        }
    }
}

/// `llvm-config --version` (`LLVM_CONFIG`, else `llvm-config-22`), which
/// must be LLVM 22: what building the plugin needs, said once.
fn llvm_version() -> Result<String, Error> {
    let tool = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".into());
    println!("cargo::rerun-if-env-changed=LLVM_CONFIG");
    let missing = |problem: String| {
        Error::PluginBuild(PluginBuildError::Prerequisite {
            tool: tool.clone(),
            problem,
        })
    };
    let out = Command::new(&tool)
        .arg("--version")
        .output()
        .map_err(|e| missing(format!("cannot be run: {e}")))?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() {
        return Err(missing(format!("--version failed ({})", out.status)));
    }
    check_llvm_version(&version).map_err(missing)?;
    Ok(version)
}

/// LLVM 22, and a version that can name a directory.
fn check_llvm_version(version: &str) -> Result<(), String> {
    let plain = !version.is_empty()
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_');
    if !plain {
        return Err(format!("printed the version `{version}`"));
    }
    if version.split('.').next() != Some("22") {
        return Err(format!("is LLVM {version}, not LLVM 22"));
    }
    Ok(())
}

/// The build script's `OUT_DIR`: the plugin's place without a cache
/// directory (no `HOME`).
fn out_dir() -> Result<PathBuf, Error> {
    std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .ok_or(Error::EnvNotSet { name: "OUT_DIR" })
}

/// The package the nested cargo builds: no code of its own, the plugin
/// crate its one dependency, and the plugin's release profile (unwinding
/// panics: the plugin catches them at its C boundary).
fn wrapper_manifest(source: &Source) -> String {
    let dependency = match source {
        Source::Registry => format!("\"={VERSION}\""),
        Source::Repository(path) => format!(
            "{{ path = \"{}\" }}",
            path.display()
                .to_string()
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
        ),
    };
    format!(
        "# Written by offload-build: builds the offload-passes plugin.\n\
         [package]\nname = \"offload-passes-plugin-build\"\nversion = \"0.0.0\"\n\
         edition = \"2024\"\npublish = false\n\n[lib]\npath = \"lib.rs\"\n\n\
         [dependencies]\n{PLUGIN_CRATE} = {dependency}\n\n\
         [profile.release]\npanic = \"unwind\"\n\n[workspace]\n"
    )
}

/// Builds the plugin into `dir`, then writes `ready`.
fn build(dir: &Path, source: &Source) -> Result<(), Error> {
    let work = dir.join("build");
    std::fs::create_dir_all(&work).map_err(io(&work))?;
    let manifest = work.join("Cargo.toml");
    let text = wrapper_manifest(source);
    if std::fs::read_to_string(&manifest).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&manifest, text).map_err(io(&manifest))?;
    }
    let lib = work.join("lib.rs");
    if !lib.exists() {
        std::fs::write(&lib, "").map_err(io(&lib))?;
    }
    // A repository's plugin starts from the repository's lock file: the
    // dependency versions its own `cargo build --release --locked` uses,
    // all downloaded already.
    let lock_file = work.join("Cargo.lock");
    if let Source::Repository(plugin_dir) = source
        && !lock_file.exists()
    {
        let repo_lock = plugin_dir.join("../Cargo.lock");
        if repo_lock.exists() {
            std::fs::copy(&repo_lock, &lock_file).map_err(|source| Error::Copy {
                from: repo_lock.clone(),
                to: lock_file.clone(),
                source,
            })?;
        }
    }
    let log = dir.join("build.log");
    let target_dir = work.join("target");
    let mut cmd = nested_cargo();
    cmd.args(["build", "--release", "-p", PLUGIN_CRATE, "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir);
    // The user's cargo configuration (registries, source replacement,
    // patches) is the one of the package whose build script runs.
    if let Some(package) = std::env::var_os("CARGO_MANIFEST_DIR") {
        cmd.current_dir(package);
    }
    let out = cmd.output().map_err(|source| Error::Spawn {
        tool: "cargo",
        source,
    })?;
    let mut text = out.stdout;
    text.extend_from_slice(&out.stderr);
    std::fs::write(&log, &text).map_err(io(&log))?;
    let built = target_dir.join("release").join(PLUGIN_FILE);
    if !out.status.success() || !built.exists() {
        return Err(Error::PluginBuild(PluginBuildError::Failed {
            dir: dir.to_path_buf(),
            log,
            output: tail(&String::from_utf8_lossy(&text), 30),
        }));
    }
    install(&built, &dir.join(PLUGIN_FILE))?;
    let ready = dir.join("ready");
    if !ready.exists() {
        std::fs::write(&ready, format!("{PLUGIN_CRATE} {VERSION}\n")).map_err(io(&ready))?;
    }
    Ok(())
}

/// Copies `built` to `plugin` (whole: through a partial file and a
/// rename) unless `plugin` has its bytes already: the device builds rerun
/// when the plugin file changes, so a repository's plugin that cargo found
/// fresh must keep its file untouched.
fn install(built: &Path, plugin: &Path) -> Result<(), Error> {
    let new = std::fs::read(built).map_err(io(built))?;
    if std::fs::read(plugin).is_ok_and(|old| old == new) {
        return Ok(());
    }
    let partial = plugin.with_extension("so.partial");
    std::fs::write(&partial, &new).map_err(io(&partial))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(0o755))
        .map_err(io(&partial))?;
    std::fs::rename(&partial, plugin).map_err(io(plugin))
}

/// The last `lines` lines of `text`.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_llvm_22_builds_the_plugin() {
        assert_eq!(check_llvm_version("22.1.8"), Ok(()));
        assert_eq!(check_llvm_version("22.1.0-rc1"), Ok(()));
        let old = check_llvm_version("19.1.7").unwrap_err();
        assert!(old.contains("not LLVM 22"), "{old}");
        assert!(check_llvm_version("").is_err());
        assert!(check_llvm_version("22/../x").is_err());
    }

    #[test]
    fn registry_plugins_are_keyed_by_llvm_and_plugin_version() {
        assert_eq!(
            dir_name("22.1.8", &Source::Registry),
            format!("22.1.8-{VERSION}")
        );
        let a = dir_name("22.1.8", &Source::Repository("/a/plugin".into()));
        let b = dir_name("22.1.8", &Source::Repository("/b/plugin".into()));
        assert!(
            a.starts_with(&format!("22.1.8-{VERSION}-repository-")),
            "{a}"
        );
        assert_ne!(a, b);
    }

    #[test]
    fn the_wrapper_depends_on_this_version_of_the_plugin_crate() {
        let manifest = wrapper_manifest(&Source::Registry);
        assert!(
            manifest.contains(&format!("{PLUGIN_CRATE} = \"={VERSION}\"")),
            "{manifest}"
        );
        assert!(manifest.contains("panic = \"unwind\""), "{manifest}");
        let repo = wrapper_manifest(&Source::Repository("/r/\"q\"/plugin".into()));
        assert!(
            repo.contains(&format!(
                "{PLUGIN_CRATE} = {{ path = \"/r/\\\"q\\\"/plugin\" }}"
            )),
            "{repo}"
        );
    }

    #[test]
    fn this_checkout_builds_its_own_plugin() {
        // These tests run from rust/offload-build of the repository.
        match source() {
            Source::Repository(path) => assert!(path.join("src/shim.cpp").exists()),
            Source::Registry => panic!("the repository's plugin/ was not found"),
        }
    }

    #[test]
    fn an_unchanged_plugin_keeps_its_file() {
        let dir =
            std::env::temp_dir().join(format!("offload-build-install-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (built, plugin) = (dir.join("built.so"), dir.join(PLUGIN_FILE));
        std::fs::write(&built, b"one").unwrap();
        install(&built, &plugin).unwrap();
        assert_eq!(std::fs::read(&plugin).unwrap(), b"one");
        let modified = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
        let before = modified(&plugin);
        std::thread::sleep(std::time::Duration::from_millis(20));
        install(&built, &plugin).unwrap();
        assert_eq!(
            modified(&plugin),
            before,
            "the same bytes are not written again"
        );
        std::fs::write(&built, b"two").unwrap();
        install(&built, &plugin).unwrap();
        assert_eq!(std::fs::read(&plugin).unwrap(), b"two");
        assert!(!dir.join("liboffload_passes.so.partial").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tails_keep_the_last_lines() {
        assert_eq!(tail("a\nb\nc\n", 2), "b\nc");
        assert_eq!(tail("a", 5), "a");
    }
}
