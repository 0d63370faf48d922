//! Compiling the stub module: rustc with the plugin's `offload-host`
//! (which embeds and registers the images), then the static library the
//! kernel crate's rlib bundles.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::exports::targets_text;
use super::{Contract, source};
use crate::Image;
use crate::error::{Error, io};

/// The pass pipeline that embeds `images` (in registration order):
/// `offload-host<image=A;image=B;...>`.
pub(super) fn pipeline(images: &[Image]) -> String {
    let params: Vec<String> = images
        .iter()
        .map(|image| format!("image={}", crate::plugin::param_path(&image.path)))
        .collect();
    format!("-Cpasses=offload-host<{}>", params.join(";"))
}

/// Writes the stubs (from the first image's kernels, which every image's
/// agree with) and compiles them for the host program's target `host`, with
/// every image embedded and registered, as crate `crate_name` (the linker
/// names the object by it); returns the object.
pub fn build(
    images: &[Image],
    digest: u64,
    plugin: &Path,
    (host, crate_name): (&str, &str),
    out_dir: &Path,
    contract: Contract,
) -> Result<PathBuf, Error> {
    let kernels = images.first().map_or(&[][..], |i| &i.kernels[..]);
    let src = out_dir.join("offload_stubs.rs");
    let obj = out_dir.join("offload_stubs.o");
    let targets = targets_text(images, host);
    std::fs::write(&src, source(kernels, digest, contract, &targets)).map_err(io(&src))?;
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove("OFFLOAD_PASSES_PIPELINE_START")
        .env_remove("OFFLOAD_PASSES_OPTIMIZER_LAST")
        .args([
            "--edition=2024",
            "--crate-type=lib",
            &format!("--crate-name={crate_name}"),
            "--emit=obj",
        ])
        .args([
            "-Copt-level=2",
            "-Ccodegen-units=1",
            "-Cpanic=abort",
            "-Crelocation-model=pic",
        ])
        .arg(format!("--target={host}"))
        .arg(format!("-Zllvm-plugins={}", plugin.display()))
        .arg(pipeline(images))
        .arg(&src)
        .arg("-o")
        .arg(&obj)
        .output()
        .map_err(|source| Error::Spawn {
            tool: "rustc",
            source,
        })?;
    if !out.status.success() {
        return Err(Error::StubsRefused {
            images: images.iter().map(|i| i.path.clone()).collect(),
            kernels: kernels.iter().map(|k| k.symbol.clone()).collect(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(obj)
}

/// The static library `lib<name>.a` holding the stubs' object `obj`, next to
/// it (LLVM 22's `llvm-ar`, else `ar`). A static library, not a link
/// argument: rustc bundles it into the rlib of the package whose build
/// script made it, so every artifact that links that package (another
/// package's binary, its own tests, doctests, examples, benches) links the
/// stubs, once. Linked whole (`+whole-archive`): the registration is in
/// every such artifact, also one that launches nothing.
pub fn archive(obj: &Path, name: &str) -> Result<PathBuf, Error> {
    let dir = obj.parent().unwrap_or(Path::new("."));
    let lib = dir.join(format!("lib{name}.a"));
    // `ar r` keeps the members of an older archive: start afresh.
    if lib.exists() {
        std::fs::remove_file(&lib).map_err(io(&lib))?;
    }
    let llvm_ar = crate::llvm::config("--bindir")
        .ok()
        .map(|bindir| Path::new(&bindir).join("llvm-ar"))
        .filter(|ar| ar.exists());
    let tool = llvm_ar.unwrap_or_else(|| PathBuf::from("ar"));
    let out = Command::new(&tool)
        .arg("crs")
        .arg(&lib)
        .arg(obj)
        .output()
        .map_err(|source| Error::Spawn { tool: "ar", source })?;
    if !out.status.success() {
        return Err(Error::ArchiveFailed {
            lib,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(lib)
}
