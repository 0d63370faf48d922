//! Pass logic of the offload-passes LLVM plugin, on inkwell.
//!
//! One module per pass (each starts with a header saying what it does, what it
//! expects, what it guarantees and how to run it); shared IR helpers in [`ir`];
//! the table of passes the plugin exposes in [`registry`].

pub mod amdgpu_kernel_abi;
pub mod byref_callee_copy;
pub mod debug_info;
pub mod ir;
pub mod offload_host;
pub mod offload_image;
pub mod offload_wrap_kernels;
pub mod params;
pub mod registry;

pub use inkwell;

#[cfg(test)]
mod test_support;
