//! The v1 launch: `call @K(args...)` of an external declaration of a
//! kernel of the image, described (optionally) by words a front end writes
//! to say what the IR cannot — as `!offload.launch` on the call, or as the
//! module-level constant `@__offload_launch.K`; without either, every
//! argument is inferred from its type and attributes.
//!
//! ```text
//! descriptor words: [0] 1, [1] [2] [3] teams x, y, z, [4] [5] [6] threads
//!                   x, y, z (0: the pass's teams=/threads= for x, 1 for y
//!                   and z), [7] dynamic shared memory, [8] A,
//!                   [9+3i] MAP, [10+3i] SIZE, [11+3i] LEN of argument i
//!                   (LEN: 1 + the index of the argument holding the
//!                   element count, SIZE then being one element's; 0: none)
//! A = 0: every argument inferred; a MAP or SIZE of 0: that word inferred
//! ```
//!
//! [`plan`] turns a call into a launch with a compile-time grid; [`lower`]
//! fills `KernelArgs` inline and calls `__tgt_target_kernel`.

pub mod lower;
pub mod plan;

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::InstructionValue;

use super::descriptor::{self, ArgSpec, DescriptorProblem};
use crate::ir::{Value, metadata};

use offload_contract::descriptor::v1::{self, Header};
/// The v1 descriptor's global-name prefix (`@__offload_launch.K`) and the
/// call metadata holding a descriptor.
pub use offload_contract::descriptor::v1::{
    METADATA as LAUNCH_METADATA, SYMBOL_PREFIX as DESCRIPTOR_PREFIX,
};

/// A parsed launch descriptor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaunchDescriptor {
    /// The grid and dynamic memory (0s: the pass's options).
    pub header: Header,
    /// Empty: infer every argument.
    pub args: Vec<ArgSpec>,
}

impl LaunchDescriptor {
    pub fn from_words(words: &[u64]) -> Result<LaunchDescriptor, DescriptorProblem> {
        let descriptor = v1::decode(words)?;
        Ok(LaunchDescriptor {
            header: descriptor.header,
            args: descriptor.args().collect(),
        })
    }
}

/// The words of a call's `!offload.launch`, if it has one.
pub fn call_metadata<'ctx>(
    module: &Module<'ctx>,
    call: InstructionValue<'ctx>,
) -> Option<Result<Vec<u64>, DescriptorProblem>> {
    let node = metadata::instruction_attachment(module, Value::from(call), LAUNCH_METADATA)?;
    let words = metadata::integers(node)
        .into_iter()
        .enumerate()
        .map(|(index, word)| word.ok_or(DescriptorProblem::MetadataOperand { index }))
        .collect();
    Some(words)
}

/// The descriptor global for kernel `name` (`@__offload_launch.K`), if the
/// module has one. Its bytes are read in the data layout's byte order, so
/// rustc's `[N x i8]` lowering of a `[u64; N]` static works.
pub fn global_descriptor(
    module: &Module<'_>,
    name: &str,
    layout: &TargetData,
) -> Option<Result<LaunchDescriptor, DescriptorProblem>> {
    let global = module.get_global(&format!("{DESCRIPTOR_PREFIX}{name}"))?;
    Some(
        descriptor::global_words(global, layout)
            .and_then(|words| LaunchDescriptor::from_words(&words)),
    )
}

#[cfg(test)]
mod tests;
