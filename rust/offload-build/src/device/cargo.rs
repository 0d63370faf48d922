//! The device build: cargo on the kernel crate, in its own target directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

use offload_contract::digest::image_digest;

use super::target_dir;
use crate::checks::{duplicates, libraries, owner};
use crate::error::{Error, io};
use crate::manifest::{manifest_features, package_name};
use crate::mode::nested_cargo;
use crate::targets::is_gpu;

/// The device profile: `panic = "abort"`, line tables only (for the
/// uniformity check's messages; `strip` removes them from the image), fat
/// LTO (AMDGPU needs it), one codegen unit (the wrap pass sees every
/// kernel), never incremental.
const PROFILE: &str = "offload-device";
const PROFILE_SETTINGS: &[&str] = &[
    "inherits=\"release\"",
    "opt-level=3",
    "debug=\"line-tables-only\"",
    "strip=\"debuginfo\"",
    "panic=\"abort\"",
    "lto=\"fat\"",
    "codegen-units=1",
    "incremental=false",
    "debug-assertions=false",
    "overflow-checks=false",
];

/// The pipeline the device build adds at the plugin's OptimizerLast point
/// (docs/uniformity.md): barriers and warp operations reached by every
/// thread of a team. It runs on each crate's module before fat LTO too, so
/// it keeps the line tables (the final image's link strips them).
const UNIFORMITY_CHECK: &str = "offload-check-uniform";

pub struct DeviceBuild<'a> {
    pub dir: &'a Path,
    pub target: &'a str,
    pub target_cpu: Option<&'a str>,
    pub target_dir: &'a Path,
    pub plugin: &'a Path,
    /// A GPU target's shared `core` ([`super::sysroot`]); `None`: cargo's
    /// `-Zbuild-std=core` in the device build's own target directory.
    pub sysroot: Option<&'a Path>,
    /// The kernel crate's `RUSTC_WORKSPACE_WRAPPER`
    /// ([`crate::target_dir::workspace_wrapper`]).
    pub workspace_wrapper: &'a Path,
}

pub struct Built {
    pub image: PathBuf,
    /// Every local source file of the device build (cargo's dep-info).
    pub sources: Vec<PathBuf>,
}

impl DeviceBuild<'_> {
    fn cargo(&self) -> Result<Command, Error> {
        let mut cmd = nested_cargo();
        cmd.env("RUSTC_BOOTSTRAP", "1");
        cmd.env("CARGO_TARGET_DIR", self.target_dir);
        cmd.env("RUSTC_WORKSPACE_WRAPPER", self.workspace_wrapper);
        // The uniformity check runs where the kernels are whole: at the end
        // of each crate's optimisation and of the fat LTO that merges them
        // (the plugin's OptimizerLast point), never before inlining.
        cmd.env("OFFLOAD_PASSES_OPTIMIZER_LAST", UNIFORMITY_CHECK);
        let mut flags: Vec<String> = Vec::new();
        if let Some(cpu) = self.target_cpu {
            flags.push(format!("-Ctarget-cpu={cpu}"));
        }
        if let Some(sysroot) = self.sysroot {
            flags.push(format!("--sysroot={}", sysroot.display()));
        }
        flags.extend(self.pass_flags()?);
        cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\u{1f}"));
        if !is_gpu(self.target) {
            // After the check, the x86_64 image's teams compiled into
            // loops, at the end of fat LTO: the whole program, each kernel
            // inlined into its thread body.
            cmd.env(
                "OFFLOAD_PASSES_OPTIMIZER_LAST",
                format!("{UNIFORMITY_CHECK},offload-team-loops"),
            );
        }
        if self.target.starts_with("nvptx") {
            // rustc's llvm-bitcode-linker runs LLVM 22's llvm-link and llc.
            if let Ok(bindir) = crate::llvm::config("--bindir") {
                let mut path = OsString::from(bindir);
                path.push(":");
                path.push(std::env::var_os("PATH").unwrap_or_default());
                cmd.env("PATH", path);
            }
        }
        cmd.arg("rustc")
            .arg("--manifest-path")
            .arg(self.dir.join("Cargo.toml"))
            .args(["--lib", "--target", self.target])
            .args(device_feature_flags(self.dir));
        if is_gpu(self.target) && self.sysroot.is_none() {
            cmd.arg("-Zbuild-std=core");
        }
        Ok(cmd)
    }

    /// The plugin's passes, for every crate of the device build (RUSTFLAGS
    /// reach the target's crates, not build scripts and proc macros): rustc
    /// runs `-Cpasses` on each crate's module before fat LTO merges them,
    /// so the kernels of the kernel crate's dependencies (kernel libraries)
    /// are wrapped in their own crate's module. A crate without kernels is
    /// left as it is.
    fn pass_flags(&self) -> Result<Vec<String>, Error> {
        let mut flags = vec![
            format!("-Zllvm-plugins={}", self.plugin.display()),
            // cargo fingerprints the flags, not the plugin they name: a
            // rebuilt plugin must rebuild the image too.
            format!(
                "--cfg=offload_passes_plugin=\"{}\"",
                plugin_id(self.plugin)?
            ),
        ];
        if is_gpu(self.target) {
            // The entry points are `extern "gpu-kernel"`: the pass finds them
            // by their calling convention.
            flags.push("-Zcrate-attr=feature(abi_gpu_kernel)".to_owned());
            // The `offload` crate's dynamic shared memory into addrspace(3).
            flags.push("-Cpasses=offload-shared-memory".to_owned());
            flags.push("-Cpasses=offload-wrap-kernels".to_owned());
        } else {
            // The entry points are plain C functions: the pass finds them
            // by the records every `#[kernel]` exports beside them.
            flags.push("-Cpasses=offload-wrap-kernels<records>".to_owned());
            // libomptarget's host plugin loads one copy of the image per
            // device into one process: the image's calls of its own exported
            // functions (the CPU grid's hooks) must bind to its own copy,
            // not to the first copy loaded.
            flags.push("-Clink-arg=-Wl,-Bsymbolic".to_owned());
        }
        Ok(flags)
    }

    pub fn run(&self) -> Result<Built, Error> {
        let manifest = self.dir.join("Cargo.toml");
        let name = package_name(&manifest)?.replace('-', "_");
        let mut cmd = self.cargo()?;
        cmd.args(["--crate-type", "cdylib", "--profile", PROFILE]);
        for setting in PROFILE_SETTINGS {
            cmd.arg("--config")
                .arg(format!("profile.{PROFILE}.{setting}"));
        }
        let profile_dir = self.target_dir.join(self.target).join(PROFILE);
        let identity = target_dir::identity(cmd.get_args(), cmd.get_envs());
        target_dir::claim_image(&profile_dir, &name, &identity)?;
        // cargo's progress goes to stderr anyway; nothing of the device build
        // may reach this build script's stdout (cargo reads directives there).
        // Its messages are read to explain a symbol two kernels define, and
        // passed on.
        cmd.stdout(std::io::stderr());
        cmd.stderr(std::process::Stdio::piped());
        let out = cmd.output().map_err(|source| Error::Spawn {
            tool: "cargo",
            source,
        })?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        eprint!("{stderr}");
        if !out.status.success() {
            let duplicate = duplicates::explain(
                || self.cargo().ok(),
                self.dir,
                self.target,
                self.target_dir,
                &stderr,
            );
            return Err(duplicate.unwrap_or_else(|| {
                if libraries::lacks_offload(self.dir, &stderr) {
                    Error::NeverNamesOffload {
                        dir: self.dir.to_path_buf(),
                    }
                } else {
                    Error::DeviceBuildFailed {
                        dir: self.dir.to_path_buf(),
                        target: self.target.to_owned(),
                    }
                }
            }));
        }
        // x86_64: libK.so; amdgcn: K.elf; nvptx: K.ptx.
        let image = target_dir::image_files(&name)
            .iter()
            .map(|file| profile_dir.join(file))
            .find(|p| p.exists())
            .ok_or_else(|| Error::NoImage {
                name: name.clone(),
                dir: profile_dir.clone(),
            })?;
        let sources = dep_info(&image.with_extension("d"));
        Ok(Built { image, sources })
    }
}

/// The device build's feature flags for the kernel crate at `dir`:
/// `--features offload/device,<the features cargo resolved for it>`, and
/// `--no-default-features` where those lack `default`.
pub(crate) fn device_feature_flags(dir: &Path) -> Vec<String> {
    let mut features = vec!["offload/device".to_owned()];
    let resolved = host_features(dir);
    if let Some(resolved) = &resolved {
        features.extend(resolved.iter().filter(|f| *f != "default").cloned());
    }
    let mut flags = vec!["--features".to_owned(), features.join(",")];
    if resolved.is_some_and(|r| !r.iter().any(|f| f == "default")) {
        flags.push("--no-default-features".to_owned());
    }
    flags
}

/// The features cargo resolved for the kernel crate at `dir`: in its own
/// build script, the ones cargo enabled for it; in a host package's build
/// script, `cargo tree -e normal -i <kernel crate>` on the host package with the features cargo enabled for it (its
/// `CARGO_FEATURE_*`). `None` outside a build script, or (with a warning)
/// where the kernel crate is no dependency of the host package: the device
/// build then takes the kernel crate's default features.
///
/// Asked once per kernel crate and build script (each target's build
/// asks again; `cargo tree` resolves the whole workspace).
fn host_features(dir: &Path) -> Option<Vec<String>> {
    type Known = Vec<(PathBuf, Option<Vec<String>>)>;
    static KNOWN: Mutex<Known> = Mutex::new(Vec::new());
    let mut known = KNOWN.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, features)) = known.iter().find(|(d, _)| d == dir) {
        return features.clone();
    }
    let features = resolve_host_features(dir);
    known.push((dir.to_path_buf(), features.clone()));
    features
}

fn resolve_host_features(dir: &Path) -> Option<Vec<String>> {
    // Only in a build script (TARGET is set for build scripts alone).
    std::env::var_os("TARGET")?;
    // The kernel crate's own build script: the features cargo enabled for it.
    if let Some(own) = owner::own_features(dir) {
        return Some(own);
    }
    let host = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?).join("Cargo.toml");
    let kernel = package_name(&dir.join("Cargo.toml")).ok()?;
    let enabled = |name: &str| {
        let key = format!("CARGO_FEATURE_{}", name.to_uppercase().replace('-', "_"));
        std::env::var_os(key).is_some()
    };
    let text = std::fs::read_to_string(&host).ok()?;
    let host_features: Vec<String> = manifest_features(&text)
        .into_iter()
        .filter(|f| f != "default" && enabled(f))
        .collect();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.arg("tree").arg("--manifest-path").arg(&host);
    cmd.args([
        "-e", "normal", "--depth", "0", "--prefix", "none", "-f", "{f}",
    ]);
    cmd.args([
        "-i",
        &kernel,
        "--offline",
        "--features",
        &host_features.join(","),
    ]);
    if !enabled("default") {
        cmd.arg("--no-default-features");
    }
    if let Ok(target) = std::env::var("TARGET") {
        cmd.args(["--target", &target]);
    }
    let out = cmd.output().ok().filter(|o| o.status.success());
    let Some(out) = out else {
        println!(
            "cargo::warning=offload-build: could not find the features of the kernel crate `{kernel}` in the host build (`cargo tree -i {kernel}` failed); the device build takes its default features"
        );
        return None;
    };
    let line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()?
        .to_owned();
    Some(
        line.split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

/// A digest of the plugin's bytes.
fn plugin_id(plugin: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(plugin).map_err(io(plugin))?;
    Ok(format!("{:016x}", image_digest(&bytes)))
}

/// The prerequisites in cargo's dep-info file (`out: a b\ c`).
fn dep_info(path: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Some((_, deps)) = text.split_once(": ") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = deps.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| *n == ' ') => {
                current.push(' ');
                chars.next();
            }
            ' ' | '\n' => {
                if !current.is_empty() {
                    out.push(PathBuf::from(std::mem::take(&mut current)));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(PathBuf::from(current));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dep_info_paths() {
        let dir = std::env::temp_dir().join(format!("offload-build-dep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("x.d");
        std::fs::write(&file, "/t/libk.so: /a/src/lib.rs /b/my\\ dir/c.rs\n").unwrap();
        assert_eq!(
            dep_info(&file),
            [
                PathBuf::from("/a/src/lib.rs"),
                PathBuf::from("/b/my dir/c.rs")
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
