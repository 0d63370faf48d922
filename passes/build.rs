//! Builds `src/ir/llvm_ext.cpp` (LLVM C++ calls the C API lacks) against the
//! LLVM 22 headers, and points test builds at libLLVM-22: unit tests run
//! passes in-process, while the plugin takes LLVM from the process that
//! loads it.

use std::process::Command;

fn llvm_config(arg: &str) -> String {
    let config = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".to_owned());
    let out = Command::new(&config)
        .arg(arg)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {config} (install llvm-22-dev): {e}"));
    assert!(out.status.success(), "{config} {arg} failed");
    String::from_utf8(out.stdout)
        .expect("llvm-config output is UTF-8")
        .trim()
        .to_owned()
}

fn main() {
    let mut build = cc::Build::new();
    build.cpp(true).file("src/ir/llvm_ext.cpp");
    for flag in llvm_config("--cxxflags").split_whitespace() {
        build.flag(flag);
    }
    // Debian's LLVM is built with RTTI, rustc's libLLVM exports no typeinfo
    // symbols: without -fno-rtti the plugin would not load into rustc.
    build
        .flag("-fno-rtti")
        .warnings(false)
        .compile("offload_passes_llvm_ext");

    let libdir = llvm_config("--libdir");
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-env=OFFLOAD_PASSES_LLVM_LIBDIR={libdir}");
    println!("cargo:rerun-if-changed=src/ir/llvm_ext.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
}
