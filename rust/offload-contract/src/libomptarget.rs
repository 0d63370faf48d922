//! How a build script links libomptarget: LLVM 22's library directory from
//! `llvm-config` (`LLVM_CONFIG`, else `llvm-config-22`), `libomptarget` and
//! `libomp` from there, with an rpath for the package's own executables.
//! `offload`'s build script links them into every program that uses the
//! crate (its data API calls libomptarget); `offload-build` links them for
//! a kernel crate's launch stubs and the crate's own tests.
//!
//! Build-script code: needs `std` (the `build-script` feature).

extern crate std;

use std::string::{String, ToString};
use std::{fmt, io, println};

/// `llvm-config` could not answer.
#[derive(Debug)]
pub struct LlvmConfigError {
    /// The `llvm-config` executable.
    pub tool: String,
    /// The option it was asked.
    pub arg: String,
    /// Why: the operating system's error, or the tool's exit status.
    pub why: io::Error,
}

impl fmt::Display for LlvmConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {} (install LLVM 22: llvm-22, liboffload-22-dev; or set LLVM_CONFIG to LLVM 22's llvm-config)",
            self.tool, self.arg, self.why
        )
    }
}

impl core::error::Error for LlvmConfigError {}

/// `llvm-config <arg>`'s answer, trimmed (and a rerun of the build script
/// when `LLVM_CONFIG` changes).
pub fn llvm_config(arg: &str) -> Result<String, LlvmConfigError> {
    println!("cargo::rerun-if-env-changed=LLVM_CONFIG");
    let tool = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".into());
    let error = |why| LlvmConfigError {
        tool: tool.clone(),
        arg: arg.to_string(),
        why,
    };
    let out = std::process::Command::new(&tool)
        .arg(arg)
        .output()
        .map_err(error)?;
    let answer = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || answer.is_empty() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(error(io::Error::other(std::format!(
            "{} ({})",
            out.status,
            stderr.trim()
        ))));
    }
    Ok(answer)
}

/// Prints the cargo instructions that link `libomptarget` and `libomp`
/// from LLVM 22's library directory, with an rpath to it (cargo applies a
/// link argument to the package's own executables only; a dependent's find
/// the libraries through the loader's path).
pub fn link() -> Result<(), LlvmConfigError> {
    link_from(Some(&llvm_config("--libdir")?));
    Ok(())
}

/// Prints the cargo instructions that link `libomptarget` and `libomp`,
/// from `libdir` with an rpath to it, or (`None`) from the linker's and
/// the loader's own paths.
pub fn link_from(libdir: Option<&str>) {
    if let Some(libdir) = libdir {
        println!("cargo::rustc-link-search=native={libdir}");
        println!("cargo::rustc-link-arg=-Wl,-rpath,{libdir}");
    }
    println!("cargo::rustc-link-lib=dylib=omptarget");
    println!("cargo::rustc-link-lib=dylib=omp");
}
