//! Pass logic of the offload-passes LLVM plugin, on inkwell.
//!
//! One module per pass (each starts with a header saying what it does, what it
//! expects, what it guarantees and how to run it); IR helpers shared by
//! several passes in `ir`, which wraps the raw `llvm-sys` calls; the
//! `ModulePass` trait in [`pass`]. The registration table
//! [`PASSES`] is below: adding a pass is one file (or folder) plus one line
//! there. The plugin and the fuzz target see [`PASSES`], [`pass`] and
//! [`Diagnostics`]; everything else is the crate's own.

pub(crate) mod ir;
pub(crate) mod kernel_manifest;
pub(crate) mod params;
pub mod pass;

pub use inkwell;
pub(crate) use pass::ModulePass;
pub use pass::{Diagnostics, PassInfo};

/// Declares each pass's module and lists the pass in [`PASSES`].
macro_rules! passes {
    ($($(#[$attr:meta])* $module:ident :: $pass:ident),* $(,)?) => {
        $($(#[$attr])* pub(crate) mod $module;)*
        /// Every pass the plugin registers, in order.
        pub const PASSES: &[PassInfo] = &[$(PassInfo::of::<$module::$pass>()),*];
    };
}

passes! {
    amdgpu_kernel_abi::AmdgpuKernelAbi,
    byref_callee_copy::ByrefCalleeCopy,
    offload_wrap_kernels::OffloadWrapKernels,
    offload_shared_memory::OffloadSharedMemory,
    offload_host::OffloadHost,
    offload_check_uniform::OffloadCheckUniform,
    offload_team_loops::OffloadTeamLoops,
}

#[cfg(test)]
mod test_support;
