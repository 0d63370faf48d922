//! `offload-host<image=PATH>`: turns kernel launches in a host module into
//! libomptarget launches of the kernels in a linked device image, and
//! embeds and registers that image with the runtime.
//! `offload-host<image=A;image=B;...>` does so for several images, one per
//! target, registered together so that libomptarget runs the one that fits
//! the device it finds ([`image_set`]).
//!
//! # Input: the launch contract (`docs/launch-contract.md`)
//! The image at `PATH` is an ELF64 device image — an x86_64 shared object
//! (libomptarget's host plugin), an AMDGPU code object or an NVPTX cubin —
//! or nvptx64 LLVM bitcode (the CUDA plugin compiles it when it loads it),
//! bare or inside one `OffloadBinary` ([`image`]).
//!
//! **Several images** ([`image_set`]): each read and validated as one is;
//! at most one per target (machine and architecture); every image must
//! describe the same launchable kernels alike (parameter count, kinds,
//! slots, sizes), an error naming the kernel, both images and the
//! difference otherwise. Launches are checked once, against those common
//! manifests.
//!
//! **Which kernels.** A kernel is launched only when the image says what it
//! takes: its kernel manifest (written by `offload-wrap-kernels`, format in
//! [`crate::kernel_manifest`]), or for an AMDGPU OpenMP kernel from clang
//! without one (it has a `<K>_kernel_environment`) its `.amdhsa.kernels`
//! kernarg layout; a kernel of any other image only when
//! `foreign=K1:K2` names it (then unchecked). A call of another function of
//! the image is never lowered (logged at debug level); it is an error when
//! the call is marked as a launch.
//!
//! **Each call is one kind** ([`classify`], once per call): an ordinary
//! call (left alone), a data-region call, a v1 launch or a v2 launch; each
//! kind has its own planner and lowering.
//!
//! **v1 launch** ([`launch_v1`]): a `call` of an external declaration `@K`
//! (a launchable kernel), or one carrying `!offload.launch`, or with a
//! module-level descriptor `@__offload_launch.K` (descriptor words, map-type
//! inference from attributes). The call's arguments are the kernel's.
//!
//! **v2 launch** ([`launch_v2`]): `call @"__offload_launch2.K"(ptr
//! %descriptor, ptr %config, args...)`: the descriptor is a constant global
//! of the same module (words: version 2, image digest, per argument MAP and
//! SIZE); the config (`LaunchConfig`: teams, threads, dynamic shared memory,
//! device, per-argument sizes) is read at run time. A descriptor whose
//! digest is not the images' (`images_digest` of all image files in
//! parameter order; for one image, its digest) is an error: the host was
//! compiled against other images. A launch without the image's digest (v1, or digest 0) is
//! a warning: a build reusing compiled host code would keep its old image.
//!
//! **Checks** ([`check`]): every launch's argument count and kinds (pointer,
//! integer width, float kind, by-value aggregate size; a mapped size smaller
//! than a by-value size) against the manifest or kernarg metadata, naming the
//! kernel, the caller, the argument and both types.
//!
//! **Result**: a launch returns `void`, or `i32` when the call's result is
//! used — it is then the runtime's return code (0 = launched; a v2 launch
//! also returns -2 for a bad config, -3 for a size known nowhere, -7 when
//! the runtime has no device (no device here takes any of the images),
//! -100 for a device out of range, -4 for a null pointer with a size, -5 for
//! a size of 2^63 or more and -6 for an argument of 64 MiB or more that is
//! not present and that the device cannot allocate, where libomptarget
//! would abort or crash). An
//! unused result is checked by `@__offload_launch_check(i32 rc, ptr name)`:
//! on non-zero it prints `offload: kernel 'K' launch failed (code N)` to
//! stderr and aborts.
//!
//! **Data regions** ([`data_region`]): `@__offload_data_begin/update/end(ptr,
//! i64 size, i64 maptype)` lower to
//! `__tgt_target_data_{begin,update,end}_mapper`.
//!
//! # Output
//! The registration ([`registration`]): each image as a whole OffloadBinary
//! in `.offload_passes.image`, entries for every kernel all images hold,
//! one `__tgt_device_image` per image in one `__tgt_bin_desc`, and a
//! constructor, all `linkonce_odr hidden` in one comdat keyed by the
//! images' digest, so any number of modules (codegen units, crates) built
//! against the same images link to one copy registered once. Each
//! launch becomes clang's one-call form ([`kernel_launch`]): argument arrays
//! and one `__tgt_target_kernel` whose `KernelArgs` (version 3) carry the map
//! types; v2 launches go through the module's `__offload_run_launch2`
//! ([`launch_v2::run_launch2`]); an unused result through
//! `__offload_launch_check` ([`launch_check`]). `!"openmp"` module flag 51.
//!
//! # Guarantees
//! Everything (image, manifests, descriptors, arguments, declarations) is
//! checked before the module changes; an error leaves it untouched. A module
//! without launches or data-region calls is not changed at all (`Ok(false)`).
//!
//! # Structure
//! [`options`] (the parameters), [`classify`] (what each call is) and
//! [`plan`] (one planner per kind, everything checked before anything
//! changes, each launch a [`launch_plan::Launch`]); per kind its module
//! with its contract, planning, lowering and tests: [`launch_v1`],
//! [`launch_v2`], [`data_region`]; shared by the launch forms:
//! [`descriptor`] (map types, what can be wrong with a descriptor, reading
//! a descriptor global; the words' codec is `offload_contract::descriptor`),
//! [`site`] (the checks of every launch call), [`arguments`] (how each
//! argument is passed), [`check`] (against the image's manifest or kernarg
//! metadata), [`kernel_args`] (the argument arrays, `KernelArgs` and the
//! lowering's state), [`kernel_launch`] (one launch lowered),
//! [`launch_check`]; [`image`] (reading an image and what it says about its
//! kernels), [`image_set`] (the images of one program, checked together),
//! [`libomptarget`] (the runtime's types and
//! functions), [`registration`] (embedding and registering the images).
//!
//! # Running
//! `opt-22 -load-pass-plugin=liboffload_passes.so -passes='offload-host<image=k.so;teams=1;threads=1;device=-1;foreign=k1:k2>'`;
//! `image` may repeat (`image=k.so;image=k.gfx90a.co`: registration order
//! is parameter order); `teams`/`threads` (v1 defaults for x; 0: the runtime chooses), `device`
//! (v1; default -1: the default device) and `foreign` are optional.
//! `arch=sm_NN` (or `sm_NNa`) names the NVIDIA GPU the program is for: a
//! cubin that cannot run there (another major version, a higher minor one,
//! another SM for an `a` cubin) is an error, and so is `arch` with no image
//! for an NVIDIA GPU (with several images it applies to the NVIDIA ones);
//! bitcode is compiled for the GPU found at run time.

// Raw LLVM calls and other `unsafe` code live under `crate::ir`.
#![forbid(unsafe_code)]

mod arguments;
mod check;
mod classify;
mod data_region;
mod descriptor;
mod error;
pub mod image;
mod image_set;
mod kernel_args;
mod kernel_launch;
mod launch_check;
mod launch_plan;
mod launch_v1;
mod launch_v2;
mod libomptarget;
mod options;
mod plan;
mod registration;
mod site;

pub use error::Error;
pub use options::Options;

use inkwell::module::Module;

use self::image_set::ImageSet;
use self::kernel_args::{EmittedFunctions, Lowering};
use self::libomptarget::{MODULE_FLAG_MAX, OPENMP_VERSION, Types};
use crate::ir::module_utils;
use crate::params::ParamError;
use crate::{Diagnostics, ModulePass};

/// `offload-host<image=PATH;...;teams=N;threads=N;device=N;foreign=K;arch=sm_NN>`.
pub struct OffloadHost {
    options: Options,
}

impl ModulePass for OffloadHost {
    const NAME: &'static str = "offload-host";
    const CLASS_NAME: &'static str = "OffloadHostPass";
    type Error = Error;

    fn parse(text: &[u8]) -> Result<Self, ParamError> {
        Ok(OffloadHost {
            options: Options::parse(text)?,
        })
    }

    fn run(&self, module: &Module<'_>, diagnostics: &mut Diagnostics) -> Result<bool, Error> {
        let options = &self.options;
        let images = ImageSet::load(&options.images, options.arch, &options.foreign)?;
        let plan = plan::plan(module, &images, options)?;
        if plan.is_empty() {
            return Ok(false);
        }
        for launch in &plan.launches {
            if let Some(warning) = launch.untied_warning(&images.label()) {
                diagnostics.warn(warning);
            }
        }
        emit(module, &images, options, &plan).map_err(|e| Error::Internal {
            what: e.to_string(),
        })?;
        Ok(true)
    }
}

/// Rewrites the module by the plan: the registration, the functions the
/// launches call, each launch and data-region call, the `!"openmp"` flag.
fn emit<'ctx>(
    module: &Module<'ctx>,
    images: &ImageSet,
    options: &Options,
    plan: &plan::Plan<'ctx>,
) -> Result<(), inkwell::builder::BuilderError> {
    let types = Types::new(module.get_context());
    let registration = registration::emit(module, &types, images)?;
    let mut functions = EmittedFunctions::default();
    if plan.launches.iter().any(|l| !l.returns_code) {
        functions.launch_check = Some(launch_check::emit(module, &types)?);
    }
    if plan
        .launches
        .iter()
        .any(|l| l.grid == launch_plan::Grid::Config)
    {
        functions.run_launch2 = Some(launch_v2::run_launch2::emit(module, &types)?);
    }
    let lowering = Lowering {
        module,
        types: &types,
        device: options.device,
        functions,
    };
    for launch in &plan.launches {
        lowering.lower_launch(&registration, launch)?;
    }
    for data in &plan.data_calls {
        data_region::lower::lower(&lowering, data)?;
    }
    // An existing flag links with this one (checked when planning).
    if module_utils::module_flag(module, "openmp").is_none() {
        module_utils::add_module_flag(module, MODULE_FLAG_MAX as u32, "openmp", OPENMP_VERSION);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
