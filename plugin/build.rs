//! Builds the C++ shim against the LLVM 22 headers. The plugin links no LLVM
//! library: every LLVM symbol resolves against the process that loads it
//! (opt's libLLVM.so.22.1 or rustc's libLLVM-22-rust-*.so).

use std::process::Command;

fn llvm_config() -> String {
    std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".to_owned())
}

fn main() {
    let config = llvm_config();
    let output = Command::new(&config)
        .arg("--cxxflags")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {config} (install llvm-22-dev): {e}"));
    assert!(output.status.success(), "{config} --cxxflags failed");
    let cxxflags = String::from_utf8(output.stdout).expect("llvm-config output is UTF-8");

    let mut build = cc::Build::new();
    build.cpp(true).file("src/shim.cpp");
    for flag in cxxflags.split_whitespace() {
        build.flag(flag);
    }
    // Debian's LLVM is built with RTTI, rustc's libLLVM exports no typeinfo
    // symbols: without -fno-rtti the plugin would not load into rustc.
    build
        .flag("-fno-rtti")
        .warnings(false)
        .compile("offload_passes_shim");

    // rustc and opt may unload plugins when they exit (LLVM's static set of
    // loaded libraries is destroyed): with several codegen threads another
    // thread may still be running plugin code then. Keep it mapped.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    println!("cargo:rerun-if-changed=src/shim.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
}
