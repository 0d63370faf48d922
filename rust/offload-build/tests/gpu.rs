//! GPU compile tests: the kernel crate `tests/gpu-kernels` (index API, every
//! argument shape) built by offload-build for `amdgcn-amd-amdhsa` (gfx90a)
//! and `nvptx64-nvidia-cuda` (sm_90, assembled by ptxas into a cubin), on
//! the shared `core` of each target; each kernel must be a kernel of the
//! image (an AMDGPU `K.kd` descriptor, a PTX `.entry` and a cubin function
//! with its records). `tests/differ-kernels`, whose kernels differ between
//! the host and AMDGPU, must be refused naming kernel and target. Skipped,
//! saying why, without the `rust-src` component (and `llvm-bitcode-linker`
//! and ptxas for nvptx) or the plugin.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn plugin() -> PathBuf {
    std::env::var_os("OFFLOAD_PASSES_PLUGIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/release/liboffload_passes.so"))
}

/// Why the test cannot run here, if it cannot.
fn missing(nvptx: bool) -> Option<String> {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !sysroot.join("lib/rustlib/src/rust/library/core").exists() {
        return Some(
            "the rust-src component is not installed (rustup component add rust-src)".into(),
        );
    }
    if nvptx
        && !sysroot
            .join("lib/rustlib/x86_64-unknown-linux-gnu/bin/self-contained/llvm-bitcode-linker")
            .exists()
    {
        return Some(
            "llvm-bitcode-linker is not installed (rustup component add llvm-bitcode-linker)"
                .into(),
        );
    }
    if nvptx
        && !repo().join("tools/bin/ptxas").exists()
        && std::env::var_os("OFFLOAD_PASSES_PTXAS").is_none()
    {
        return Some("no ptxas (scripts/setup.sh puts one in tools/bin)".into());
    }
    let plugin = plugin();
    if !plugin.exists() {
        return Some(format!(
            "the plugin {} is not built (cargo build --release)",
            plugin.display()
        ));
    }
    None
}

fn build(target: &str, cpu: &str) -> Option<offload_build::Image> {
    if let Some(why) = missing(target.starts_with("nvptx")) {
        eprintln!("skipped: GPU compile test for {target}: {why}");
        return None;
    }
    let work = repo().join("target/gpu-tests");
    let out = work.join(format!("out-{target}"));
    std::fs::create_dir_all(&out).unwrap();
    let image = offload_build::DeviceCrate::new(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gpu-kernels"),
    )
    .target(target)
    .target_cpu(cpu)
    .image_only()
    .plugin(plugin())
    .target_dir(work.join("cargo"))
    .out_dir(&out)
    .build()
    .unwrap_or_else(|e| panic!("{e}"))
    .images
    .remove(0);
    let names: Vec<&str> = image.kernels.iter().map(|k| k.symbol.as_str()).collect();
    assert_eq!(names, ["ids", "saxpy", "scale"]);
    Some(image)
}

#[test]
fn amdgcn_kernels_are_kernels_of_the_code_object() {
    let Some(image) = build("amdgcn-amd-amdhsa", "gfx90a") else {
        return;
    };
    let out = Command::new("llvm-readelf-22")
        .arg("--symbols")
        .arg(&image.path)
        .output()
        .unwrap();
    let symbols = String::from_utf8_lossy(&out.stdout);
    for k in ["saxpy", "ids", "scale"] {
        assert!(
            symbols.contains(&format!(" {k}.kd")),
            "no {k}.kd in\n{symbols}"
        );
    }
    // The code object's metadata lists each kernel by name.
    let out = Command::new("llvm-readelf-22")
        .arg("--notes")
        .arg(&image.path)
        .output()
        .unwrap();
    let notes = String::from_utf8_lossy(&out.stdout);
    for k in ["saxpy", "ids", "scale"] {
        assert!(
            notes
                .lines()
                .any(|l| l.trim() == format!(".name:           {k}")),
            "no kernel {k} in\n{notes}"
        );
    }
}

#[test]
fn nvptx_kernels_are_ptx_entries() {
    let Some(image) = build("nvptx64-nvidia-cuda", "sm_90") else {
        return;
    };
    assert_eq!(image.path.extension().unwrap(), "cubin");
    let ptx = std::fs::read_to_string(image.path.with_extension("ptx")).unwrap();
    for k in ["saxpy", "ids", "scale"] {
        assert!(
            ptx.contains(&format!(".entry {k}(")),
            "no .entry {k} in the PTX"
        );
    }
    for register in ["%ctaid.x", "%nctaid.x", "%tid.x", "%ntid.x", "%ctaid.z"] {
        assert!(ptx.contains(register), "the PTX never reads {register}");
    }
}

#[test]
fn a_kernel_missing_in_one_image_names_kernel_and_target() {
    if let Some(why) = missing(false) {
        eprintln!("skipped: GPU agreement test: {why}");
        return;
    }
    let work = repo().join("target/gpu-tests");
    let out = work.join("out-differ");
    std::fs::create_dir_all(&out).unwrap();
    let error = offload_build::DeviceCrate::new(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differ-kernels"),
    )
    .targets(["host", "amdgcn-amd-amdhsa:gfx90a"])
    .image_only()
    .plugin(plugin())
    .target_dir(work.join("cargo-differ"))
    .out_dir(&out)
    .build()
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "kernel `host_only` in the image for amdgcn-amd-amdhsa:gfx90a differs from the first image's (host): the image has no such kernel"
    );
}
