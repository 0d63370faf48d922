#![forbid(unsafe_code)]
//! `offload-wrap-kernels` (device module): gives every kernel the signature
//! libomptarget's launch calls it with (kernel-arguments version 3).
//!
//! A libomptarget launch passes a leading dyn pointer (not counted in
//! `NumArgs`) and then one 8-byte slot per argument: a translated device
//! pointer or a literal scalar zero-extended to 64 bits. The host (CPU)
//! plugin makes that call through libffi with every argument typed as a
//! pointer, so a `double` parameter would read a general register instead of
//! an SSE one. This pass rewrites each kernel to
//! `K(ptr %dyn_ptr, <one slot per old parameter>)`:
//! - pointers stay pointers (any address space, 8 bytes wide), with their
//!   attributes;
//! - `iN` (N < 64) arrives as `i64` and is `trunc`ated back; `i64` stays;
//! - `half`/`bfloat`/`float` arrive as `i64`, `trunc` to `i16`/`i32`, `bitcast`;
//!   `double` arrives as `i64` and is `bitcast`;
//! - a `byval(T)` pointer (a struct the caller copies) becomes a plain pointer
//!   to the struct the host maps TO; the body gets its own private copy;
//! - a first-class aggregate or fixed vector by value (`%S %s`, `[4 x i32]`,
//!   `<2 x double>`) becomes a plain pointer to the copy the host maps TO
//!   (`offload-host` passes a by-value aggregate or vector that way); the body
//!   `load`s the value from it;
//! - a `byref(T)` pointer stays a pointer on the CPU; on a GPU kernel `byref`
//!   means "inline in the kernarg segment", which no launch slot provides: error.
//!
//! Other parameters (scalars wider than 8 bytes, scalable vectors, ABI
//! attributes like `sret`/`inalloca`) are an error naming the kernel, the
//! parameter and its type. The symbol name, calling convention, linkage,
//! visibility, `dso_local`, attributes, metadata (`!dbg` too), body and the
//! kernel's place in the module survive.
//!
//! Input (the marker contract): kernels are the defined functions that are
//! - `amdgpu_kernel` or `ptx_kernel`, or
//! - marked with function metadata `!offload.kernel !{}` (a CPU image for the
//!   host plugin), or
//! - named by the pass parameter `kernels=a:b` (for front ends that cannot
//!   attach metadata, like rustc). Names are separated by `:` because LLVM's
//!   pipeline parser splits the pipeline text at every `,`, also inside `<>`.
//!   An unknown name is an error, unless the flag `codegen-unit` says the
//!   module is one of several codegen units of a crate (rustc's
//!   `-Ccodegen-units=N` without fat LTO runs the pass once per unit, and
//!   each unit holds only some kernels): then a name the module does not
//!   define is left to the unit that does (`kernels=a:b;codegen-unit`).
//!   A named kernel that MergeFunctions made an alias of an identical
//!   function (rustc at `-Copt-level=3`: `copy_u32` an alias of `copy_i32`)
//!   becomes a copy of that function again, with its own symbol, and is
//!   wrapped like any kernel (the mechanism `amdgpu-kernel-abi` uses,
//!   [`crate::ir::kernels::KernelAlias::unmerge`]); making it a copy changes
//!   no behaviour, so it may precede an error.
//!
//! - named by a kernel record, with the flag `records` (a Rust crate's
//!   `#[kernel]`s, of the crate and of its dependencies in a fat-LTO image:
//!   [`records`]): every defined `@__offload_rs_record_<symbol>` global,
//!   checked against offload-contract's record layout, names the kernel
//!   `<symbol>`. A malformed record, or a record whose kernel the module
//!   does not define (unless `codegen-unit`), is an error naming the global.
//!
//! Kernel symbols must be UTF-8: the manifest and `offload-host` name
//! kernels by text, so any other symbol is refused here, naming it.
//!
//! The kernel manifest: for each kernel it wraps the pass adds
//! `@__offload_manifest_<K>`, an ELF note recording the kernel's original
//! parameters (what the host must pass: pointer and address space, integer
//! width, float kind, by-value aggregate size and alignment) and the slot
//! each one travels in ([`manifest`]; format and carrier:
//! [`crate::kernel_manifest`], `docs/kernel-manifest.md`). It survives into
//! the linked image (x86_64 shared object, AMDGPU code object, NVPTX cubin);
//! `offload-host` launches only kernels it lists, and checks every launch
//! against it.
//!
//! Guarantees: each kernel is wrapped exactly once. The "already wrapped"
//! marker is function metadata `!offload.wrapped !{}` (never a value name,
//! which `-discard-value-names` and rustc release builds drop), so running the
//! pass again, or on its own output, changes nothing. Every error is reported
//! before the module is changed.
//!
//! How: find the kernels, plan every kernel's slots and manifest
//! ([`slots`]) before changing any, then rewrite each ([`rewrite`]) and
//! record its manifest ([`manifest`]).
//!
//! Run:
//!   opt-22 -load-pass-plugin=liboffload_passes.so -passes=offload-wrap-kernels k.ll
//!   RUSTC_BOOTSTRAP=1 rustc -Zllvm-plugins=/abs/liboffload_passes.so \
//!     -Cpasses='offload-wrap-kernels<kernels=kernel_a:kernel_b>' ...

mod error;
mod manifest;
mod records;
mod rewrite;
mod slots;

pub use error::Error;
#[cfg(test)]
use error::ParamProblem;
pub use records::RecordProblem;

use std::collections::HashSet;

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::ir::kernels::{self, UnmergeRefused};
use crate::ir::{metadata, naming};
use crate::params::{self, Key, ParamError};
use crate::{Diagnostics, ModulePass};

const PASS: &str = "offload-wrap-kernels";
/// Function metadata that marks a CPU-image kernel: `!offload.kernel !{}`.
pub const KERNEL_MD: &str = "offload.kernel";
/// Function metadata this pass adds to every kernel it wrapped.
pub const WRAPPED_MD: &str = "offload.wrapped";

/// The pass, with the functions `kernels=a:b` names besides the marked ones.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct OffloadWrapKernels {
    kernels: Vec<String>,
    /// `codegen-unit`: a named kernel the module lacks is in another unit.
    codegen_unit: bool,
    /// `records`: the kernel records name kernels too.
    records: bool,
}

impl ModulePass for OffloadWrapKernels {
    const NAME: &'static str = PASS;
    const CLASS_NAME: &'static str = "OffloadWrapKernelsPass";
    type Error = Error;

    /// `kernels=a:b` (may repeat), `codegen-unit`, `records`.
    fn parse(text: &[u8]) -> Result<Self, ParamError> {
        let mut pass = OffloadWrapKernels::default();
        let keys = [
            Key::repeatable("kernels"),
            Key::once("codegen-unit"),
            Key::once("records"),
        ];
        for param in params::parse(text, &keys)? {
            if param.key == "codegen-unit" || param.key == "records" {
                if param.value.is_some() {
                    return Err(
                        param.invalid(format!("is a flag: write '{}', no value", param.key))
                    );
                }
                if param.key == "records" {
                    pass.records = true;
                } else {
                    pass.codegen_unit = true;
                }
                continue;
            }
            let value = param.text()?;
            for name in value.split(':') {
                if name.is_empty() {
                    return Err(param.invalid(format!("empty kernel name in 'kernels={value}'")));
                }
                if name.contains(',') {
                    // Unreachable from a pipeline string (LLVM splits there
                    // first), but say why if the text comes from elsewhere.
                    return Err(param.invalid(format!(
                        "separate kernel names with ':', not ',' (got '{name}')"
                    )));
                }
                pass.kernels.push(name.to_owned());
            }
        }
        Ok(pass)
    }

    fn run(&self, module: &Module<'_>, _: &mut Diagnostics) -> Result<bool, Error> {
        let kernels = self.find_kernels(module)?;
        // Plan every kernel first, so an error leaves the module untouched.
        // One TargetData for the run: parsing the data layout per pointer
        // parameter cost more than the rest of the planning.
        let layout = crate::ir::types::target_data(module);
        // (Looked up once: the lookup hashes the name.)
        let wrapped = metadata::kind(module, WRAPPED_MD);
        let plans = kernels
            .into_iter()
            .filter(|&kernel| !already_wrapped(kernel, wrapped))
            .map(|kernel| slots::plan_kernel(kernel, &layout))
            .collect::<Result<Vec<_>, Error>>()?;
        for plan in &plans {
            manifest::check_free(module, &plan.manifest)?;
        }
        let changed = !plans.is_empty();
        let mut manifests = Vec::with_capacity(plans.len());
        for plan in plans {
            manifests.push(plan.manifest.clone());
            rewrite::wrap_kernel(module, plan, wrapped)?;
        }
        manifest::emit_all(module, &manifests);
        Ok(changed)
    }
}

impl OffloadWrapKernels {
    /// The kernels of `module` in module order: GPU kernel calling
    /// conventions, `!offload.kernel` functions, and the functions named
    /// (which must exist, unless this is one codegen unit of several).
    fn find_kernels<'ctx>(&self, module: &Module<'ctx>) -> Result<Vec<FunctionValue<'ctx>>, Error> {
        let recorded = if self.records {
            records::record_kernels(module)?
        } else {
            Vec::new()
        };
        let all: Vec<String> = self.kernels.iter().chain(&recorded).cloned().collect();
        unmerge_named(module, &all)?;
        let missing = |name: &&String| module.get_function(name).is_none();
        let unknown: Vec<String> = self.kernels.iter().filter(missing).cloned().collect();
        if !unknown.is_empty() && !self.codegen_unit {
            return Err(Error::UnknownKernels { names: unknown });
        }
        if let Some(symbol) = recorded.iter().find(missing)
            && !self.codegen_unit
        {
            return Err(Error::RecordWithoutKernel {
                symbol: symbol.clone(),
            });
        }
        let named: HashSet<&str> = all.iter().map(String::as_str).collect();
        let marked = metadata::kind(module, KERNEL_MD);
        let mut kernels = Vec::new();
        for function in module.get_functions() {
            let defined = function.get_first_basic_block().is_some();
            // (`symbol` allocates: looked up only when names were given.)
            let is_named = !named.is_empty() && named.contains(naming::symbol(function).as_str());
            let is_kernel = if is_named {
                // Named explicitly: a declaration is the caller's mistake,
                // unless its definition is in another codegen unit.
                if !defined && !self.codegen_unit {
                    return Err(Error::NamedDeclaration {
                        name: naming::name_of(function),
                    });
                }
                defined
            } else {
                defined
                    && (kernels::is_gpu_kernel(function)
                        || metadata::attachment_of_kind(function, marked).is_some())
            };
            if is_kernel {
                check_utf8_symbol(function)?;
                kernels.push(function);
            }
        }
        Ok(kernels)
    }
}

/// Makes each alias that `named` names (MergeFunctions merged the kernel
/// into an identical function) a function of its own again.
fn unmerge_named(module: &Module<'_>, named: &[String]) -> Result<(), Error> {
    if named.is_empty() {
        return Ok(());
    }
    let named: HashSet<&str> = named.iter().map(String::as_str).collect();
    for found in kernels::function_aliases(module) {
        let symbol = found.alias.name();
        if !named.contains(symbol.as_str()) {
            continue;
        }
        let why = match found.unmerge() {
            Ok(_) => {
                log::debug!(
                    "{PASS}: kernel '{}' was an alias of the identical function '{}' (MergeFunctions); it is a copy of that function again",
                    naming::display_symbol(&symbol),
                    naming::name_of(found.aliasee)
                );
                continue;
            }
            Err(UnmergeRefused::SignatureDiffers) => "its signature is not that function's",
            Err(UnmergeRefused::OtherUses) => "something other than @llvm.used refers to the alias",
            Err(UnmergeRefused::NoBody) => "that function has no body here",
        };
        return Err(Error::MergedKernel {
            kernel: naming::display_symbol(&symbol),
            merged_into: naming::name_of(found.aliasee),
            why,
        });
    }
    Ok(())
}

/// A kernel's symbol must be UTF-8: the manifest and `offload-host` name
/// kernels by text, and a replaced byte would name another kernel.
fn check_utf8_symbol(kernel: FunctionValue<'_>) -> Result<(), Error> {
    let bytes = crate::ir::Value::from(kernel).name_bytes();
    match std::str::from_utf8(&bytes) {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::SymbolNotUtf8 {
            symbol: bytes.escape_ascii().to_string(),
        }),
    }
}

/// `kind` is the kind id of [`WRAPPED_MD`].
fn already_wrapped(kernel: FunctionValue<'_>, kind: u32) -> bool {
    let wrapped = metadata::attachment_of_kind(kernel, kind).is_some();
    if wrapped {
        log::debug!(
            "{PASS}: skipping kernel '{}': already wrapped (!{WRAPPED_MD})",
            naming::name_of(kernel)
        );
    }
    wrapped
}

#[cfg(test)]
mod tests;
