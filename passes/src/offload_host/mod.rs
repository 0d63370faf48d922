//! `offload-host<image=PATH>`: turns kernel calls in a host module into
//! libomptarget launches of the kernels in a linked device image, and
//! registers that image with the runtime.
//!
//! # Input: the launch contract
//! The image at `PATH` is an ELF64 device image — an x86_64 shared object
//! (libomptarget's host plugin), an AMDGPU code object or an NVPTX cubin —
//! bare or inside one `OffloadBinary` (see [`image`]).
//!
//! **A launch** is a `call` of an external function *declaration* `@K` where
//! `K` is a kernel of the image, or that carries `!offload.launch`, or for
//! which the module defines a launch descriptor `@__offload_launch.K`. The
//! call's arguments are the kernel's arguments. The last two forms must name a
//! kernel of the image, else the pass fails listing the image's kernels.
//!
//! **Launch descriptor**: `i64` words (any integer width in metadata), the
//! same in both carriers — call metadata `!offload.launch !{...}` (per call,
//! wins) or a constant global `@__offload_launch.K` (every launch of `K`; the
//! form Rust source can write). Its bytes are read in the data layout's byte
//! order, so rustc's `[N x i8]` lowering of a `[u64; N]` static works.
//! ```text
//! [0]      1               layout version
//! [1..4]   teams x, y, z   NumTeams     (0: the pass default; y, z default 1)
//! [4..7]   threads x, y, z ThreadLimit  (0: the pass default; y, z default 1)
//! [7]      bytes           DynCGroupMem (dynamic shared memory)
//! [8]      A               argument triples that follow: 0 (infer all) or
//!                          exactly the call's argument count
//! [9+3i..] MAP SIZE LEN    argument i: MAP = MapType bits (TO 1, FROM 2,
//!                          LITERAL 0x100, IMPLICIT 0x200; 0 = infer);
//!                          SIZE = bytes mapped, or the element size when LEN
//!                          is set (0 = infer); LEN = 1 + index of the integer
//!                          argument holding the element count (0 = none):
//!                          size = len * SIZE at run time (a slice).
//! ```
//! **Inferred map types** (MAP = 0), rustc's rules: a pointer is TO when
//! `readonly`, FROM when `writeonly`, else TO|FROM, on the call or the
//! declaration; its size is `dereferenceable(N)` (or `_or_null`). A `byval(T)`
//! pointer or a first-class aggregate/vector (a struct by value) is copied to
//! the host stack if needed and mapped TO with `sizeof(T)`: the kernel
//! receives a device pointer to the struct. Integers (≤ 64 bits) and floats
//! are LITERAL|IMPLICIT, passed in the base-pointer slot as their value (or
//! bit pattern) zero-extended to i64. A pointer without a known size is an
//! error. Per launch three MapType arrays follow rustc: begin =
//! `m & (TO|LITERAL|IMPLICIT)`, kernel = `(m & (LITERAL|IMPLICIT)) | TARGET_PARAM`,
//! end = `m & FROM`.
//!
//! A front end can follow this hand-written example (`@scale` is in the image):
//! ```llvm
//! @__offload_launch.scale = constant [15 x i64] [i64 1, i64 4, i64 1, i64 1,
//!     i64 64, i64 1, i64 1, i64 0, i64 2,
//!     i64 3, i64 4, i64 2,      ; %p: TO|FROM, 4-byte elements, count in argument 1
//!     i64 0, i64 0, i64 0]      ; %n: inferred (a literal)
//! declare void @scale(ptr, i64)
//! ...
//!   call void @scale(ptr %p, i64 %n)                        ; global descriptor
//!   call void @scale(ptr %p, i64 %n), !offload.launch !0    ; per-call override
//! !0 = !{i64 1, i64 8, i64 1, i64 1, i64 128, i64 1, i64 1, i64 0, i64 2,
//!        i64 3, i64 4, i64 2, i64 0, i64 0, i64 0}  ; wins whole: repeat the arguments
//! ```
//! In Rust: `#[unsafe(export_name = "__offload_launch.scale")] pub static D:
//! [u64; 15] = [1, 4, 1, 1, 64, 1, 1, 0, 2, 3, 4, 2, 0, 0, 0];` and
//! `unsafe extern "C" { fn scale(p: *mut f32, n: usize); }`, compiled with
//! `-Ccodegen-units=1` (descriptor and calls in one module). Rust source
//! should give MAP and SIZE for every pointer: rustc marks references
//! `readonly`/`dereferenceable(N)` only when optimizing, and raw pointers never.
//!
//! **Result**: a launch returns `void`, or `i32` when the call's result is
//! used — it is then the runtime's return code (0 = launched). An unused
//! result is checked by `@__offload_launch_check(i32 rc, ptr name)`, emitted
//! into the module: on non-zero it prints `offload: kernel 'K' launch failed
//! (code N)` to stderr and aborts.
//!
//! **Data regions**: `declare void @__offload_data_begin(ptr, i64 size, i64 maptype)`,
//! `@__offload_data_end(...)` and `@__offload_data_update(...)` (same
//! parameters) lower to `__tgt_target_data_{begin,end,update}_mapper` with
//! one-element arrays; `maptype` is as in OpenMP `target data map(...)`
//! (TO 1, FROM 2; update: TO = host to device, FROM = device to host). Launches
//! inside a region find their pointers present (libomptarget counts references)
//! and copy nothing; the end copies back what FROM asks for.
//!
//! # Output
//! Per launched kernel an `OffloadEntry` (`@.K.region_id` key, name in
//! `.llvm.rodata.offloading`) in one internal array in `llvm_offload_entries`
//! that the `DeviceImage` and `BinDesc` point at (begin/end pointers, not
//! `__start_`/`__stop_`, so other objects' entries never mix in); the ELF bytes
//! in `.llvm.offloading`, as 64-bit words where the byte order allows (LLVM's
//! bitcode writer spends a record element per array element); a priority-101
//! constructor calling
//! `__tgt_register_lib` and `atexit(unregister)`; `!"openmp"` module flag 51.
//! Each launch becomes: entry-block allocas, `__tgt_target_data_begin_mapper`,
//! `KernelArgs` version 3, `__tgt_target_kernel(null, device, teams.x,
//! threads.x, region_id, args)`, `__tgt_target_data_end_mapper`, check.
//!
//! # Guarantees
//! Everything (image, kernels, descriptors, arguments, declarations) is checked
//! before the module changes; an error leaves it untouched. A module without
//! launches or data-region calls is not changed at all (`Ok(false)`).
//!
//! # Structure
//! [`contract`] (map types, descriptors), [`image`] (reading the image),
//! [`plan`] (every launch found and checked before anything changes),
//! [`libomptarget`] (the runtime's types and functions), [`registration`]
//! (embedding and registering the image), [`lower`] (the launch sequence).
//!
//! # Running
//! `opt-22 -load-pass-plugin=liboffload_passes.so -passes='offload-host<image=k.so;teams=1;threads=1;device=-1>'`;
//! parameters `teams`/`threads` (default 0: the runtime chooses) and `device`
//! (default -1: the default device) are optional.

mod contract;
mod error;
pub mod image;
mod libomptarget;
mod lower;
mod plan;
mod registration;

pub use contract::{ArgSpec, DescriptorProblem, LaunchDescriptor, map_type};
pub use error::{ArgProblem, DataCallProblem, Error, LaunchProblem};

use std::path::PathBuf;

use inkwell::module::Module;

use self::image::DeviceImage;
use self::libomptarget::{MODULE_FLAG_MAX, OPENMP_VERSION, Types};
use self::lower::Lowering;
use crate::ir::module_utils;
use crate::params::{self, Key, ParamError};
use crate::{Diagnostics, ModulePass};

const KEYS: &[Key] = &[Key::once("image"), Key::once("teams"), Key::once("threads"), Key::once("device")];

/// The pass, with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub image: PathBuf,
    /// Default NumTeams / ThreadLimit in x (0: the runtime chooses).
    pub teams: u32,
    pub threads: u32,
    /// libomptarget device number (-1: the default device).
    pub device: i64,
}

/// `offload-host<image=PATH;teams=N;threads=N;device=N>`.
pub struct OffloadHost {
    options: Options,
}

impl ModulePass for OffloadHost {
    const NAME: &'static str = "offload-host";
    const CLASS_NAME: &'static str = "OffloadHostPass";
    type Error = Error;

    fn parse(text: &[u8]) -> Result<Self, ParamError> {
        let mut options = Options {
            image: PathBuf::new(),
            teams: 0,
            threads: 0,
            device: -1,
        };
        for param in params::parse(text, KEYS)? {
            match param.key {
                "image" => options.image = param.path()?,
                "teams" => options.teams = param.number()?,
                "threads" => options.threads = param.number()?,
                _ => {
                    options.device = param.number()?;
                    if options.device < -1 {
                        return Err(param.invalid(format!(
                            "{} is not a device number (-1 or more)",
                            options.device
                        )));
                    }
                }
            }
        }
        if options.image.as_os_str().is_empty() {
            return Err(ParamError::Required {
                usage: "the device image: 'offload-host<image=PATH>'",
            });
        }
        Ok(OffloadHost { options })
    }

    fn run(&self, module: &Module<'_>, _: &mut Diagnostics) -> Result<bool, Error> {
        let image = DeviceImage::load(&self.options.image).map_err(Error::Image)?;
        let plan = plan::plan(module, &image, &self.options)?;
        if plan.is_empty() {
            return Ok(false);
        }
        emit(module, &image, &self.options, &plan).map_err(|e| Error::Internal { what: e.to_string() })?;
        Ok(true)
    }
}

fn emit<'ctx>(
    module: &Module<'ctx>,
    image: &DeviceImage,
    options: &Options,
    plan: &plan::Plan<'ctx>,
) -> Result<(), inkwell::builder::BuilderError> {
    let types = Types::new(module.get_context());
    let registration = registration::emit(module, &types, image, &plan.kernels)?;
    let lowering = Lowering {
        module,
        types: &types,
        device: options.device,
    };
    let check = if plan.launches.iter().any(|l| !l.returns_code) {
        Some(lowering.emit_launch_check()?)
    } else {
        None
    };
    for launch in &plan.launches {
        lowering.lower_launch(&registration, check, launch)?;
    }
    for data in &plan.data_calls {
        lowering.lower_data_call(data)?;
    }
    // An existing flag links with this one (checked when planning).
    if module_utils::module_flag(module, "openmp").is_none() {
        module_utils::add_module_flag(module, MODULE_FLAG_MAX as u32, "openmp", OPENMP_VERSION);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
