#![forbid(unsafe_code)]
//! `offload-shared-memory`: gives the `offload` crate's GPU code the address
//! of the team's dynamic shared memory and of its static shared arrays, in
//! the shared address space.
//!
//! Input: a GPU device module (`amdgcn-*` or `nvptx*` triple). Stable Rust
//! cannot name `addrspace(3)`, and a static's accesses are folded into the
//! global address space by the optimiser before a late pass could move it,
//! so the `offload` crate calls a function it only declares,
//! `__offload_dyn_shared_base` (offload-contract's
//! `grid::DYN_SHARED_BASE_FN`), returning a generic `ptr`.
//!
//! Guarantees: the module gets
//! `@__offload_dyn_shared = external addrspace(3) global [0 x i8], align 16`
//! (offload-contract's `grid::DYN_SHARED_SYMBOL`) — what clang emits for
//! HIP's and CUDA's `extern __shared__` arrays, which both backends place at
//! the start of a team's dynamic shared memory (AMDGPU: after the kernel's
//! static LDS; NVPTX: `.extern .shared`) — every call of the function is
//! replaced by `addrspacecast (ptr addrspace(3) @__offload_dyn_shared to
//! ptr)` (the backends' address space inference then uses LDS and `.shared`
//! instructions: `ds_*`, `ld.shared`/`st.shared`), and the declaration is
//! deleted.
//!
//! Static shared arrays (`offload::shared_array!`) are calls of the declared
//! `__offload_static_shared(ptr @site, i64 bytes, i64 align)` (offload-contract's
//! `grid::STATIC_SHARED_FN`), `@site` a global of its own per declaration:
//! each site becomes `internal addrspace(3) global [bytes x i8] undef,
//! align align` (clang's `__shared__`), each call its generic address, and
//! the site global (if internal and then unused) and the declaration are
//! deleted ([`static_arrays`]). A kernel whose reachable arrays (each
//! padded to its alignment) exceed the target's static limit (offload-contract's
//! `STATIC_SHARED_LIMIT_AMDGPU`, 64 KiB of gfx90a LDS;
//! `STATIC_SHARED_LIMIT_NVPTX`, sm_90's 48 KiB) is an error naming the kernel
//! (demangled), the arrays' sizes, the total and the limit; so is a site
//! called with two sizes, and a call whose site is not a global or whose
//! size or alignment is not a constant.
//!
//! A module without the functions, or on another triple (the x86_64 image
//! has none), is left unchanged. A function defined, or used other than
//! by the calls above, is an error naming the use, found before anything
//! is changed.
//!
//! Run: `opt-22 -load-pass-plugin=target/release/liboffload_passes.so
//! -passes=offload-shared-memory in.ll -S` (offload-build runs it in GPU
//! device builds, before `offload-wrap-kernels`).

use inkwell::AddressSpace;
use inkwell::module::{Linkage, Module};
use inkwell::values::GlobalValue;
use offload_contract::grid::{DYN_SHARED_BASE_FN, DYN_SHARED_SYMBOL, STATIC_SHARED_FN};

use crate::ir::{Value, calls, erase};
use crate::params::ParamError;
use crate::{Diagnostics, ModulePass};

mod static_arrays;

const PASS: &str = "offload-shared-memory";

/// The shared (team-local) address space on AMDGPU (LDS) and NVPTX.
const SHARED: u16 = 3;

/// The pass (no parameters).
pub struct OffloadSharedMemory;

/// Why the pass refused the module.
#[derive(Debug)]
pub enum Error {
    /// The function has a body.
    Defined,
    /// A use that is not a call of the function (the use's text).
    Use(String),
    /// The symbol of the shared array is taken by something else.
    NameTaken,
    /// The static shared array function has a body.
    StaticDefined,
    /// A use of the static shared array function that is not a call with
    /// a site global, a constant size (below 4 GiB) and a power-of-two
    /// alignment (the use's text).
    StaticUse(String),
    /// One site called with two sizes or alignments.
    StaticSizes {
        site: String,
        first: (u64, u64),
        second: (u64, u64),
    },
    /// A kernel's static shared arrays exceed the target's limit.
    StaticLimit {
        kernel: String,
        sizes: Vec<u64>,
        total: u64,
        limit: u64,
        triple: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Defined => write!(
                f,
                "`{DYN_SHARED_BASE_FN}` has a body: it must be the declaration the `offload` crate makes"
            ),
            Error::Use(user) => write!(
                f,
                "`{DYN_SHARED_BASE_FN}` is used other than by a call `ptr ()`: {user}"
            ),
            Error::NameTaken => write!(
                f,
                "`{DYN_SHARED_SYMBOL}` is already defined other than as the external addrspace(3) array"
            ),
            Error::StaticDefined => write!(
                f,
                "`{STATIC_SHARED_FN}` has a body: it must be the declaration the `offload` crate makes"
            ),
            Error::StaticUse(user) => write!(
                f,
                "`{STATIC_SHARED_FN}` is used other than by a call `ptr (ptr @site, i64 <bytes below 4 GiB>, i64 <power-of-two align>)`: {user}"
            ),
            Error::StaticSizes {
                site,
                first,
                second,
            } => write!(
                f,
                "the static shared array of `{site}` is declared with {} bytes (align {}) and with {} bytes (align {})",
                first.0, first.1, second.0, second.1
            ),
            Error::StaticLimit {
                kernel,
                sizes,
                total,
                limit,
                triple,
            } => write!(
                f,
                "kernel `{kernel}` uses {total} bytes of static shared memory (arrays of {sizes:?} bytes), over the {limit} bytes a kernel may use on {triple}"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl ModulePass for OffloadSharedMemory {
    const NAME: &'static str = PASS;
    const CLASS_NAME: &'static str = "OffloadSharedMemoryPass";
    type Error = Error;

    fn parse(params: &[u8]) -> Result<Self, ParamError> {
        crate::pass::no_params(params).map(|()| OffloadSharedMemory)
    }

    fn run(&self, module: &Module<'_>, _: &mut Diagnostics) -> Result<bool, Error> {
        let triple = module.get_triple();
        let triple = triple.as_str().to_string_lossy();
        if !(triple.starts_with("amdgcn") || triple.starts_with("nvptx")) {
            return Ok(false);
        }
        let dynamic = dyn_shared_calls(module)?;
        let changed = static_arrays::lower(module, &triple)?;
        let Some((function, calls)) = dynamic else {
            return Ok(changed);
        };
        let shared = shared_array(module)?;
        let generic = module.get_context().ptr_type(AddressSpace::default());
        let address = Value::from(shared.as_pointer_value().const_address_space_cast(generic));
        for call in calls {
            call.replace_all_uses_with(address);
            erase::erase_instruction(call);
        }
        erase::delete_if_unused_declaration(function);
        Ok(true)
    }
}

/// The declaration of `__offload_dyn_shared_base` and its calls, checked;
/// `None` when the module has none.
type DynCalls<'ctx> = Option<(Value<'ctx>, Vec<Value<'ctx>>)>;

fn dyn_shared_calls<'ctx>(module: &Module<'ctx>) -> Result<DynCalls<'ctx>, Error> {
    let Some(function) = module.get_function(DYN_SHARED_BASE_FN) else {
        return Ok(None);
    };
    if function.count_basic_blocks() > 0 {
        return Err(Error::Defined);
    }
    let function = Value::from(function.as_global_value().as_pointer_value());
    let calls = function.users();
    for call in &calls {
        let plain_call = calls::is_call_like(*call)
            && !calls::is_invoke(*call)
            && calls::called_function(*call) == Some(function)
            && calls::arg_count(*call) == 0
            && call.ty().pointer_address_space() == Some(0);
        if !plain_call {
            return Err(Error::Use(call.text()));
        }
    }
    existing_shared_array(module)?;
    Ok(Some((function, calls)))
}

/// The module's `@__offload_dyn_shared`, if it has one; one that is not an
/// `addrspace(3)` declaration is someone else's symbol.
fn existing_shared_array<'ctx>(module: &Module<'ctx>) -> Result<Option<GlobalValue<'ctx>>, Error> {
    let Some(global) = module.get_global(DYN_SHARED_SYMBOL) else {
        return Ok(None);
    };
    let space = Value::from(global.as_pointer_value())
        .ty()
        .pointer_address_space();
    if space != Some(u32::from(SHARED)) || !global.is_declaration() {
        return Err(Error::NameTaken);
    }
    Ok(Some(global))
}

/// `@__offload_dyn_shared = external addrspace(3) global [0 x i8], align
/// 16`, the module's own if it has it already.
fn shared_array<'ctx>(module: &Module<'ctx>) -> Result<GlobalValue<'ctx>, Error> {
    let ty = module.get_context().i8_type().array_type(0);
    if let Some(global) = existing_shared_array(module)? {
        return Ok(global);
    }
    let global = module.add_global(ty, Some(AddressSpace::from(SHARED)), DYN_SHARED_SYMBOL);
    global.set_linkage(Linkage::External);
    global.set_alignment(16);
    Ok(global)
}
