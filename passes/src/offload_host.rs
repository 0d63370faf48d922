//! `offload-host<image=PATH>`: turns kernel calls in a host module into
//! libomptarget launches of the kernels in a linked device image, and
//! registers that image with the runtime.
//!
//! # Input: the launch contract
//! The image at `PATH` is an ELF64 device image — an x86_64 shared object
//! (libomptarget's host plugin), an AMDGPU code object or an NVPTX cubin —
//! bare or inside one `OffloadBinary` (see [`crate::offload_image`]).
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
//! # Running
//! `opt-22 -load-pass-plugin=liboffload_passes.so -passes='offload-host<image=k.so;teams=1;threads=1;device=-1>'`;
//! parameters `teams`/`threads` (default 0: the runtime chooses) and `device`
//! (default -1: the default device) are optional.

use std::collections::HashMap;

use inkwell::builder::{Builder, BuilderError};
use inkwell::context::ContextRef;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetData;
use inkwell::types::{AnyType, AnyTypeEnum, BasicType, BasicTypeEnum, FunctionType, StructType};
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, GlobalValue,
    InstructionValue, IntValue, PointerValue,
};
use inkwell::{AddressSpace, IntPredicate};

use crate::ir;
use crate::offload_image::DeviceImage;
use crate::params;

pub const PASS_NAME: &str = "offload-host";

const ACCEPTED: &[&str] = &["image", "teams", "threads", "device"];

/// The pass parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub image: String,
    /// Default NumTeams / ThreadLimit in x (0: the runtime chooses).
    pub teams: u32,
    pub threads: u32,
    /// libomptarget device number (-1: the default device).
    pub device: i64,
}

pub fn parse_options(text: &str) -> Result<Options, String> {
    let mut options = Options {
        image: String::new(),
        teams: 0,
        threads: 0,
        device: -1,
    };
    for param in params::parse(text, ACCEPTED)? {
        match param.key {
            "image" => options.image = params::value(&param)?.to_owned(),
            "teams" => options.teams = params::number(&param)?,
            "threads" => options.threads = params::number(&param)?,
            _ => options.device = params::number(&param)?,
        }
    }
    if options.image.is_empty() {
        return Err("needs the device image: 'offload-host<image=PATH>'".into());
    }
    if options.device < -1 {
        return Err(format!(
            "parameter 'device': {} is not a device number (-1 or more)",
            options.device
        ));
    }
    Ok(options)
}

pub fn check_params(params: &str) -> Result<(), String> {
    parse_options(params).map(drop)
}

pub fn run(module: &Module<'_>, params: &str) -> Result<bool, String> {
    let options = parse_options(params)?;
    let image = DeviceImage::load(&options.image)?;
    let plan = plan(module, &image, &options)?;
    if plan.launches.is_empty() && plan.data_calls.is_empty() {
        return Ok(false);
    }
    emit(module, &image, &options, &plan).map_err(|e| format!("internal error: {e}"))?;
    Ok(true)
}

/// libomptarget's map-type bits and rustc's three per-launch arrays.
pub mod map_type {
    pub const TO: u64 = 0x1;
    pub const FROM: u64 = 0x2;
    pub const TARGET_PARAM: u64 = 0x20;
    pub const LITERAL: u64 = 0x100;
    pub const IMPLICIT: u64 = 0x200;

    /// What a descriptor's MAP may contain.
    pub const ACCEPTED: u64 = TO | FROM | LITERAL | IMPLICIT;

    /// For `__tgt_target_data_begin_mapper`: copy in, literals pass through.
    pub fn begin(m: u64) -> u64 {
        m & (TO | LITERAL | IMPLICIT)
    }

    /// For the kernel launch: every argument is a kernel parameter.
    pub fn kernel(m: u64) -> u64 {
        (m & (LITERAL | IMPLICIT)) | TARGET_PARAM
    }

    /// For `__tgt_target_data_end_mapper`: copy out.
    pub fn end(m: u64) -> u64 {
        m & FROM
    }

    /// A pointer argument's map type from its parameter attributes.
    pub fn for_pointer(readonly: bool, writeonly: bool) -> u64 {
        match (readonly, writeonly) {
            (true, _) => TO,
            (false, true) => FROM,
            (false, false) => TO | FROM,
        }
    }
}

// ---------------------------------------------------------------------------
// The launch descriptor.

/// Name prefix of the launch-descriptor globals (`@__offload_launch.K`).
pub const DESCRIPTOR_PREFIX: &str = "__offload_launch.";
/// Call metadata holding a launch descriptor.
pub const LAUNCH_METADATA: &str = "offload.launch";
/// The descriptor layout version this pass reads.
pub const DESCRIPTOR_VERSION: u64 = 1;
const HEADER_WORDS: usize = 9;

/// A parsed launch descriptor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaunchDescriptor {
    pub teams: [u32; 3],
    pub threads: [u32; 3],
    pub dyn_cgroup_mem: u32,
    /// Empty: infer every argument.
    pub args: Vec<ArgSpec>,
}

/// One argument's triple (zeros: infer).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArgSpec {
    pub map: u64,
    pub size: u64,
    /// Index of the argument holding the element count.
    pub len_arg: Option<u32>,
}

impl LaunchDescriptor {
    pub fn from_words(words: &[u64]) -> Result<LaunchDescriptor, String> {
        if words.len() < HEADER_WORDS {
            return Err(format!(
                "has {} words; at least {HEADER_WORDS} are needed (version, teams x3, threads x3, dynamic memory, argument count)",
                words.len()
            ));
        }
        if words[0] != DESCRIPTOR_VERSION {
            return Err(format!(
                "has layout version {}; version {DESCRIPTOR_VERSION} is supported",
                words[0]
            ));
        }
        let small = |i: usize, what: &str| {
            u32::try_from(words[i])
                .map_err(|_| format!("{what} {} does not fit in 32 bits", words[i]))
        };
        let mut descriptor = LaunchDescriptor {
            teams: [small(1, "teams")?, small(2, "teams")?, small(3, "teams")?],
            threads: [
                small(4, "threads")?,
                small(5, "threads")?,
                small(6, "threads")?,
            ],
            dyn_cgroup_mem: small(7, "dynamic memory")?,
            args: Vec::new(),
        };
        let count = words[8];
        let expected = (count as u128) * 3 + HEADER_WORDS as u128;
        if expected != words.len() as u128 {
            return Err(format!(
                "declares {count} argument triples, so {expected} words, but has {}",
                words.len()
            ));
        }
        for (i, triple) in words[HEADER_WORDS..].chunks_exact(3).enumerate() {
            descriptor.args.push(ArgSpec::from_triple(i, triple)?);
        }
        Ok(descriptor)
    }
}

impl ArgSpec {
    fn from_triple(i: usize, triple: &[u64]) -> Result<ArgSpec, String> {
        let (map, size, len) = (triple[0], triple[1], triple[2]);
        if map & !map_type::ACCEPTED != 0 {
            return Err(format!(
                "argument {i}: map type {map:#x} has bits other than TO, FROM, LITERAL, IMPLICIT"
            ));
        }
        if map & map_type::LITERAL != 0 && map & (map_type::TO | map_type::FROM) != 0 {
            return Err(format!(
                "argument {i}: map type {map:#x} is both LITERAL and mapped (TO/FROM)"
            ));
        }
        let len_arg = match len {
            0 => None,
            n => Some(
                u32::try_from(n - 1)
                    .map_err(|_| format!("argument {i}: length index {len} is out of range"))?,
            ),
        };
        Ok(ArgSpec { map, size, len_arg })
    }
}

// ---------------------------------------------------------------------------
// Planning: find and validate everything before the module changes.

/// How one argument is passed.
#[derive(Debug, Clone, Copy)]
enum ArgPlan<'ctx> {
    /// By value in the base-pointer slot (LITERAL|IMPLICIT or as given).
    Literal {
        value: BasicValueEnum<'ctx>,
        map: u64,
        size: u64,
    },
    /// A pointer to mapped memory.
    Mapped {
        pointer: PointerValue<'ctx>,
        map: u64,
        size: Size<'ctx>,
    },
    /// A first-class aggregate: spilled to an entry-block alloca, mapped TO.
    Spilled {
        value: BasicValueEnum<'ctx>,
        size: u64,
    },
}

#[derive(Debug, Clone, Copy)]
enum Size<'ctx> {
    Bytes(u64),
    /// `len * element` with `len` from integer argument `len_arg`.
    Elements {
        len: IntValue<'ctx>,
        len_arg: u32,
        element: u64,
    },
}

impl<'ctx> ArgPlan<'ctx> {
    /// This plan with its values taken again from the call's current
    /// arguments `now` (`value` is its own). Lowering a launch replaces its
    /// call, whose result a later launch may take as an argument or a length,
    /// so values kept from planning can name an erased instruction.
    fn rebind(self, value: BasicValueEnum<'ctx>, now: &[BasicValueEnum<'ctx>]) -> ArgPlan<'ctx> {
        match self {
            ArgPlan::Literal { map, size, .. } => ArgPlan::Literal { value, map, size },
            ArgPlan::Spilled { size, .. } => ArgPlan::Spilled { value, size },
            ArgPlan::Mapped { map, size, .. } => ArgPlan::Mapped {
                pointer: value.into_pointer_value(),
                map,
                size: match size {
                    Size::Elements {
                        len_arg, element, ..
                    } => Size::Elements {
                        len: now[len_arg as usize].into_int_value(),
                        len_arg,
                        element,
                    },
                    bytes => bytes,
                },
            },
        }
    }
}

impl<'ctx> ArgPlan<'ctx> {
    fn map(&self) -> u64 {
        match *self {
            ArgPlan::Literal { map, .. } | ArgPlan::Mapped { map, .. } => map,
            ArgPlan::Spilled { .. } => map_type::TO,
        }
    }

    fn constant_size(&self) -> Option<u64> {
        match *self {
            ArgPlan::Literal { size, .. } | ArgPlan::Spilled { size, .. } => Some(size),
            ArgPlan::Mapped {
                size: Size::Bytes(n),
                ..
            } => Some(n),
            ArgPlan::Mapped {
                size: Size::Elements { .. },
                ..
            } => None,
        }
    }
}

/// One launch site, fully resolved.
struct Launch<'ctx> {
    call: InstructionValue<'ctx>,
    caller: FunctionValue<'ctx>,
    kernel: String,
    teams: [u32; 3],
    threads: [u32; 3],
    dyn_cgroup_mem: u32,
    args: Vec<ArgPlan<'ctx>>,
    /// True when the call's i32 result is used: it receives the return code.
    returns_code: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum DataOp {
    Begin,
    End,
    Update,
}

impl DataOp {
    fn from_name(name: &str) -> Option<DataOp> {
        match name {
            "__offload_data_begin" => Some(DataOp::Begin),
            "__offload_data_end" => Some(DataOp::End),
            "__offload_data_update" => Some(DataOp::Update),
            _ => None,
        }
    }

    fn mapper(self) -> &'static str {
        match self {
            DataOp::Begin => "__tgt_target_data_begin_mapper",
            DataOp::End => "__tgt_target_data_end_mapper",
            DataOp::Update => "__tgt_target_data_update_mapper",
        }
    }
}

/// One explicit data-region call; its (pointer, size, map type) arguments
/// are read when it is lowered (a launch's result may be the size, and
/// launches are lowered first, replacing their calls).
struct DataCall<'ctx> {
    call: InstructionValue<'ctx>,
    caller: FunctionValue<'ctx>,
    op: DataOp,
}

struct Plan<'ctx> {
    launches: Vec<Launch<'ctx>>,
    data_calls: Vec<DataCall<'ctx>>,
    /// Launched kernels in order of first launch.
    kernels: Vec<String>,
}

fn plan<'ctx>(
    module: &Module<'ctx>,
    image: &DeviceImage,
    options: &Options,
) -> Result<Plan<'ctx>, String> {
    let layout = ir::target_data(module);
    let md_kind = ir::md_kind(module, LAUNCH_METADATA);
    let mut plan = Plan {
        launches: Vec::new(),
        data_calls: Vec::new(),
        kernels: Vec::new(),
    };
    let mut global_descriptors: HashMap<String, Option<LaunchDescriptor>> = HashMap::new();
    for (caller, call, callee) in ir::direct_calls(module) {
        let name = ir::name_of(callee);
        if let Some(op) = DataOp::from_name(&name) {
            plan.data_calls
                .push(plan_data_call(caller, call, callee, op)?);
            continue;
        }
        let metadata = call_metadata(module, call, md_kind);
        if !global_descriptors.contains_key(&name) {
            let descriptor = global_descriptor(module, &name, &layout)?;
            global_descriptors.insert(name.clone(), descriptor);
        }
        let global = &global_descriptors[&name];
        let marked = metadata.is_some() || global.is_some();
        let implicit = image.has_kernel(&name) && callee.count_basic_blocks() == 0;
        if !(marked || implicit) {
            continue; // an ordinary call
        }
        let site = || format!("launch of '{name}' in function '{}'", ir::name_of(caller));
        if callee.count_basic_blocks() > 0 {
            return Err(format!(
                "{}: '{name}' has a body; a launch calls an external declaration",
                site()
            ));
        }
        image.check_kernel(&name)?;
        if ir::is_invoke(call) {
            return Err(format!(
                "{}: an invoke; launches must be plain calls (kernels do not unwind)",
                site()
            ));
        }
        let descriptor = match metadata {
            Some(words) => LaunchDescriptor::from_words(&words?)
                .map_err(|e| format!("{}: !{LAUNCH_METADATA} {e}", site()))?,
            None => global.clone().unwrap_or_default(),
        };
        let site_info = CallSite {
            layout: &layout,
            call,
            callee,
            arguments: ir::call_arguments(call).map_err(|e| format!("{}: {e}", site()))?,
        };
        let launch = plan_launch(module, options, caller, &site_info, &descriptor)
            .map_err(|e| format!("{}: {e}", site()))?;
        if !plan.kernels.contains(&name) {
            plan.kernels.push(name);
        }
        plan.launches.push(launch);
    }
    if plan.launches.is_empty() && plan.data_calls.is_empty() {
        return Ok(plan);
    }
    check_runtime_declarations(module)?;
    Ok(plan)
}

/// The words of the call's `!offload.launch`, if it has one.
fn call_metadata(
    module: &Module<'_>,
    call: InstructionValue<'_>,
    kind: u32,
) -> Option<Result<Vec<u64>, String>> {
    let node = call.get_metadata(kind)?;
    // SAFETY: the attachment is a live MDNode of the module's context.
    let node = unsafe { llvm_sys::core::LLVMValueAsMetadata(node.as_value_ref()) };
    let words = ir::md_integers(module, node)
        .into_iter()
        .enumerate()
        .map(|(i, word)| {
            word.ok_or_else(|| format!("!{LAUNCH_METADATA} operand {i} is not a constant integer"))
        })
        .collect();
    Some(words)
}

/// The descriptor global for kernel `name`, if the module has one.
fn global_descriptor(
    module: &Module<'_>,
    name: &str,
    layout: &TargetData,
) -> Result<Option<LaunchDescriptor>, String> {
    let symbol = format!("{DESCRIPTOR_PREFIX}{name}");
    let Some(global) = module.get_global(&symbol) else {
        return Ok(None);
    };
    let what = format!("launch descriptor @\"{symbol}\"");
    let Some(init) = global.get_initializer() else {
        return Err(format!(
            "{what} has no initializer here (defined in another codegen unit? use -Ccodegen-units=1)"
        ));
    };
    let bytes =
        ir::constant_bytes(init.as_value_ref(), layout).map_err(|e| format!("{what} {e}"))?;
    if bytes.len() % 8 != 0 {
        return Err(format!(
            "{what} is {} bytes, not a whole number of 64-bit words",
            bytes.len()
        ));
    }
    let little = matches!(
        layout.get_byte_ordering(),
        inkwell::targets::ByteOrdering::LittleEndian
    );
    let words: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|c| {
            let c: [u8; 8] = c.try_into().expect("8-byte chunk");
            if little {
                u64::from_le_bytes(c)
            } else {
                u64::from_be_bytes(c)
            }
        })
        .collect();
    LaunchDescriptor::from_words(&words)
        .map(Some)
        .map_err(|e| format!("{what} {e}"))
}

/// A launch call with what argument planning looks at.
struct CallSite<'a, 'ctx> {
    layout: &'a TargetData,
    call: InstructionValue<'ctx>,
    callee: FunctionValue<'ctx>,
    arguments: Vec<BasicValueEnum<'ctx>>,
}

impl CallSite<'_, '_> {
    /// True when attribute `name` is on argument `index` (call or declaration).
    fn has_attr(&self, index: u32, name: &str) -> bool {
        ir::call_param_attr(self.call.as_value_ref(), index, name).is_some()
    }
}

fn plan_launch<'ctx>(
    module: &Module<'ctx>,
    options: &Options,
    caller: FunctionValue<'ctx>,
    site: &CallSite<'_, 'ctx>,
    descriptor: &LaunchDescriptor,
) -> Result<Launch<'ctx>, String> {
    let (call, callee, arguments) = (site.call, site.callee, &site.arguments);
    if !descriptor.args.is_empty() && descriptor.args.len() != arguments.len() {
        return Err(format!(
            "the launch descriptor describes {} arguments, the call passes {}",
            descriptor.args.len(),
            arguments.len()
        ));
    }
    let args = arguments
        .iter()
        .enumerate()
        .map(|(i, &value)| {
            let spec = descriptor.args.get(i).copied().unwrap_or_default();
            plan_argument(site, i as u32, value, spec).map_err(|e| format!("argument {i}: {e}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let returns_code = call_result_is_used(call);
    if returns_code {
        let ty = call.get_type();
        if ty != module.get_context().i32_type().as_any_type_enum() {
            return Err(format!(
                "its result of type {} is used; a launch returns void or i32 (the runtime's return code)",
                ir::type_text(ty)
            ));
        }
    }
    let default = |given: u32, default: u32| if given == 0 { default } else { given };
    let dims = |given: [u32; 3], x: u32| {
        [
            default(given[0], x),
            default(given[1], 1),
            default(given[2], 1),
        ]
    };
    Ok(Launch {
        call,
        caller,
        kernel: ir::name_of(callee),
        teams: dims(descriptor.teams, options.teams),
        threads: dims(descriptor.threads, options.threads),
        dyn_cgroup_mem: descriptor.dyn_cgroup_mem,
        args,
        returns_code,
    })
}

fn call_result_is_used(call: InstructionValue<'_>) -> bool {
    call.get_first_use().is_some()
}

/// How argument `index` (`value`) is passed, from its descriptor triple
/// `spec` or else its type and attributes.
fn plan_argument<'ctx>(
    site: &CallSite<'_, 'ctx>,
    index: u32,
    value: BasicValueEnum<'ctx>,
    spec: ArgSpec,
) -> Result<ArgPlan<'ctx>, String> {
    let layout = site.layout;
    let ty = value.get_type();
    let store_size = layout.get_store_size(&ty);
    match value {
        BasicValueEnum::PointerValue(pointer) => {
            if pointer.get_type().get_address_space() != AddressSpace::default() {
                return Err("a pointer outside address space 0".into());
            }
            if spec.map & map_type::LITERAL != 0 {
                return Ok(ArgPlan::Literal {
                    value,
                    map: spec.map,
                    size: store_size,
                });
            }
            let byval = ir::call_param_type_attr(site.call, index, "byval");
            let map = match (spec.map, byval) {
                (0, Some(_)) => map_type::TO, // a struct by value: a copy
                (0, None) => map_type::for_pointer(
                    site.has_attr(index, "readonly"),
                    site.has_attr(index, "writeonly"),
                ),
                (given, _) => given,
            };
            let size = pointer_size(site, index, spec, byval)?;
            Ok(ArgPlan::Mapped { pointer, map, size })
        }
        BasicValueEnum::IntValue(int) => {
            if int.get_type().get_bit_width() > 64 {
                return Err(format!(
                    "an integer of {} bits; at most 64 fit a slot",
                    int.get_type().get_bit_width()
                ));
            }
            literal(value, spec, store_size)
        }
        BasicValueEnum::FloatValue(float) => {
            let bits = layout.get_bit_size(&float.get_type());
            if !matches!(bits, 16 | 32 | 64) {
                return Err(format!(
                    "a {} float; only half, float and double fit a slot",
                    ir::type_text(ty)
                ));
            }
            literal(value, spec, store_size)
        }
        BasicValueEnum::StructValue(_)
        | BasicValueEnum::ArrayValue(_)
        | BasicValueEnum::VectorValue(_) => {
            if spec.map & !map_type::TO != 0 {
                return Err(format!(
                    "an aggregate passed by value is mapped TO (a copy); map type {:#x} is not possible",
                    spec.map
                ));
            }
            Ok(ArgPlan::Spilled {
                value,
                size: layout.get_abi_size(&ty),
            })
        }
        BasicValueEnum::ScalableVectorValue(_) => Err("a scalable vector".into()),
    }
}

fn literal<'ctx>(
    value: BasicValueEnum<'ctx>,
    spec: ArgSpec,
    size: u64,
) -> Result<ArgPlan<'ctx>, String> {
    if spec.map & (map_type::TO | map_type::FROM) != 0 {
        return Err(format!(
            "a scalar cannot be mapped TO/FROM (map type {:#x}); scalars are LITERAL",
            spec.map
        ));
    }
    if spec.len_arg.is_some() {
        return Err("a scalar has no length argument".into());
    }
    // Without LITERAL the runtime reads the value's bits as a host address.
    if spec.map != 0 && spec.map & map_type::LITERAL == 0 {
        return Err(format!(
            "a scalar must be LITERAL (0x100); map type {:#x} would make the runtime treat its value as a host address",
            spec.map
        ));
    }
    let map = if spec.map == 0 {
        map_type::LITERAL | map_type::IMPLICIT
    } else {
        spec.map
    };
    Ok(ArgPlan::Literal { value, map, size })
}

/// The bytes a pointer argument maps: the descriptor's SIZE (times the
/// length argument for a slice), else `byval(T)`'s size, else
/// `dereferenceable(N)`; unknown is an error rather than a silent 0.
fn pointer_size<'ctx>(
    site: &CallSite<'_, 'ctx>,
    index: u32,
    spec: ArgSpec,
    byval: Option<AnyTypeEnum<'ctx>>,
) -> Result<Size<'ctx>, String> {
    if let Some(len_index) = spec.len_arg {
        if spec.size == 0 {
            return Err("a length argument needs the element size in SIZE".into());
        }
        let Some(BasicValueEnum::IntValue(len)) = site.arguments.get(len_index as usize) else {
            return Err(format!(
                "its length argument {len_index} is not an integer argument of the call"
            ));
        };
        if len.get_type().get_bit_width() > 64 {
            return Err(format!(
                "its length argument {len_index} is wider than 64 bits"
            ));
        }
        return Ok(Size::Elements {
            len: *len,
            len_arg: len_index,
            element: spec.size,
        });
    }
    if spec.size != 0 {
        return Ok(Size::Bytes(spec.size));
    }
    if let Some(ty) = byval {
        let ty =
            BasicTypeEnum::try_from(ty).map_err(|()| "byval of a non-sized type".to_owned())?;
        return Ok(Size::Bytes(site.layout.get_abi_size(&ty)));
    }
    ["dereferenceable", "dereferenceable_or_null"]
        .iter()
        .find_map(|attr| ir::call_param_attr(site.call.as_value_ref(), index, attr))
        .map(Size::Bytes)
        .ok_or_else(|| {
            "a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in the launch descriptor".to_owned()
        })
}

fn plan_data_call<'ctx>(
    caller: FunctionValue<'ctx>,
    call: InstructionValue<'ctx>,
    callee: FunctionValue<'ctx>,
    op: DataOp,
) -> Result<DataCall<'ctx>, String> {
    let name = ir::name_of(callee);
    let site = format!("call of '{name}' in function '{}'", ir::name_of(caller));
    if callee.count_basic_blocks() > 0 {
        return Err(format!(
            "{site}: '{name}' is reserved for data regions and must be a declaration"
        ));
    }
    if ir::is_invoke(call) {
        return Err(format!(
            "{site}: an invoke; data-region calls must be plain calls"
        ));
    }
    let shape = format!("{site}: expected ({name} ptr, i64 size, i64 maptype) returning void");
    let args = ir::call_arguments(call).map_err(|e| format!("{site}: {e}"))?;
    match (args.as_slice(), call_result_is_used(call)) {
        (
            [
                BasicValueEnum::PointerValue(_),
                BasicValueEnum::IntValue(size),
                BasicValueEnum::IntValue(map),
            ],
            false,
        ) if size.get_type().get_bit_width() <= 64 && map.get_type().get_bit_width() <= 64 => {
            Ok(DataCall { call, caller, op })
        }
        _ => Err(shape),
    }
}

/// Runtime functions the pass declares; an existing declaration with another
/// type is an error (found before anything changes).
fn check_runtime_declarations(module: &Module<'_>) -> Result<(), String> {
    let abi = Abi::types(module.get_context());
    for (name, ty) in abi.runtime_signatures() {
        if let Some(existing) = module.get_function(name) {
            if existing.get_type() != ty {
                return Err(format!(
                    "the module declares '{name}' as {}, expected {}",
                    ir::type_text(existing.get_type()),
                    ir::type_text(ty)
                ));
            }
        } else if module.get_global(name).is_some() {
            return Err(format!(
                "the module has a global named '{name}', a runtime function"
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Emission. Nothing here can fail on input; errors are internal (builder).

/// libomptarget's types, as clang and rustc spell them.
struct Abi<'ctx> {
    context: ContextRef<'ctx>,
    /// `%struct.__tgt_offload_entry` (OffloadEntry).
    entry: StructType<'ctx>,
    /// `%__tgt_device_image` (DeviceImage).
    device_image: StructType<'ctx>,
    /// `%__tgt_bin_desc` (BinDesc).
    bin_desc: StructType<'ctx>,
    /// `%struct.__tgt_kernel_arguments` (KernelArgs, version 3).
    kernel_args: StructType<'ctx>,
}

/// `KernelArgs` version emitted (3 passes the dyn pointer to the kernel).
const KERNEL_ARGS_VERSION: u64 = 3;
/// Constructor priority clang uses for offload registration.
const REGISTRATION_PRIORITY: u32 = 101;
/// OffloadEntry kind: OpenMP.
const OFFLOAD_KIND_OPENMP: u64 = 1;
/// Name of the emitted launch-result check.
pub const LAUNCH_CHECK: &str = "__offload_launch_check";

impl<'ctx> Abi<'ctx> {
    fn types(context: ContextRef<'ctx>) -> Abi<'ctx> {
        let ptr = context
            .ptr_type(AddressSpace::default())
            .as_basic_type_enum();
        let (i16, i32, i64) = (
            context.i16_type().as_basic_type_enum(),
            context.i32_type().as_basic_type_enum(),
            context.i64_type().as_basic_type_enum(),
        );
        let dims = context.i32_type().array_type(3).as_basic_type_enum();
        Abi {
            context,
            entry: ir::named_struct(
                context,
                "struct.__tgt_offload_entry",
                &[i64, i16, i16, i32, ptr, ptr, i64, i64, ptr],
            ),
            device_image: ir::named_struct(context, "__tgt_device_image", &[ptr, ptr, ptr, ptr]),
            bin_desc: ir::named_struct(context, "__tgt_bin_desc", &[i32, ptr, ptr, ptr]),
            kernel_args: ir::named_struct(
                context,
                "struct.__tgt_kernel_arguments",
                &[
                    i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, dims, dims, i32,
                ],
            ),
        }
    }

    fn ptr(&self) -> inkwell::types::PointerType<'ctx> {
        self.context.ptr_type(AddressSpace::default())
    }

    fn runtime_signatures(&self) -> Vec<(&'static str, FunctionType<'ctx>)> {
        let c = self.context;
        let (ptr, i32, i64, void) = (
            self.ptr().into(),
            c.i32_type().into(),
            c.i64_type().into(),
            c.void_type(),
        );
        let mapper = void.fn_type(&[ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr], false);
        vec![
            ("__tgt_target_data_begin_mapper", mapper),
            ("__tgt_target_data_end_mapper", mapper),
            ("__tgt_target_data_update_mapper", mapper),
            (
                "__tgt_target_kernel",
                c.i32_type().fn_type(&[ptr, i64, i32, i32, ptr, ptr], false),
            ),
            ("__tgt_register_lib", void.fn_type(&[ptr], false)),
            ("__tgt_unregister_lib", void.fn_type(&[ptr], false)),
            ("atexit", c.i32_type().fn_type(&[ptr], false)),
            ("fprintf", c.i32_type().fn_type(&[ptr, ptr], true)),
            ("abort", void.fn_type(&[], false)),
        ]
    }
}

/// Declares (or finds) runtime function `name`.
fn runtime<'ctx>(module: &Module<'ctx>, abi: &Abi<'ctx>, name: &str) -> FunctionValue<'ctx> {
    module.get_function(name).unwrap_or_else(|| {
        let ty = abi
            .runtime_signatures()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, ty)| ty)
            .expect("a known runtime function");
        module.add_function(name, ty, Some(Linkage::External))
    })
}

fn emit<'ctx>(
    module: &Module<'ctx>,
    image: &DeviceImage,
    options: &Options,
    plan: &Plan<'ctx>,
) -> Result<(), BuilderError> {
    let abi = Abi::types(module.get_context());
    let registration = emit_registration(module, &abi, image, &plan.kernels)?;
    let check = if plan.launches.iter().any(|l| !l.returns_code) {
        Some(emit_launch_check(module, &abi)?)
    } else {
        None
    };
    for launch in &plan.launches {
        lower_launch(module, &abi, options, &registration, check, launch)?;
    }
    for data in &plan.data_calls {
        lower_data_call(module, &abi, options, data)?;
    }
    if module.get_flag("openmp").is_none() {
        ir::add_module_flag(module, 7, "openmp", 51); // 7 = Max, as clang
    }
    Ok(())
}

/// What launches need from the registration: per kernel its region id
/// (the host-side key) and name string.
struct Registration<'ctx> {
    kernels: HashMap<String, (GlobalValue<'ctx>, GlobalValue<'ctx>)>,
}

fn private_constant<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    value: impl BasicValue<'ctx>,
    linkage: Linkage,
) -> GlobalValue<'ctx> {
    let value = value.as_basic_value_enum();
    let global = module.add_global(value.get_type(), None, name);
    global.set_initializer(&value);
    global.set_constant(true);
    global.set_linkage(linkage);
    global
}

fn emit_registration<'ctx>(
    module: &Module<'ctx>,
    abi: &Abi<'ctx>,
    image: &DeviceImage,
    kernels: &[String],
) -> Result<Registration<'ctx>, BuilderError> {
    let c = abi.context;
    let (i16, i32, i64) = (c.i16_type(), c.i32_type(), c.i64_type());
    let null = abi.ptr().const_null();
    let mut registration = Registration {
        kernels: HashMap::new(),
    };
    let mut entries = Vec::new();
    for kernel in kernels {
        let region_id = private_constant(
            module,
            &format!(".{kernel}.region_id"),
            c.i8_type().const_zero(),
            Linkage::WeakAny,
        );
        let name = private_constant(
            module,
            &format!(".offloading.entry_name.{kernel}"),
            c.const_string(kernel.as_bytes(), true),
            Linkage::Internal,
        );
        name.set_unnamed_address(inkwell::values::UnnamedAddress::Global);
        name.set_section(Some(".llvm.rodata.offloading"));
        name.set_alignment(1);
        entries.push(abi.entry.const_named_struct(&[
            i64.const_zero().into(),                          // Reserved
            i16.const_int(1, false).into(),                   // Version
            i16.const_int(OFFLOAD_KIND_OPENMP, false).into(), // Kind
            i32.const_zero().into(),                          // Flags: a kernel
            region_id.as_pointer_value().into(),              // Address
            name.as_pointer_value().into(),                   // SymbolName
            i64.const_zero().into(),                          // Size
            i64.const_zero().into(),                          // Data
            null.into(),                                      // AuxAddr
        ]));
        registration
            .kernels
            .insert(kernel.clone(), (region_id, name));
    }
    let entries_array = private_constant(
        module,
        ".offloading.entries",
        abi.entry.const_array(&entries),
        Linkage::Internal,
    );
    entries_array.set_section(Some("llvm_offload_entries"));
    entries_array.set_alignment(8);
    let entries_ty = abi.entry.array_type(entries.len() as u32);
    let entries_begin = entries_array.as_pointer_value();
    // SAFETY: one past the end of the array, a valid constant GEP.
    let entries_end = unsafe { entries_begin.const_gep(entries_ty, &[i64.const_int(1, false)]) };

    // The image bytes straight into one ConstantDataArray (no per-byte
    // values), as 64-bit words where that keeps the bytes: LLVM's bitcode
    // writer spends a record element per array element, so `[N x i64]`
    // takes an eighth of the memory and time of `[8N x i8]`.
    let elf = image.elf();
    let bytes = private_constant(
        module,
        ".omp_offloading.device_image",
        ir::const_byte_array(module, elf),
        Linkage::Internal,
    );
    bytes.set_unnamed_address(inkwell::values::UnnamedAddress::Global);
    bytes.set_section(Some(".llvm.offloading"));
    bytes.set_alignment(8);
    let bytes_begin = bytes.as_pointer_value();
    // SAFETY: one past the last byte.
    let bytes_end =
        unsafe { bytes_begin.const_gep(c.i8_type(), &[i64.const_int(elf.len() as u64, false)]) };
    let device_image = abi.device_image.const_named_struct(&[
        bytes_begin.into(),
        bytes_end.into(),
        entries_begin.into(),
        entries_end.into(),
    ]);
    let images = private_constant(
        module,
        ".omp_offloading.device_images",
        abi.device_image.const_array(&[device_image]),
        Linkage::Internal,
    );
    images.set_unnamed_address(inkwell::values::UnnamedAddress::Global);
    let descriptor = private_constant(
        module,
        ".omp_offloading.descriptor",
        abi.bin_desc.const_named_struct(&[
            i32.const_int(1, false).into(),
            images.as_pointer_value().into(),
            entries_begin.into(),
            entries_end.into(),
        ]),
        Linkage::Internal,
    );
    ir::append_compiler_used(module, &[entries_array]);
    emit_constructor(module, abi, descriptor)?;
    Ok(registration)
}

/// `.omp_offloading.descriptor_reg`: register, and unregister at exit.
fn emit_constructor<'ctx>(
    module: &Module<'ctx>,
    abi: &Abi<'ctx>,
    descriptor: GlobalValue<'ctx>,
) -> Result<(), BuilderError> {
    let descriptor = descriptor.as_pointer_value().into();
    let unregister = emit_runtime_caller(
        module,
        abi,
        ".omp_offloading.descriptor_unreg",
        &[("__tgt_unregister_lib", descriptor)],
    )?;
    let unregister = unregister.as_global_value().as_pointer_value().into();
    let register = emit_runtime_caller(
        module,
        abi,
        ".omp_offloading.descriptor_reg",
        &[("__tgt_register_lib", descriptor), ("atexit", unregister)],
    )?;
    ir::append_global_ctor(module, register, REGISTRATION_PRIORITY);
    Ok(())
}

/// An internal `void()` function `name` that makes the given runtime calls,
/// each with one argument, in order.
fn emit_runtime_caller<'ctx>(
    module: &Module<'ctx>,
    abi: &Abi<'ctx>,
    name: &str,
    calls: &[(&str, BasicMetadataValueEnum<'ctx>)],
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = abi.context;
    let function = module.add_function(
        name,
        c.void_type().fn_type(&[], false),
        Some(Linkage::Internal),
    );
    let builder = c.create_builder();
    builder.position_at_end(c.append_basic_block(function, "entry"));
    for (callee, argument) in calls {
        builder.build_call(runtime(module, abi, callee), &[*argument], "")?;
    }
    builder.build_return(None)?;
    Ok(function)
}

/// `internal void @__offload_launch_check(i32 %rc, ptr %kernel)`: aborts
/// with `offload: kernel 'K' launch failed (code N)` when `rc` is not 0.
fn emit_launch_check<'ctx>(
    module: &Module<'ctx>,
    abi: &Abi<'ctx>,
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = abi.context;
    let ty = c
        .void_type()
        .fn_type(&[c.i32_type().into(), abi.ptr().into()], false);
    let check = module.add_function(LAUNCH_CHECK, ty, Some(Linkage::Internal));
    let (entry, fail, ok) = (
        c.append_basic_block(check, "entry"),
        c.append_basic_block(check, "fail"),
        c.append_basic_block(check, "ok"),
    );
    let rc = check.get_nth_param(0).expect("rc").into_int_value();
    let kernel = check.get_nth_param(1).expect("kernel");
    ir::set_value_name(rc, "rc");
    ir::set_value_name(kernel, "kernel");
    let builder = c.create_builder();
    builder.position_at_end(entry);
    let failed =
        builder.build_int_compare(IntPredicate::NE, rc, c.i32_type().const_zero(), "failed")?;
    builder.build_conditional_branch(failed, fail, ok)?;

    builder.position_at_end(fail);
    let stderr = match module.get_global("stderr") {
        Some(g) => g,
        None => {
            let g = module.add_global(abi.ptr(), None, "stderr");
            g.set_linkage(Linkage::External);
            g
        }
    };
    let stream = builder.build_load(abi.ptr(), stderr.as_pointer_value(), "stderr")?;
    let format = private_constant(
        module,
        ".offload.launch_failed",
        c.const_string(b"offload: kernel '%s' launch failed (code %d)\n", true),
        Linkage::Private,
    );
    format.set_unnamed_address(inkwell::values::UnnamedAddress::Global);
    builder.build_call(
        runtime(module, abi, "fprintf"),
        &[
            stream.into(),
            format.as_pointer_value().into(),
            kernel.into(),
            rc.into(),
        ],
        "",
    )?;
    builder.build_call(runtime(module, abi, "abort"), &[], "")?;
    builder.build_unreachable()?;

    builder.position_at_end(ok);
    builder.build_return(None)?;
    Ok(check)
}

/// Replaces one launch call with the mapper/kernel sequence.
fn lower_launch<'ctx>(
    module: &Module<'ctx>,
    abi: &Abi<'ctx>,
    options: &Options,
    registration: &Registration<'ctx>,
    check: Option<FunctionValue<'ctx>>,
    launch: &Launch<'ctx>,
) -> Result<(), BuilderError> {
    let c = abi.context;
    let (i32, i64, ptr) = (c.i32_type(), c.i64_type(), abi.ptr());
    // The call's arguments now: an earlier launch may have replaced one.
    let operands = ir::call_arguments(launch.call).expect("argument types checked when planning");
    let args: Vec<ArgPlan<'ctx>> = launch
        .args
        .iter()
        .zip(&operands)
        .map(|(arg, &value)| arg.rebind(value, &operands))
        .collect();
    let n = args.len() as u32;
    let kernel = &launch.kernel;
    let (region_id, name) = registration.kernels[kernel];
    let null = ptr.const_null();

    // Allocas first, in the entry block.
    let entry = ir::entry_builder(launch.caller);
    let arrays = if n > 0 {
        let runtime_sizes = args.iter().any(|a| a.constant_size().is_none());
        Some((
            entry.build_alloca(ptr.array_type(n), ".offload_baseptrs")?,
            entry.build_alloca(ptr.array_type(n), ".offload_ptrs")?,
            if runtime_sizes {
                Some(entry.build_alloca(i64.array_type(n), ".offload_sizes")?)
            } else {
                None
            },
        ))
    } else {
        None
    };
    let spills = launch
        .args
        .iter()
        .map(|arg| match arg {
            ArgPlan::Spilled { value, .. } => entry
                .build_alloca(value.get_type(), ".offload_byval")
                .map(Some),
            _ => Ok(None),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let kernel_args = entry.build_alloca(abi.kernel_args, "kernel_args")?;

    let builder = c.create_builder();
    builder.position_before(&launch.call);
    let device = i64.const_int(options.device as u64, true);
    let mut arg_arrays = [null, null, null, null]; // base pointers, pointers, sizes, kernel map types
    let mut mapper_args = None;
    if let Some((baseptrs, ptrs, sizes_alloca)) = arrays {
        for (i, arg) in args.iter().enumerate() {
            let slot = store_argument(&builder, abi, arg, spills[i])?;
            let index = [i64.const_zero(), i64.const_int(i as u64, false)];
            // SAFETY: `i < n`, inside the [n x ptr] / [n x i64] arrays.
            unsafe {
                builder.build_store(
                    builder.build_in_bounds_gep(ptr.array_type(n), baseptrs, &index, "")?,
                    slot,
                )?;
                builder.build_store(
                    builder.build_in_bounds_gep(ptr.array_type(n), ptrs, &index, "")?,
                    slot,
                )?;
                if let Some(sizes) = sizes_alloca {
                    let size = argument_size(&builder, abi, arg)?;
                    builder.build_store(
                        builder.build_in_bounds_gep(i64.array_type(n), sizes, &index, "")?,
                        size,
                    )?;
                }
            }
        }
        let sizes = match sizes_alloca {
            Some(alloca) => alloca,
            None => {
                let constant = launch
                    .args
                    .iter()
                    .map(|a| i64.const_int(a.constant_size().unwrap_or(0), false));
                constant_array(
                    module,
                    &format!(".offload_sizes.{kernel}"),
                    i64.const_array(&constant.collect::<Vec<_>>()),
                )
            }
        };
        let maps = |suffix: &str, f: fn(u64) -> u64| {
            let values: Vec<_> = launch
                .args
                .iter()
                .map(|a| i64.const_int(f(a.map()), false))
                .collect();
            constant_array(
                module,
                &format!(".offload_maptypes.{kernel}{suffix}"),
                i64.const_array(&values),
            )
        };
        let (begin, kernel_maps, end) = (
            maps(".begin", map_type::begin),
            maps("", map_type::kernel),
            maps(".end", map_type::end),
        );
        arg_arrays = [baseptrs, ptrs, sizes, kernel_maps];
        mapper_args = Some((baseptrs, ptrs, sizes, begin, end));
        builder.build_call(
            runtime(module, abi, "__tgt_target_data_begin_mapper"),
            &[
                null.into(),
                device.into(),
                i32.const_int(n.into(), false).into(),
                baseptrs.into(),
                ptrs.into(),
                sizes.into(),
                begin.into(),
                null.into(),
                null.into(),
            ],
            "",
        )?;
    }

    // KernelArgs, field by field.
    let dims = |d: [u32; 3]| i32.const_array(&d.map(|x| i32.const_int(x.into(), false)));
    let fields: [BasicValueEnum<'ctx>; 13] = [
        i32.const_int(KERNEL_ARGS_VERSION, false).into(),
        i32.const_int(n.into(), false).into(),
        arg_arrays[0].into(),
        arg_arrays[1].into(),
        arg_arrays[2].into(),
        arg_arrays[3].into(),
        null.into(),             // ArgNames
        null.into(),             // ArgMappers
        i64.const_zero().into(), // Tripcount
        i64.const_zero().into(), // Flags
        dims(launch.teams).into(),
        dims(launch.threads).into(),
        i32.const_int(launch.dyn_cgroup_mem.into(), false).into(),
    ];
    for (i, value) in fields.iter().enumerate() {
        let field = builder.build_struct_gep(abi.kernel_args, kernel_args, i as u32, "")?;
        builder.build_store(field, *value)?;
    }
    let rc = builder
        .build_call(
            runtime(module, abi, "__tgt_target_kernel"),
            &[
                null.into(),
                device.into(),
                i32.const_int(launch.teams[0].into(), false).into(),
                i32.const_int(launch.threads[0].into(), false).into(),
                region_id.as_pointer_value().into(),
                kernel_args.into(),
            ],
            &format!("{kernel}.rc"),
        )?
        .try_as_basic_value()
        .basic()
        .expect("__tgt_target_kernel returns i32");
    if let Some((baseptrs, ptrs, sizes, _, end)) = mapper_args {
        builder.build_call(
            runtime(module, abi, "__tgt_target_data_end_mapper"),
            &[
                null.into(),
                device.into(),
                i32.const_int(n.into(), false).into(),
                baseptrs.into(),
                ptrs.into(),
                sizes.into(),
                end.into(),
                null.into(),
                null.into(),
            ],
            "",
        )?;
    }
    if launch.returns_code {
        ir::replace_all_uses(launch.call, rc);
    } else if let Some(check) = check {
        builder.build_call(check, &[rc.into(), name.as_pointer_value().into()], "")?;
    }
    launch.call.erase_from_basic_block();
    Ok(())
}

/// A private constant `[n x i64]` array; returns its address.
fn constant_array<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    value: inkwell::values::ArrayValue<'ctx>,
) -> PointerValue<'ctx> {
    let global = private_constant(module, name, value, Linkage::Private);
    global.set_unnamed_address(inkwell::values::UnnamedAddress::Global);
    global.as_pointer_value()
}

/// The base-pointer/pointer slot value of an argument.
fn store_argument<'ctx>(
    builder: &Builder<'ctx>,
    abi: &Abi<'ctx>,
    arg: &ArgPlan<'ctx>,
    spill: Option<PointerValue<'ctx>>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let i64 = abi.context.i64_type();
    Ok(match *arg {
        ArgPlan::Mapped { pointer, .. } => pointer.into(),
        ArgPlan::Spilled { value, .. } => {
            let spill = spill.expect("spilled arguments have an alloca");
            builder.build_store(spill, value)?;
            spill.into()
        }
        ArgPlan::Literal { value, .. } => {
            let bits = match value {
                BasicValueEnum::PointerValue(p) => return Ok(p.into()),
                BasicValueEnum::FloatValue(f) => {
                    let c = abi.context;
                    let ty = f.get_type().as_any_type_enum();
                    let int = if ty == c.f16_type().as_any_type_enum()
                        || ty == c.bf16_type().as_any_type_enum()
                    {
                        c.i16_type()
                    } else if ty == c.f32_type().as_any_type_enum() {
                        c.i32_type()
                    } else {
                        c.i64_type()
                    };
                    builder.build_bit_cast(f, int, "")?.into_int_value()
                }
                other => other.into_int_value(),
            };
            let wide = builder.build_int_z_extend_or_bit_cast(bits, i64, "")?;
            builder.build_int_to_ptr(wide, abi.ptr(), "")?.into()
        }
    })
}

/// The size an argument maps, as an i64 (computed for slices).
fn argument_size<'ctx>(
    builder: &Builder<'ctx>,
    abi: &Abi<'ctx>,
    arg: &ArgPlan<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let i64 = abi.context.i64_type();
    match *arg {
        ArgPlan::Mapped {
            size: Size::Elements { len, element, .. },
            ..
        } => {
            let len = builder.build_int_z_extend_or_bit_cast(len, i64, "")?;
            builder.build_int_mul(len, i64.const_int(element, false), "")
        }
        _ => Ok(i64.const_int(arg.constant_size().unwrap_or(0), false)),
    }
}

/// Lowers `__offload_data_{begin,end,update}(p, size, maptype)`.
fn lower_data_call<'ctx>(
    module: &Module<'ctx>,
    abi: &Abi<'ctx>,
    options: &Options,
    data: &DataCall<'ctx>,
) -> Result<(), BuilderError> {
    let c = abi.context;
    let (i32, i64, ptr) = (c.i32_type(), c.i64_type(), abi.ptr());
    let entry = ir::entry_builder(data.caller);
    let baseptrs = entry.build_alloca(ptr.array_type(1), ".offload_baseptrs")?;
    let ptrs = entry.build_alloca(ptr.array_type(1), ".offload_ptrs")?;
    let sizes = entry.build_alloca(i64.array_type(1), ".offload_sizes")?;
    let maps = entry.build_alloca(i64.array_type(1), ".offload_maptypes")?;
    let builder = c.create_builder();
    builder.position_before(&data.call);
    // Checked by plan_data_call: (ptr, iN, iN).
    let operands = ir::call_arguments(data.call).expect("argument types checked when planning");
    let (pointer, size, map) = (
        operands[0].into_pointer_value(),
        operands[1].into_int_value(),
        operands[2].into_int_value(),
    );
    builder.build_store(baseptrs, pointer)?;
    builder.build_store(ptrs, pointer)?;
    builder.build_store(
        sizes,
        builder.build_int_z_extend_or_bit_cast(size, i64, "")?,
    )?;
    builder.build_store(maps, builder.build_int_z_extend_or_bit_cast(map, i64, "")?)?;
    let null = ptr.const_null();
    builder.build_call(
        runtime(module, abi, data.op.mapper()),
        &[
            null.into(),
            i64.const_int(options.device as u64, true).into(),
            i32.const_int(1, false).into(),
            baseptrs.into(),
            ptrs.into(),
            sizes.into(),
            maps.into(),
            null.into(),
            null.into(),
        ],
        "",
    )?;
    data.call.erase_from_basic_block();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::map_type::*;
    use super::*;
    use crate::test_support::{build_image, parse, run_pass};

    const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-unknown-linux-gnu\"\n";

    /// An x86_64 image with kernels `k` and `other`, built once.
    fn image() -> String {
        static IMAGE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        IMAGE
            .get_or_init(|| {
                build_image(
                    "x86_64-unknown-linux-gnu",
                    "define void @k(ptr %d, ptr %a, i64 %n) { ret void }\ndefine void @other(ptr %d) { ret void }\n",
                    true,
                )
            })
            .clone()
    }

    fn host(body: &str) -> String {
        format!("{HEADER}{body}")
    }

    /// Runs the pass and returns the printed module (panics on error).
    fn lower(body: &str) -> String {
        let (changed, text) = run_pass(run, &format!("image={}", image()), &host(body)).unwrap();
        assert!(changed);
        text
    }

    /// Runs the pass expecting an error; checks the module is unchanged.
    fn fails(body: &str) -> String {
        let context = inkwell::context::Context::create();
        let module = parse(&context, &host(body));
        let before = module.print_to_string().to_string();
        let error = run(&module, &format!("image={}", image())).unwrap_err();
        assert_eq!(
            module.print_to_string().to_string(),
            before,
            "module changed on error"
        );
        error
    }

    #[test]
    fn rustc_map_type_rules() {
        assert_eq!(for_pointer(true, false), TO);
        assert_eq!(for_pointer(false, true), FROM);
        assert_eq!(for_pointer(false, false), TO | FROM);
        let literal = LITERAL | IMPLICIT;
        assert_eq!(
            (begin(literal), kernel(literal), end(literal)),
            (0x300, 0x320, 0)
        );
        assert_eq!(
            (begin(TO | FROM), kernel(TO | FROM), end(TO | FROM)),
            (1, 0x20, 2)
        );
        assert_eq!((begin(FROM), kernel(FROM), end(FROM)), (0, 0x20, 2));
        assert_eq!((begin(TO), kernel(TO), end(TO)), (1, 0x20, 0));
    }

    #[test]
    fn options_and_their_errors() {
        let o = parse_options("image=/x.so;teams=4;threads=64;device=0").unwrap();
        assert_eq!(
            (o.image.as_str(), o.teams, o.threads, o.device),
            ("/x.so", 4, 64, 0)
        );
        assert_eq!(parse_options("image=/x.so").unwrap().device, -1);
        assert_eq!(
            check_params("imag=x").unwrap_err(),
            "unknown parameter 'imag' (accepted: image, teams, threads, device)"
        );
        assert_eq!(
            check_params("").unwrap_err(),
            "needs the device image: 'offload-host<image=PATH>'"
        );
        assert!(check_params("image=a;teams=-1").is_err());
        assert!(check_params("image=a;device=-2").is_err());
    }

    #[test]
    fn descriptor_words() {
        let d = LaunchDescriptor::from_words(&[1, 4, 2, 1, 64, 1, 1, 128, 2, 3, 4, 2, 0, 0, 0])
            .unwrap();
        assert_eq!(
            (d.teams, d.threads, d.dyn_cgroup_mem),
            ([4, 2, 1], [64, 1, 1], 128)
        );
        assert_eq!(
            d.args[0],
            ArgSpec {
                map: 3,
                size: 4,
                len_arg: Some(1)
            }
        );
        assert_eq!(d.args[1], ArgSpec::default());
        let err = |w: &[u64]| LaunchDescriptor::from_words(w).unwrap_err();
        assert!(err(&[1, 0, 0]).starts_with("has 3 words; at least 9"));
        assert_eq!(
            err(&[2, 0, 0, 0, 0, 0, 0, 0, 0]),
            "has layout version 2; version 1 is supported"
        );
        assert_eq!(
            err(&[1, 0, 0, 0, 0, 0, 0, 0, 1]),
            "declares 1 argument triples, so 12 words, but has 9"
        );
        assert_eq!(
            err(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 0x80, 0, 0]),
            "argument 0: map type 0x80 has bits other than TO, FROM, LITERAL, IMPLICIT"
        );
        assert_eq!(
            err(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 0x101, 0, 0]),
            "argument 0: map type 0x101 is both LITERAL and mapped (TO/FROM)"
        );
        assert_eq!(
            err(&[1, 1 << 40, 0, 0, 0, 0, 0, 0, 0]),
            "teams 1099511627776 does not fit in 32 bits"
        );
    }

    #[test]
    fn inferred_map_types_follow_attributes() {
        let ir = lower(
            r#"
%S = type { i32, double }
declare void @k(ptr readonly dereferenceable(8), ptr writeonly dereferenceable(16), ptr dereferenceable(4), i32, float, double, ptr byval(%S), %S)
define void @f(ptr %a, ptr %b, ptr %c, ptr %s, %S %v) {
  call void @k(ptr %a, ptr %b, ptr %c, i32 7, float 1.0, double 2.0, ptr %s, %S %v)
  ret void
}
"#,
        );
        assert!(ir.contains("@.offload_sizes.k = private unnamed_addr constant [8 x i64] [i64 8, i64 16, i64 4, i64 4, i64 4, i64 8, i64 16, i64 16]"), "{ir}");
        assert!(ir.contains("@.offload_maptypes.k.begin = private unnamed_addr constant [8 x i64] [i64 1, i64 0, i64 1, i64 768, i64 768, i64 768, i64 1, i64 1]"), "{ir}");
        assert!(ir.contains("@.offload_maptypes.k = private unnamed_addr constant [8 x i64] [i64 32, i64 32, i64 32, i64 800, i64 800, i64 800, i64 32, i64 32]"), "{ir}");
        assert!(ir.contains("@.offload_maptypes.k.end = private unnamed_addr constant [8 x i64] [i64 0, i64 2, i64 2, i64 0, i64 0, i64 0, i64 0, i64 0]"), "{ir}");
        // Scalars as their bit patterns, zero-extended.
        assert!(ir.contains("store ptr inttoptr (i64 7 to ptr)"), "{ir}");
        assert!(
            ir.contains("store ptr inttoptr (i64 1065353216 to ptr)"),
            "{ir}"
        );
        assert!(
            ir.contains("store ptr inttoptr (i64 4611686018427387904 to ptr)"),
            "{ir}"
        );
        // The by-value struct is spilled in the entry block and mapped TO.
        assert!(ir.contains("%.offload_byval = alloca %S"), "{ir}");
        assert!(ir.contains("store %S %v, ptr %.offload_byval"), "{ir}");
    }

    #[test]
    fn slice_size_is_computed_at_run_time_from_the_global_descriptor() {
        // rustc's form: the [u64; 15] static as bytes.
        let words: [u64; 15] = [1, 2, 1, 1, 32, 1, 1, 0, 2, 1, 8, 2, 0, 0, 0];
        let bytes: String = words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .map(|b| format!("\\{b:02X}"))
            .collect();
        let ir = lower(&format!(
            r#"
@"__offload_launch.k" = constant [120 x i8] c"{bytes}", align 8
declare void @k(ptr, i64)
define void @f(ptr %p, i64 %n) {{
  call void @k(ptr %p, i64 %n)
  ret void
}}
"#
        ));
        assert!(ir.contains("%.offload_sizes = alloca [2 x i64]"), "{ir}");
        assert!(ir.contains("= mul i64 %n, 8"), "{ir}");
        assert!(ir.contains("@.offload_maptypes.k.begin = private unnamed_addr constant [2 x i64] [i64 1, i64 768]"), "{ir}");
        assert!(ir.contains("store [3 x i32] [i32 2, i32 1, i32 1]"), "{ir}");
        assert!(
            ir.contains("store [3 x i32] [i32 32, i32 1, i32 1]"),
            "{ir}"
        );
        assert!(
            ir.contains("call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 2, i32 32,"),
            "{ir}"
        );
    }

    #[test]
    fn call_metadata_overrides_the_global_and_the_code_can_be_returned() {
        let ir = lower(
            r#"
@"__offload_launch.k" = constant [9 x i64] [i64 1, i64 2, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0]
declare i32 @k(ptr dereferenceable(4))
define i32 @f(ptr %p) {
  %r = call i32 @k(ptr %p), !offload.launch !0
  ret i32 %r
}
!0 = !{i32 1, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 64, i32 0}
"#,
        );
        assert!(ir.contains("store [3 x i32] [i32 5, i32 6, i32 7]"), "{ir}");
        assert!(
            ir.contains("store [3 x i32] [i32 8, i32 9, i32 10]"),
            "{ir}"
        );
        assert!(ir.contains("store i32 64"), "{ir}");
        assert!(ir.contains("ret i32 %k.rc"), "{ir}");
        assert!(!ir.contains("__offload_launch_check"), "{ir}");
    }

    #[test]
    fn data_region_calls_lower_to_mappers() {
        let ir = lower(
            r#"
declare void @__offload_data_begin(ptr, i64, i64)
declare void @__offload_data_update(ptr, i64, i64)
declare void @__offload_data_end(ptr, i64, i64)
define void @f(ptr %p, i64 %n) {
  call void @__offload_data_begin(ptr %p, i64 %n, i64 3)
  call void @__offload_data_update(ptr %p, i64 %n, i64 2)
  call void @__offload_data_end(ptr %p, i64 %n, i64 3)
  ret void
}
"#,
        );
        for mapper in ["begin", "update", "end"] {
            assert!(
                ir.contains(&format!(
                    "call void @__tgt_target_data_{mapper}_mapper(ptr null, i64 -1, i32 1,"
                )),
                "{ir}"
            );
        }
        assert!(ir.contains("store i64 3, ptr %.offload_maptypes"), "{ir}");
        assert!(!ir.contains("call void @__offload_data"), "{ir}");
    }

    #[test]
    fn a_module_without_launches_is_untouched() {
        let body = "declare void @printf(ptr)\ndefine void @f() {\n  call void @printf(ptr null)\n  ret void\n}\n";
        let (changed, text) = run_pass(run, &format!("image={}", image()), &host(body)).unwrap();
        assert!(!changed);
        assert!(
            !text.contains("openmp") && !text.contains("offloading"),
            "{text}"
        );
    }

    #[test]
    fn errors_leave_the_module_unchanged() {
        let path = image();
        let missing = fails(
            "declare void @nope(ptr)\ndefine void @f(ptr %p) {\n  call void @nope(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n",
        );
        assert_eq!(
            missing,
            format!("kernel 'nope' is not in image '{path}' (its kernels: k, other)")
        );
        let unsized_pointer = fails(
            "declare void @k(ptr)\ndefine void @f(ptr %p) {\n  call void @k(ptr %p)\n  ret void\n}\n",
        );
        assert_eq!(
            unsized_pointer,
            "launch of 'k' in function 'f': argument 0: a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in the launch descriptor"
        );
        // The first launch is fine; the second fails: nothing may change.
        let second = fails(
            "declare void @k(ptr dereferenceable(4))\ndefine void @f(ptr %p) {\n  call void @k(ptr %p)\n  call void @k(ptr %p, i128 1)\n  ret void\n}\n",
        );
        assert!(
            second.contains("argument 1: an integer of 128 bits"),
            "{second}"
        );
        let used = fails(
            "declare i64 @k(ptr dereferenceable(4))\ndefine i64 @f(ptr %p) {\n  %r = call i64 @k(ptr %p)\n  ret i64 %r\n}\n",
        );
        assert!(used.ends_with("its result of type i64 is used; a launch returns void or i32 (the runtime's return code)"), "{used}");
        let descriptor = fails(
            "@\"__offload_launch.k\" = constant [2 x i64] [i64 1, i64 0]\ndeclare void @k()\ndefine void @f() {\n  call void @k()\n  ret void\n}\n",
        );
        assert_eq!(
            descriptor,
            "launch descriptor @\"__offload_launch.k\" has 2 words; at least 9 are needed (version, teams x3, threads x3, dynamic memory, argument count)"
        );
        let body = fails(
            "define void @k(ptr %p) {\n  ret void\n}\ndefine void @f(ptr %p) {\n  call void @k(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n",
        );
        assert_eq!(
            body,
            "launch of 'k' in function 'f': 'k' has a body; a launch calls an external declaration"
        );
        let invoke = fails(
            "declare void @k(ptr dereferenceable(4))\ndeclare i32 @__gxx_personality_v0(...)\ndefine void @f(ptr %p) personality ptr @__gxx_personality_v0 {\n  invoke void @k(ptr %p) to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\n}\n",
        );
        assert_eq!(
            invoke,
            "launch of 'k' in function 'f': an invoke; launches must be plain calls (kernels do not unwind)"
        );
        let count = fails(
            "declare void @k(ptr)\ndefine void @f(ptr %p) {\n  call void @k(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 2, i64 1, i64 4, i64 0, i64 0, i64 0, i64 0}\n",
        );
        assert_eq!(
            count,
            "launch of 'k' in function 'f': the launch descriptor describes 2 arguments, the call passes 1"
        );
        let data = fails(
            "declare void @__offload_data_begin(ptr, i64)\ndefine void @f(ptr %p) {\n  call void @__offload_data_begin(ptr %p, i64 4)\n  ret void\n}\n",
        );
        assert_eq!(
            data,
            "call of '__offload_data_begin' in function 'f': expected (__offload_data_begin ptr, i64 size, i64 maptype) returning void"
        );
    }

    #[test]
    fn existing_constructors_are_kept() {
        let ir = lower(
            r#"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
declare void @k(ptr dereferenceable(4))
define void @init() {
  ret void
}
define void @f(ptr %p) {
  call void @k(ptr %p)
  ret void
}
"#,
        );
        assert!(ir.contains("@llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }, { i32, ptr, ptr } { i32 101, ptr @.omp_offloading.descriptor_reg, ptr null }]"), "{ir}");
    }
}
