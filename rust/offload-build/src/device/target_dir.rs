//! Where the device build's cargo puts its files: one target directory
//! shared by every kernel crate and program of a user, so the device
//! build's host dependencies (proc-macro2, quote, syn, `offload-macros`,
//! `offload-contract`) are built once per toolchain, not per program or per
//! `cargo clean`.
//!
//! cargo locks a target directory while it runs, but three things of a
//! shared one are not safe by themselves, and are made so here:
//! - A workspace member's artifacts are named by its package name, version
//!   and path *relative to the workspace root*, so the `kernels/` crates of
//!   two copies of one project (or of two projects laid out alike) would
//!   share files and fingerprints, and the one built second would be taken
//!   as fresh with the other's code. Each kernel crate's build therefore
//!   runs with its own `RUSTC_WORKSPACE_WRAPPER` (a two-line script that
//!   runs rustc, at a path keyed by the kernel crate's directory): cargo
//!   hashes the wrapper's path into the members' artifact names, and only
//!   theirs; registry crates and path crates outside the workspace (named
//!   by their absolute path) stay shared.
//! - A `cdylib` (the image) gets no hash in its file name: two kernel
//!   crates of one package name write the same `deps/lib<name>.so`. Before
//!   each build the owner stamp `<profile dir>/.offload-owner-<name>` is
//!   compared with the build's identity (its cargo arguments and
//!   environment); another identity deletes the image files, so cargo
//!   rebuilds them instead of taking the other crate's as fresh.
//! - The image is copied out after cargo ends: the whole device build of
//!   one target (stamp, cargo, copy, ptxas) runs under an exclusive file
//!   lock on `<target dir>/offload-build.lock`; concurrent builds wait.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use offload_contract::digest::image_digest;

use crate::cache::{Lock, cache_root, lock};
use crate::error::{Error, io};

/// The environment variable naming the device target directory, else
/// `target` in the cache directory ([`OFFLOAD_SYSROOT_CACHE`]). It is shared
/// by every kernel crate and program, so the device build's proc macros and
/// other host dependencies are built once per toolchain, not per program or
/// `cargo clean`: each kernel crate's workspace members are kept apart from
/// another workspace's of the same layout, an image last written by another
/// build is deleted before cargo runs, and each target's build holds an
/// exclusive file lock on the directory until its image is copied out
/// (concurrent builds wait). `rm -rf` it to clean it.
///
/// [`OFFLOAD_SYSROOT_CACHE`]: crate::OFFLOAD_SYSROOT_CACHE
pub const OFFLOAD_DEVICE_TARGET_DIR: &str = "OFFLOAD_DEVICE_TARGET_DIR";

/// The shared device target directory: `OFFLOAD_DEVICE_TARGET_DIR`, else
/// `target` in the cache directory, else `fallback`.
pub(crate) fn shared_target_dir(fallback: &Path) -> PathBuf {
    println!("cargo::rerun-if-env-changed={OFFLOAD_DEVICE_TARGET_DIR}");
    match std::env::var_os(OFFLOAD_DEVICE_TARGET_DIR).filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => cache_root().map_or_else(|| fallback.to_path_buf(), |c| c.join("target")),
    }
}

/// The lock of a device target directory's builds.
pub(crate) fn lock_target_dir(target_dir: &Path) -> Result<Lock, Error> {
    lock(target_dir, "offload-build.lock")
}

/// A name per kernel crate directory: its last component and a hash of
/// its canonical path.
pub(crate) fn crate_dir_key(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let name = dir
        .file_name()
        .map_or("kernels".into(), |n| n.to_string_lossy().into_owned());
    let hash = image_digest(dir.as_os_str().as_encoded_bytes());
    format!("{name}-{hash:016x}")
}

/// The kernel crate's `RUSTC_WORKSPACE_WRAPPER` in `target_dir`: a script
/// that runs its arguments (rustc and its flags), at a path of its own per
/// kernel crate directory. Written once; call it under the target
/// directory's lock.
pub(crate) fn workspace_wrapper(target_dir: &Path, kernel_dir: &Path) -> Result<PathBuf, Error> {
    const SCRIPT: &str =
        "#!/bin/sh\n# offload-build: keys the workspace's artifacts by this path\nexec \"$@\"\n";
    let dir = target_dir
        .join("offload-workspaces")
        .join(crate_dir_key(kernel_dir));
    let path = dir.join("rustc");
    if std::fs::read_to_string(&path).is_ok_and(|text| text == SCRIPT) {
        return Ok(path);
    }
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let partial = dir.join("rustc.partial");
    std::fs::write(&partial, SCRIPT).map_err(io(&partial))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(0o755))
        .map_err(io(&partial))?;
    std::fs::rename(&partial, &path).map_err(io(&path))?;
    Ok(path)
}

/// What one device build of a crate is: its cargo arguments and the
/// environment set for it (not the outer build's, which the nested cargo
/// does not see).
pub(crate) fn identity<'a>(
    args: impl Iterator<Item = &'a OsStr>,
    envs: impl Iterator<Item = (&'a OsStr, Option<&'a OsStr>)>,
) -> String {
    let mut text = String::new();
    for arg in args {
        text.push_str(&arg.to_string_lossy());
        text.push('\n');
    }
    let mut envs: Vec<_> = envs.filter_map(|(k, v)| Some((k, v?))).collect();
    envs.sort();
    for (key, value) in envs {
        text.push_str(&format!("{}={}\n", key.display(), value.display()));
    }
    text
}

/// Makes `profile_dir`'s image files of crate `name` this build's: where
/// the owner stamp names another build (or none), the image files are
/// deleted (cargo then rebuilds them rather than taking another crate's
/// `lib<name>.so` as fresh) and the stamp rewritten. Call it under the
/// target directory's lock.
pub(crate) fn claim_image(profile_dir: &Path, name: &str, identity: &str) -> Result<(), Error> {
    let stamp = profile_dir.join(format!(".offload-owner-{name}"));
    if std::fs::read_to_string(&stamp).is_ok_and(|owner| owner == identity) {
        return Ok(());
    }
    for dir in [profile_dir.to_path_buf(), profile_dir.join("deps")] {
        for file in image_files(name) {
            let path = dir.join(file);
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(io(&path)(e));
                }
                _ => {}
            }
        }
    }
    std::fs::create_dir_all(profile_dir).map_err(io(profile_dir))?;
    std::fs::write(&stamp, identity).map_err(io(&stamp))
}

/// The file names a kernel crate's image can have: x86_64 `lib<name>.so`,
/// amdgcn `<name>.elf`, nvptx `<name>.ptx`.
pub(crate) fn image_files(name: &str) -> [String; 3] {
    [
        format!("lib{name}.so"),
        format!("{name}.elf"),
        format!("{name}.ptx"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("offload-build-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn crate_keys_differ_by_place_not_by_name() {
        let dir = temp("keys");
        std::fs::create_dir_all(dir.join("a/kernels")).unwrap();
        std::fs::create_dir_all(dir.join("b/kernels")).unwrap();
        let a = crate_dir_key(&dir.join("a/kernels"));
        let b = crate_dir_key(&dir.join("b/kernels"));
        assert!(
            a.starts_with("kernels-") && b.starts_with("kernels-"),
            "{a} {b}"
        );
        assert_ne!(a, b);
        assert_eq!(a, crate_dir_key(&dir.join("b/../a/kernels")));
        let wa = workspace_wrapper(&dir.join("t"), &dir.join("a/kernels")).unwrap();
        let wb = workspace_wrapper(&dir.join("t"), &dir.join("b/kernels")).unwrap();
        assert_ne!(wa, wb);
        assert_eq!(
            wa,
            workspace_wrapper(&dir.join("t"), &dir.join("a/kernels")).unwrap()
        );
        let out = std::process::Command::new(&wa)
            .args(["echo", "runs"])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "runs\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn identities_hold_arguments_and_set_variables_in_order() {
        let mut cmd = std::process::Command::new("cargo");
        cmd.args(["rustc", "--target", "x"])
            .env("B", "2")
            .env("A", "1")
            .env_remove("C");
        let id = identity(cmd.get_args(), cmd.get_envs());
        assert_eq!(id, "rustc\n--target\nx\nA=1\nB=2\n");
    }

    #[test]
    fn another_owner_deletes_the_image_files() {
        let dir = temp("claim");
        let deps = dir.join("deps");
        std::fs::create_dir_all(&deps).unwrap();
        let image = deps.join("libkernels.so");
        let other = deps.join("libother.so");
        std::fs::write(&image, b"a's image").unwrap();
        std::fs::write(&other, b"x").unwrap();
        std::fs::write(dir.join("libkernels.so"), b"a's image").unwrap();
        claim_image(&dir, "kernels", "a").unwrap();
        // No stamp yet: whose the files are is unknown.
        assert!(!image.exists());
        std::fs::write(&image, b"a's image").unwrap();
        claim_image(&dir, "kernels", "a").unwrap();
        assert!(image.exists(), "the owner's own image stays");
        claim_image(&dir, "kernels", "b").unwrap();
        assert!(!image.exists() && !dir.join("libkernels.so").exists());
        assert!(other.exists(), "another crate's image stays");
        assert_eq!(
            std::fs::read_to_string(dir.join(".offload-owner-kernels")).unwrap(),
            "b"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
