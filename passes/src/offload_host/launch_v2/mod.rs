//! The v2 launch (`docs/launch-contract.md`, "The v2 call form"; its values
//! in the `offload-contract` crate): the call form, its compile-time
//! descriptor and the run-time `LaunchConfig`.
//!
//! ```text
//! declare i32 @"__offload_launch2.K"(ptr %descriptor, ptr %config, <K's arguments>)
//! descriptor words: [0] 2, [1] image digest (0: no check), [2] A,
//!                   [3+2i] MAP of argument i, [4+2i] SIZE of argument i
//! %struct.__offload_launch_config = type { i32, i32, [3 x i32], [3 x i32], i32, i64, ptr }
//!   version (2), reserved, teams, threads, dynamic shared memory, device, sizes
//! ```
//!
//! [`plan`] checks the call and its descriptor; [`lower`] fills the
//! argument arrays (a pointer's size may come from the config) and calls
//! the module's `__offload_run_launch2` ([`run_launch2`]), which reads the
//! config and calls `__tgt_target_kernel`.

pub mod lower;
pub mod plan;
pub mod run_launch2;

use inkwell::targets::TargetData;

use super::descriptor::{self, ArgSpec, DescriptorProblem};
use crate::ir::Value;

use offload_contract::descriptor::v2;
pub use offload_contract::descriptor::v2::LAUNCH_PREFIX as LAUNCH2_PREFIX;

/// The `LaunchConfig` versions the lowering accepts at run time: the
/// current one (sizes entry `SIZE_NOT_GIVEN`: not given) and the one where
/// a 0 entry is not given.
pub const CONFIG_VERSION: u64 = offload_contract::launch_config::VERSION as u64;
pub const CONFIG_VERSION_ZERO_NOT_GIVEN: u64 =
    offload_contract::launch_config::VERSION_ZERO_NOT_GIVEN as u64;
pub use offload_contract::launch_config::SIZE_NOT_GIVEN;

/// `LaunchConfig`'s fields: their indices in `%struct.__offload_launch_config`.
pub mod config {
    pub use offload_contract::launch_config::field::{
        DEVICE as DEVICE_FIELD, DYN_CGROUP_MEM as DYN_CGROUP_MEM_FIELD, SIZES as SIZES_FIELD,
        TEAMS as TEAMS_FIELD, THREADS as THREADS_FIELD, VERSION as VERSION_FIELD,
    };
}

/// Run-time codes a v2 launch returns without launching (libomptarget's
/// own failure is -1, `OFFLOAD_FAIL`).
pub mod code {
    pub use offload_contract::launch_code::{
        BAD_CONFIG, NO_DEVICE_FOR_IMAGES, NO_SIZE, NO_SUCH_DEVICE, NULL_POINTER,
        OUT_OF_DEVICE_MEMORY, PROBE_BYTES, SIZE_TOO_LARGE,
    };
}

/// A parsed v2 descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescriptorV2 {
    /// 0: not checked.
    pub digest: u64,
    /// The (MAP, SIZE) pairs, without lengths (zeros: infer).
    pub args: Vec<ArgSpec>,
}

impl DescriptorV2 {
    pub fn from_words(words: &[u64]) -> Result<DescriptorV2, DescriptorProblem> {
        let descriptor = v2::decode(words)?;
        Ok(DescriptorV2 {
            digest: descriptor.digest,
            args: descriptor.args().map(ArgSpec::from).collect(),
        })
    }
}

/// Where a v2 call's descriptor argument points, and why it cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DescriptorSource {
    /// Not a global of this module (as IR text).
    NotAGlobal { text: String },
    /// The global, with what is wrong with it.
    Global {
        name: String,
        problem: DescriptorProblem,
    },
}

/// Reads the descriptor a v2 call passes: `pointer` must be (a cast or
/// zero-offset GEP of) a constant global of this module.
pub fn read_descriptor(
    pointer: Value<'_>,
    layout: &TargetData,
) -> Result<DescriptorV2, DescriptorSource> {
    // A value used in this module's code can only be this module's global.
    let Some(global) = pointer.strip_pointer_casts().as_global_variable() else {
        return Err(DescriptorSource::NotAGlobal {
            text: pointer.text(),
        });
    };
    let named = |problem| DescriptorSource::Global {
        name: Value::from(global).name(),
        problem,
    };
    let words = descriptor::global_words(global, layout).map_err(named)?;
    DescriptorV2::from_words(&words).map_err(named)
}

#[cfg(test)]
mod tests;
