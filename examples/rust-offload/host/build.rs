//! Builds the device image and arranges for rustc to offload this crate's
//! kernel calls to it:
//! 1. compiles `device/src/lib.rs` for x86_64 as a `cdylib` with the plugin's
//!    `offload-wrap-kernels` pass (rustc cannot attach `!offload.kernel`
//!    metadata, so the kernels are named in the pass parameter);
//! 2. sets `OFFLOAD_PASSES_OPTIMIZER_LAST=offload-host<image=...>` for this
//!    crate's compilation, so the plugin (loaded by `-Zllvm-plugins` in
//!    `.cargo/config.toml`) runs the host pass at the end of the optimiser;
//! 3. links libomptarget from LLVM 22.

use std::env;
use std::path::PathBuf;
use std::process::Command;

/// The device crate's kernels (`#[unsafe(no_mangle)] extern "C"` functions).
const KERNELS: &[&str] = &["increment", "saxpy", "mix", "step", "sum"];

fn plugin() -> PathBuf {
    let path = env::var_os("OFFLOAD_PASSES_PLUGIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
            manifest.join("../../../target/release/liboffload_passes.so")
        });
    path.canonicalize().unwrap_or_else(|_| {
        panic!(
            "plugin {} not found: run `cargo build --release` at the repository root first",
            path.display()
        )
    })
}

fn llvm_libdir() -> String {
    let out = Command::new("llvm-config-22")
        .arg("--libdir")
        .output()
        .expect("llvm-config-22 (install llvm-22)");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .trim()
        .to_owned()
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let device_src = manifest.join("../device/src/lib.rs");
    let image = PathBuf::from(env::var_os("OUT_DIR").unwrap()).join("libdevice.so");
    let plugin = plugin();

    let status = Command::new(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .env("RUSTC_BOOTSTRAP", "1")
        .args([
            "--edition=2024",
            "--crate-type=cdylib",
            "--crate-name=device",
            "-Copt-level=3",
        ])
        .arg("-Ccodegen-units=1")
        .arg(format!("-Zllvm-plugins={}", plugin.display()))
        .arg(format!(
            "-Cpasses=offload-wrap-kernels<kernels={}>",
            KERNELS.join(":")
        ))
        .arg(&device_src)
        .arg("-o")
        .arg(&image)
        .status()
        .expect("run rustc for the device image");
    assert!(status.success(), "compiling the device image failed");

    println!(
        "cargo::rustc-env=OFFLOAD_PASSES_OPTIMIZER_LAST=offload-host<image={}>",
        image.display()
    );
    let libdir = llvm_libdir();
    println!("cargo::rustc-link-search=native={libdir}");
    println!("cargo::rustc-link-lib=dylib=omptarget");
    println!("cargo::rustc-link-arg=-Wl,-rpath,{libdir}");
    println!("cargo::rerun-if-changed={}", device_src.display());
    println!("cargo::rerun-if-changed={}", plugin.display());
    println!("cargo::rerun-if-env-changed=OFFLOAD_PASSES_PLUGIN");
}
