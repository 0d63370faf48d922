//! Planning a v1 launch: its descriptor words (or none), its arguments and
//! its compile-time grid.

use super::LaunchDescriptor;
use crate::offload_host::descriptor::{ArgSpec, DescriptorProblem};
use crate::offload_host::error::{Error, LaunchProblem};
use crate::offload_host::launch_plan::{Grid, ImageTie, Launch};
use crate::offload_host::options::Options;
use crate::offload_host::site::Site;

/// Plans a v1 launch: `call @K(args...)`, described by `!offload.launch`
/// (`metadata`, which wins), `@__offload_launch.K` (`global`) or neither
/// (every argument inferred); the grid is the descriptor's, 0s taking the
/// pass's `teams=`/`threads=` for x and 1 for y and z.
pub fn plan<'ctx>(
    site: &Site<'_, 'ctx>,
    options: &Options,
    metadata: Option<Result<Vec<u64>, DescriptorProblem>>,
    global: Option<LaunchDescriptor>,
) -> Result<Launch<'ctx>, Error> {
    site.check_call()?;
    let described = metadata.is_some() || global.is_some();
    let descriptor = match metadata {
        Some(words) => words
            .and_then(|words| LaunchDescriptor::from_words(&words))
            .map_err(|p| site.error(LaunchProblem::Descriptor(p)))?,
        None => global.unwrap_or_default(),
    };
    let arguments = site.arguments(0)?;
    if !descriptor.args.is_empty() && descriptor.args.len() != arguments.len() {
        return Err(site.error(LaunchProblem::CountMismatch {
            described: descriptor.args.len(),
            passed: arguments.len(),
        }));
    }
    let specs: Vec<ArgSpec> = (0..arguments.len())
        .map(|i| descriptor.args.get(i).copied().unwrap_or_default())
        .collect();
    let args = site.plan_arguments(0, &arguments, &specs, false, described)?;
    let default = |given: u32, default: u32| if given == 0 { default } else { given };
    let dims = |given: [u32; 3], x: u32| {
        [
            default(given[0], x),
            default(given[1], 1),
            default(given[2], 1),
        ]
    };
    let grid = Grid::Static {
        teams: dims(descriptor.header.teams, options.teams),
        threads: dims(descriptor.header.threads, options.threads),
        dyn_cgroup_mem: descriptor.header.dyn_cgroup_mem,
    };
    let mut launch = site.launch(grid, 0, args)?;
    launch.image_tie = ImageTie::V1Form;
    Ok(launch)
}
