//! GPU compile tests: the kernel crate `tests/gpu-kernels` (index API, every
//! argument shape) built by offload-build for `amdgcn-amd-amdhsa` (gfx90a)
//! and `nvptx64-nvidia-cuda` (sm_90, assembled by ptxas into a cubin), on
//! the shared `core` of each target; each kernel must be a kernel of the
//! image (an AMDGPU `K.kd` descriptor, a PTX `.entry` and a cubin function
//! with its records), its atomics must be the GPUs' global-memory atomics
//! (FileCheck-22 on the disassembly, `tests/gpu-checks/`), and `team_sum`'s
//! barriers, shared memory and shuffles the GPUs' own instructions.
//! `tests/differ-kernels`, whose kernels differ between the host and AMDGPU,
//! must be refused naming kernel and target. Skipped, saying why, without
//! the `rust-src` component (and `llvm-bitcode-linker` and ptxas for nvptx)
//! or the plugin.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

const KERNELS: [&str; 9] = [
    "float_sums",
    "histogram",
    "ids",
    "reverse_static",
    "saxpy",
    "scale",
    "team_histogram",
    "team_sum",
    "tile_blur",
];

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
    assert_eq!(names, KERNELS);
    Some(image)
}

/// The lines of `asm` from the one that holds `start` up to the next line
/// that holds `next` (or the end).
fn section<'a>(asm: &'a str, start: &str, next: &str) -> String {
    let mut lines = asm.lines().skip_while(|l| !l.contains(start));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no {start:?} in the assembly"));
    let rest: Vec<&'a str> = lines.take_while(|l| !l.contains(next)).collect();
    format!("{first}\n{}\n", rest.join("\n"))
}

/// FileCheck-22 of `input` against `tests/gpu-checks/<checks>` with
/// `prefix`.
fn filecheck(checks: &str, prefix: &str, input: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/gpu-checks")
        .join(checks);
    let mut child = Command::new("FileCheck-22")
        .arg(&file)
        .arg(format!("--check-prefix={prefix}"))
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("FileCheck-22 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{checks} {prefix}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    for k in KERNELS {
        assert!(
            symbols.contains(&format!(" {k}.kd")),
            "no {k}.kd in\n{symbols}"
        );
    }
    // The barrier, LDS (the dynamic shared memory in addrspace(3)) and the
    // wavefront exchange of the toolkit.
    let out = Command::new("llvm-objdump-22")
        .args(["-d", "--mcpu=gfx90a"])
        .arg(&image.path)
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&out.stdout);
    for instruction in [
        "s_barrier",
        "ds_write_b32",
        "ds_read_b32",
        "ds_write_b64",
        "ds_read_b64",
        "ds_bpermute_b32",
        // tile_blur's claims of its shared tiles' elements.
        "ds_cmpst_rtn_b64",
    ] {
        assert!(
            code.contains(instruction),
            "no {instruction} in the code object"
        );
    }
    // The code object's metadata lists each kernel by name.
    let out = Command::new("llvm-readelf-22")
        .arg("--notes")
        .arg(&image.path)
        .output()
        .unwrap();
    let notes = String::from_utf8_lossy(&out.stdout);
    for k in KERNELS {
        assert!(
            notes
                .lines()
                .any(|l| l.trim() == format!(".name:           {k}")),
            "no kernel {k} in\n{notes}"
        );
    }
    // `reverse_static`'s two static shared arrays (128 `u32`s and 128
    // `u64`s) are its fixed LDS; the kernels without any have none.
    let segments: Vec<&str> = notes
        .lines()
        .filter(|l| l.contains(".group_segment_fixed_size:"))
        .collect();
    assert!(
        segments
            .iter()
            .any(|l| l.trim() == ".group_segment_fixed_size: 1536"),
        "no kernel with 1536 bytes of static LDS in\n{notes}"
    );
    assert!(
        segments
            .iter()
            .any(|l| l.trim() == ".group_segment_fixed_size: 0"),
        "every kernel has static LDS in\n{notes}"
    );
    let out = Command::new("llvm-objdump-22")
        .args(["-d", "--mcpu=gfx90a"])
        .arg(&image.path)
        .output()
        .unwrap();
    let asm = String::from_utf8_lossy(&out.stdout);
    for k in ["histogram", "float_sums"] {
        let kernel = section(&asm, &format!("<{k}>:"), ">:");
        filecheck("atomics-gfx90a.check", &k.to_uppercase(), &kernel);
    }
}

#[test]
fn nvptx_kernels_are_ptx_entries() {
    let Some(image) = build("nvptx64-nvidia-cuda", "sm_90") else {
        return;
    };
    assert_eq!(image.path.extension().unwrap(), "cubin");
    let ptx = std::fs::read_to_string(image.path.with_extension("ptx")).unwrap();
    for k in KERNELS {
        assert!(
            ptx.contains(&format!(".entry {k}(")),
            "no .entry {k} in the PTX"
        );
    }
    for register in ["%ctaid.x", "%nctaid.x", "%tid.x", "%ntid.x", "%ctaid.z"] {
        assert!(ptx.contains(register), "the PTX never reads {register}");
    }
    for instruction in [
        "bar.sync",
        ".extern .shared .align 16 .b8 __offload_dyn_shared[]",
        // `reverse_static`'s static arrays, one per declaration.
        ".b8 __offload_static_shared_$_",
        "[512];",
        "[1024];",
        "st.shared",
        "ld.shared",
        "shfl.sync",
        "vote.sync.ballot",
        // team_histogram's atomics on shared memory.
        "atom.shared.add.u32",
        // tile_blur's tiles of 256 f32s (1024 bytes, 2048 of records and
        // 8 of header), claimed by compare-and-swap on shared memory.
        "[3080];",
        ".shared.cas.b64",
    ] {
        assert!(ptx.contains(instruction), "no {instruction} in the PTX");
    }
    for k in ["histogram", "float_sums"] {
        let kernel = section(&ptx, &format!(".entry {k}("), ".entry ");
        filecheck("atomics-sm_90.check", &k.to_uppercase(), &kernel);
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
