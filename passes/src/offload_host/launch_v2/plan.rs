//! Planning a v2 launch: its call shape, its descriptor (a constant global
//! the call passes) and its arguments; the grid stays the config's.

use super::{DescriptorSource, read_descriptor};
use crate::ir::{Value, calls, naming};
use crate::offload_host::error::{Error, LaunchProblem};
use crate::offload_host::launch_plan::{Grid, ImageTie, Launch};
use crate::offload_host::site::Site;

/// Plans a v2 launch: `call @"__offload_launch2.K"(ptr %descriptor, ptr
/// %config, args...)`. The descriptor must be a constant global of the
/// module whose digest (when not 0) is the images' (`images_digest`); the grid is the
/// config's, read at run time.
pub fn plan<'ctx>(site: &Site<'_, 'ctx>) -> Result<Launch<'ctx>, Error> {
    site.check_call()?;
    let operands = calls::arguments(Value::from(site.call));
    let is_pointer =
        |v: Option<&Value<'_>>| v.is_some_and(|v| v.ty().pointer_address_space() == Some(0));
    if !(is_pointer(operands.first()) && is_pointer(operands.get(1))) {
        return Err(site.error(LaunchProblem::V2Shape {
            callee: naming::name_of(site.callee),
        }));
    }
    let descriptor = read_descriptor(operands[0], site.layout).map_err(|source| match source {
        DescriptorSource::NotAGlobal { text } => {
            site.error(LaunchProblem::DescriptorNotGlobal { text })
        }
        DescriptorSource::Global { name, problem } => site.error(LaunchProblem::DescriptorV2 {
            global: name,
            problem: Box::new(problem),
        }),
    })?;
    if descriptor.digest != 0 && descriptor.digest != site.images.digest {
        return Err(site.error(LaunchProblem::Digest {
            descriptor: descriptor.digest,
            image: site.images.digest,
            images: site.images.label(),
            several: site.images.images().len() > 1,
        }));
    }
    let arguments = site.arguments(2)?;
    if descriptor.args.len() != arguments.len() {
        return Err(site.error(LaunchProblem::CountMismatch {
            described: descriptor.args.len(),
            passed: arguments.len(),
        }));
    }
    let args = site.plan_arguments(2, &arguments, &descriptor.args, true, true)?;
    let mut launch = site.launch(Grid::Config, 2, args)?;
    if descriptor.digest == offload_contract::digest::UNCHECKED {
        launch.image_tie = ImageTie::ZeroDigest;
    }
    Ok(launch)
}
