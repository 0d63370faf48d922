//! LLVM 22's installation, found by its `llvm-config`: the tools the
//! device build runs and the libraries a program links.

use crate::error::Error;

/// libomptarget and libomp from LLVM 22's library directory, with an rpath
/// (`offload` links them too; here for the kernel crate's own tests).
pub(crate) fn link_omptarget() -> Result<(), Error> {
    offload_contract::libomptarget::link().map_err(Error::from)
}

/// `llvm-config --<arg>` of LLVM 22 (`LLVM_CONFIG`, else `llvm-config-22`).
pub(crate) fn config(arg: &str) -> Result<String, Error> {
    offload_contract::libomptarget::llvm_config(arg).map_err(Error::from)
}
