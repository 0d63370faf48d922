//! Sorting each call of the module, once, into what it is to this pass: an
//! ordinary call, a data-region call, a v1 launch or a v2 launch; and which
//! kernels a launch may name (those the image says what they take).

use std::collections::HashMap;

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::{FunctionValue, InstructionValue};

use super::check::Signature;
use super::data_region::DataOp;
use super::descriptor::DescriptorProblem;
use super::error::{Error, LaunchProblem};
use super::image_set::ImageSet;
use super::launch_v1::{self, LaunchDescriptor};
use super::launch_v2::LAUNCH2_PREFIX;
use super::options::Options;
use super::site::Site;
use crate::ir::{Value, calls, naming};

/// What one call is, with what its planner needs.
pub enum CallKind<'a, 'ctx> {
    /// Not this pass's business: left as it is.
    Ordinary,
    /// `@__offload_data_begin/update/end(ptr, i64, i64)`.
    DataRegion {
        callee: FunctionValue<'ctx>,
        op: DataOp,
    },
    /// `call @K(args...)` of a kernel the image offers, with its descriptor
    /// words when the call carries `!offload.launch` (`metadata`) or the
    /// module has `@__offload_launch.K` (`global`).
    V1 {
        site: Site<'a, 'ctx>,
        metadata: Option<Result<Vec<u64>, DescriptorProblem>>,
        global: Option<LaunchDescriptor>,
    },
    /// `call @"__offload_launch2.K"(ptr %descriptor, ptr %config, args...)`.
    V2 { site: Site<'a, 'ctx> },
}

/// Classifies the calls of one module against its images; reads each
/// callee's `@__offload_launch.K` and whether its address is taken once.
pub struct Classifier<'a, 'ctx> {
    module: &'a Module<'ctx>,
    layout: &'a TargetData,
    images: &'a ImageSet,
    options: &'a Options,
    descriptors: HashMap<String, Option<Result<LaunchDescriptor, DescriptorProblem>>>,
    /// Whether a callee is used other than as a callee (its users are every
    /// launch site, so once per callee).
    address_taken: HashMap<FunctionValue<'ctx>, bool>,
}

impl<'a, 'ctx> Classifier<'a, 'ctx> {
    pub fn new(
        module: &'a Module<'ctx>,
        layout: &'a TargetData,
        images: &'a ImageSet,
        options: &'a Options,
    ) -> Classifier<'a, 'ctx> {
        Classifier {
            module,
            layout,
            images,
            options,
            descriptors: HashMap::new(),
            address_taken: HashMap::new(),
        }
    }

    /// What `call` (in `caller`) is. A call marked as a launch of a kernel
    /// the image does not offer is an error, and so is an indirect call
    /// marked as a launch.
    pub fn classify(
        &mut self,
        caller: FunctionValue<'ctx>,
        call: InstructionValue<'ctx>,
    ) -> Result<CallKind<'a, 'ctx>, Error> {
        let metadata = launch_v1::call_metadata(self.module, call);
        let Some(callee) = calls::called_function(Value::from(call)).and_then(Value::as_function)
        else {
            if metadata.is_some() {
                return Err(Error::Launch {
                    kernel: "<indirect>".into(),
                    caller: naming::name_of(caller),
                    problem: LaunchProblem::Indirect,
                });
            }
            return Ok(CallKind::Ordinary);
        };
        let name = naming::symbol(callee);
        if let Some(op) = DataOp::from_name(&name) {
            return Ok(CallKind::DataRegion { callee, op });
        }
        if let Some(kernel) = name.strip_prefix(LAUNCH2_PREFIX) {
            let signature = self
                .signature_of(kernel)?
                .ok_or_else(|| not_launchable(self.images, kernel, caller))?;
            let site = self.site(caller, call, callee, kernel, signature);
            return Ok(CallKind::V2 { site });
        }
        self.classify_v1(caller, call, callee, &name, metadata)
    }

    /// A call of `name`: a v1 launch when the image offers kernel `name` and
    /// the call is marked as a launch or calls a declaration; an ordinary
    /// call otherwise (a defined function of a kernel's name, any function
    /// the image does not offer), unless marked.
    fn classify_v1(
        &mut self,
        caller: FunctionValue<'ctx>,
        call: InstructionValue<'ctx>,
        callee: FunctionValue<'ctx>,
        name: &str,
        metadata: Option<Result<Vec<u64>, DescriptorProblem>>,
    ) -> Result<CallKind<'a, 'ctx>, Error> {
        let (module, layout) = (self.module, self.layout);
        let descriptor = self
            .descriptors
            .entry(name.to_owned())
            .or_insert_with(|| launch_v1::global_descriptor(module, name, layout))
            .clone();
        let marked = metadata.is_some() || descriptor.is_some();
        let declaration = callee.count_basic_blocks() == 0;
        let signature = match self.signature_of(name)? {
            Some(signature) if marked || declaration => signature,
            Some(_) => return Ok(CallKind::Ordinary),
            None if marked => return Err(not_launchable(self.images, name, caller)),
            None => {
                if declaration && self.images.first().has_kernel(name) {
                    log::debug!(
                        "offload-host: call of '{}' in '{}' is not lowered: the image exports it, but it is not a kernel its manifest lists (nor foreign=)",
                        naming::display_symbol(name),
                        naming::name_of(caller)
                    );
                }
                return Ok(CallKind::Ordinary);
            }
        };
        let global = descriptor
            .transpose()
            .map_err(|problem| Error::Descriptor {
                symbol: format!("{}{name}", launch_v1::DESCRIPTOR_PREFIX),
                problem,
            })?;
        let site = self.site(caller, call, callee, name, signature);
        Ok(CallKind::V1 {
            site,
            metadata,
            global,
        })
    }

    fn site(
        &mut self,
        caller: FunctionValue<'ctx>,
        call: InstructionValue<'ctx>,
        callee: FunctionValue<'ctx>,
        kernel: &str,
        signature: Signature<'a>,
    ) -> Site<'a, 'ctx> {
        let address_taken = *self.address_taken.entry(callee).or_insert_with(|| {
            let f = Value::from(callee);
            f.users()
                .into_iter()
                .any(|user| calls::called_value(user) != Some(f))
        });
        Site {
            layout: self.layout,
            call,
            caller,
            callee,
            kernel: kernel.to_owned(),
            signature,
            images: self.images,
            address_taken,
        }
    }

    /// What the images say about kernel `name` (the first image's
    /// description, which is every image's: [`ImageSet`]); `None` when it is
    /// not a kernel this pass may launch (not in the manifest, not
    /// `foreign=`, no AMDGPU kernarg metadata). A manifest kernel missing
    /// from the symbols of any image is an error.
    fn signature_of(&self, name: &str) -> Result<Option<Signature<'a>>, Error> {
        let image = self.images.first();
        if let Some(manifest) = image.manifests.get(name) {
            self.images
                .check_kernel(name)
                .map_err(Error::MissingKernel)?;
            return Ok(Some(Signature::Manifest(manifest)));
        }
        if self.options.foreign.iter().any(|f| f == name) {
            return Ok(Some(Signature::Foreign));
        }
        let amdgpu = image.amdgpu.as_ref().and_then(|m| m.kernels.get(name));
        Ok(amdgpu
            .filter(|_| image.has_kernel(name))
            .map(Signature::Amdgpu))
    }
}

/// The error for a call that must be a launch of `name` (it carries a
/// descriptor, or is a v2 call) when the images do not offer it.
fn not_launchable(images: &ImageSet, name: &str, caller: FunctionValue<'_>) -> Error {
    if let Err(missing) = images.check_kernel(name) {
        return Error::MissingKernel(missing);
    }
    let image = images.first();
    Error::Launch {
        kernel: naming::display_symbol(name),
        caller: naming::name_of(caller),
        problem: LaunchProblem::NotInManifest {
            image: image.path.clone(),
            listed: image
                .manifests
                .keys()
                .map(|k| naming::display_symbol(k))
                .collect(),
        },
    }
}
