//! LLVM 22's installation, found by its `llvm-config`: the tools the
//! device build runs and the libraries a program links.

use std::process::Command;

use crate::error::Error;

/// libomptarget and libomp from LLVM 22's library directory, with an rpath.
pub(crate) fn link_omptarget() -> Result<(), Error> {
    let libdir = config("--libdir")?;
    println!("cargo::rustc-link-search=native={libdir}");
    println!("cargo::rustc-link-lib=dylib=omptarget");
    println!("cargo::rustc-link-lib=dylib=omp");
    println!("cargo::rustc-link-arg=-Wl,-rpath,{libdir}");
    Ok(())
}

/// `llvm-config --<arg>` of LLVM 22 (`LLVM_CONFIG`, else `llvm-config-22`).
pub(crate) fn config(arg: &str) -> Result<String, Error> {
    let tool = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".into());
    println!("cargo::rerun-if-env-changed=LLVM_CONFIG");
    let out = Command::new(&tool)
        .arg(arg)
        .output()
        .map_err(|source| Error::LlvmConfig {
            tool: tool.clone(),
            arg: arg.to_owned(),
            source,
        })?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}
