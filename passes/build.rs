//! Unit tests (`cargo test`) run passes on IR in-process and so need LLVM;
//! only test builds link it (see `test_support`). Point the linker at LLVM 22.

use std::process::Command;

fn main() {
    let config = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".to_owned());
    if let Ok(out) = Command::new(&config).arg("--libdir").output()
        && out.status.success()
    {
        let libdir = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        println!("cargo:rustc-link-search=native={libdir}");
        println!("cargo:rustc-env=OFFLOAD_PASSES_LLVM_LIBDIR={libdir}");
    }
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
}
