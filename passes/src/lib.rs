//! Pass logic of the offload-passes LLVM plugin, on inkwell.
//!
//! One module per pass (each starts with a header saying what it does, what it
//! expects, what it guarantees and how to run it); IR helpers shared by
//! several passes in [`ir`]; the [`ModulePass`] trait in [`pass`]. The
//! registration table [`PASSES`] is below: adding a pass is one file (or
//! folder) plus one line there.

pub mod ir;
pub mod kernel_manifest;
pub mod params;
pub mod pass;

pub use inkwell;
pub use pass::{Diagnostics, ModulePass, PassInfo};

/// Declares each pass's module and lists the pass in [`PASSES`].
macro_rules! passes {
    ($($module:ident :: $pass:ident),* $(,)?) => {
        $(pub mod $module;)*
        /// Every pass the plugin registers, in order.
        pub const PASSES: &[PassInfo] = &[$(PassInfo::of::<$module::$pass>()),*];
    };
}

passes! {
    amdgpu_kernel_abi::AmdgpuKernelAbi,
    byref_callee_copy::ByrefCalleeCopy,
    offload_wrap_kernels::OffloadWrapKernels,
    offload_host::OffloadHost,
}

#[cfg(test)]
mod test_support;
