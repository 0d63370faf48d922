//! Planning: every call of the module sorted into its kind once
//! ([`super::classify`]) and handed to that kind's planner — v1 launch,
//! v2 launch, data-region call — so that everything is found and checked
//! against the images before the module changes. What a planned launch is:
//! [`super::launch_plan`].

use inkwell::module::Module;

use super::classify::{CallKind, Classifier};
use super::data_region::{self, DataCall};
use super::error::Error;
use super::image_set::ImageSet;
use super::launch_plan::Launch;
use super::options::Options;
use super::{launch_v1, launch_v2, libomptarget};
use crate::ir::{calls, module_utils};

pub struct Plan<'ctx> {
    pub launches: Vec<Launch<'ctx>>,
    pub data_calls: Vec<DataCall<'ctx>>,
}

impl Plan<'_> {
    pub fn is_empty(&self) -> bool {
        self.launches.is_empty() && self.data_calls.is_empty()
    }
}

/// Every launch and data-region call of `module`, planned; the first
/// problem found is the error.
pub fn plan<'ctx>(
    module: &Module<'ctx>,
    images: &ImageSet,
    options: &Options,
) -> Result<Plan<'ctx>, Error> {
    let layout = crate::ir::types::target_data(module);
    let mut plan = Plan {
        launches: Vec::new(),
        data_calls: Vec::new(),
    };
    let mut classifier = Classifier::new(module, &layout, images, options);
    for (caller, call) in calls::all_calls(module) {
        match classifier.classify(caller, call)? {
            CallKind::Ordinary => {}
            CallKind::DataRegion { callee, op } => {
                plan.data_calls
                    .push(data_region::plan::plan(caller, call, callee, op)?);
            }
            CallKind::V1 {
                site,
                metadata,
                global,
            } => {
                plan.launches
                    .push(launch_v1::plan::plan(&site, options, metadata, global)?);
            }
            CallKind::V2 { site } => plan.launches.push(launch_v2::plan::plan(&site)?),
        }
    }
    if !plan.is_empty() {
        check_runtime_declarations(module)?;
        check_openmp_flag(module)?;
    }
    Ok(plan)
}

/// Runtime functions the pass declares; an existing declaration with another
/// type is an error (found before anything changes).
fn check_runtime_declarations(module: &Module<'_>) -> Result<(), Error> {
    let types = libomptarget::Types::new(module.get_context());
    for (name, ty) in types.runtime_functions() {
        if let Some(existing) = module.get_function(name) {
            if existing.get_type() != ty {
                return Err(Error::RuntimeDeclaration {
                    name: name.to_owned(),
                    found: crate::ir::Type::from(existing.get_type()).text(),
                    expected: crate::ir::Type::from(ty).text(),
                });
            }
        } else if module.get_global(name).is_some() {
            return Err(Error::RuntimeGlobal {
                name: name.to_owned(),
            });
        }
    }
    Ok(())
}

/// The `!"openmp"` module flag the pass adds is `Max` 51, as clang's. An
/// existing flag is kept when it links with that (behavior Max), an error
/// otherwise.
fn check_openmp_flag(module: &Module<'_>) -> Result<(), Error> {
    match module_utils::module_flag(module, "openmp") {
        None | Some((Some(libomptarget::MODULE_FLAG_MAX), Some(_))) => Ok(()),
        Some((behavior, value)) => Err(Error::OpenMpFlag { behavior, value }),
    }
}
