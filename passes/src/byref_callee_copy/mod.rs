#![forbid(unsafe_code)]
//! `byref-callee-copy`: gives every `byref` parameter of an `amdgpu_kernel`
//! that the kernel may write through a private copy, and marks the others
//! `readonly`.
//!
//! Input: any module. Every defined `amdgpu_kernel` (calling convention 91)
//! parameter with a `byref(T)` attribute is considered, whoever produced it
//! (`amdgpu-kernel-abi`, clang, a fixed rustc). Making a copy needs a data
//! layout that puts `alloca`s in address space 5 (`A5`, as every amdgcn
//! layout does); without one, a parameter that needs a copy is an error
//! (one that is only read is marked `readonly` all the same).
//!
//! Why: `byref` memory is the kernarg segment (address space 4, constant).
//! LangRef does not allow writes through it, AMDGPU alias analysis treats it
//! as never modified (a store through an `addrspacecast` of it is deleted at
//! -O2) and `-passes=lint` reports such stores. Frontends that assume a
//! by-value argument is theirs to modify (rustc) therefore need a copy.
//!
//! Guarantees, per parameter:
//! - if some use may write through it (store, atomicrmw, cmpxchg, a
//!   `memset`/`memcpy`/`memmove` destination, a call that is not known to
//!   only read it without capturing it), or lets it escape (`ptrtoint`, stored
//!   as a value, returned, ...), through any chain of `getelementptr`,
//!   `addrspacecast`, `bitcast`, `select`, `phi` and `freeze`: the entry block
//!   gets `%x.copy = alloca T, align A, addrspace(5)` and
//!   `llvm.memcpy(%x.copy, %x, alloc size of T)`, every use is retargeted to the
//!   copy (chains rebuilt in address space 5, or in the generic one where they
//!   meet pointers from elsewhere; `!amdgpu.noclobber` and `!invariant.load`
//!   dropped from retargeted loads) and the parameter, now only the memcpy
//!   source, is marked `readonly`;
//! - otherwise nothing is inserted and the parameter gets `readonly` (unless it
//!   already has `readonly` or `readnone`).
//!
//! `#dbg_declare`s of a generic pointer of a rewritten chain (rustc -O0
//! declares a by-value argument at its address) are moved to the copy.
//!
//! A use that cannot be retargeted (one that needs the old non-generic pointer
//! type, e.g. a call taking `ptr addrspace(1)`) is an error naming the kernel
//! and parameter, found before anything in the module is touched. Running the pass
//! twice changes nothing the second time.
//!
//! How: collect the parameter's derived pointers and their uses
//! ([`graph`], each use classified by [`classify`]), plan the rewrite of each
//! ([`plan`]: which pointers can live in address space 5, whether every use
//! can be retargeted), then rewrite ([`rewrite`]). Every parameter of the
//! module is planned before any changes. `amdgpu-kernel-abi` uses the same
//! analysis for the byref parameters it creates ([`first_write`]).
//!
//! Run: `opt-22 -load-pass-plugin=target/release/liboffload_passes.so
//! -passes=byref-callee-copy in.ll -S`; `RUST_LOG=offload_passes=debug` logs
//! each decision with the first writing use found.

mod classify;
mod error;
mod graph;
mod plan;
mod rewrite;

pub use error::Error;

use std::collections::HashSet;

use inkwell::attributes::AttributeLoc;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;

use self::graph::Graph;
use self::plan::Plan;
use crate::ir::builder::ValueBuilder;
use crate::ir::naming::{self, ParamRef};
use crate::ir::{Opcode, Type, Value, attributes, calls, kernels, types};
use crate::params::ParamError;
use crate::{Diagnostics, ModulePass};

const PASS: &str = "byref-callee-copy";

/// The pass (no parameters).
pub struct ByrefCalleeCopy;

impl ModulePass for ByrefCalleeCopy {
    const NAME: &'static str = PASS;
    const CLASS_NAME: &'static str = "ByrefCalleeCopyPass";
    type Error = Error;

    fn parse(params: &[u8]) -> Result<Self, ParamError> {
        crate::pass::no_params(params).map(|()| ByrefCalleeCopy)
    }

    fn run(&self, module: &Module<'_>, _: &mut Diagnostics) -> Result<bool, Error> {
        let layout = types::target_data(module);
        kernels::log_skipped_declarations(module, PASS);
        let kernels = kernels::amdgpu_kernels(module);
        // Check every parameter before changing any, so an error leaves the
        // module untouched (rewriting one parameter never changes whether
        // another's uses can be retargeted).
        for kernel in &kernels {
            for param in byref_params(*kernel) {
                param.check(module)?;
            }
        }
        let mut changed = false;
        for kernel in kernels {
            let mut entry_copies = HashSet::new();
            for param in byref_params(kernel) {
                changed |= param.process(module, &layout, &mut entry_copies)?;
            }
        }
        Ok(changed)
    }
}

/// The first use of `pointer` (through derived pointers) that may write
/// its memory or let it escape: why, and the user. `None` when every use
/// only reads.
pub(crate) fn first_write(pointer: Value<'_>) -> Option<(&'static str, Value<'_>)> {
    Graph::first_write(pointer)
}

/// The `byref` parameters of a kernel, in order.
fn byref_params(kernel: FunctionValue<'_>) -> Vec<Param<'_>> {
    (0..kernel.count_params())
        .filter_map(|index| {
            let ty = attributes::param_type(kernel, index, "byref")?;
            let value = naming::param(kernel, index)?;
            Some(Param {
                kernel,
                index,
                ty,
                value,
            })
        })
        .collect()
}

/// One `byref` parameter of a kernel.
struct Param<'ctx> {
    kernel: FunctionValue<'ctx>,
    index: u32,
    /// The byref type (it may be one inkwell cannot wrap).
    ty: Type<'ctx>,
    value: Value<'ctx>,
}

impl<'ctx> Param<'ctx> {
    fn describe(&self) -> ParamRef {
        ParamRef::of(self.kernel, self.index)
    }

    /// The errors [`Param::process`] would meet, found without changing anything.
    fn check(&self, module: &Module<'ctx>) -> Result<(), Error> {
        let graph = Graph::trace(self.value);
        if graph.first_write.is_some() {
            self.copy_type()?;
            Plan::new(module, &self.describe(), graph)?;
        }
        Ok(())
    }

    /// The byref type, which the copy needs to have a fixed size.
    fn copy_type(&self) -> Result<BasicTypeEnum<'ctx>, Error> {
        self.ty.fixed_size().ok_or_else(|| Error::NoFixedSize {
            param: self.describe(),
            ty: self.ty.text(),
        })
    }

    /// Decides and applies copy-or-readonly; `Ok(true)` when the IR changed.
    /// `entry_copies` holds the instructions earlier parameters of this kernel
    /// inserted at entry, so copies stay in parameter order.
    fn process(
        &self,
        module: &Module<'ctx>,
        layout: &TargetData,
        entry_copies: &mut HashSet<Value<'ctx>>,
    ) -> Result<bool, Error> {
        let graph = Graph::trace(self.value);
        let Some((why, user)) = graph.first_write else {
            let changed = self.mark_readonly();
            log::debug!(
                "{PASS}: {}: only read, no copy{}",
                self.describe(),
                if changed { "; marked readonly" } else { "" }
            );
            return Ok(changed);
        };
        // The user is printed only when debug logging is on: printing an
        // instruction numbers the whole module, which made the pass quadratic
        // in the number of kernels when done eagerly.
        if log::log_enabled!(log::Level::Debug) {
            log::debug!(
                "{PASS}: {}: may be written ({why}: `{}`); copying to private memory",
                self.describe(),
                user.text()
            );
        }
        let plan = Plan::new(module, &self.describe(), graph)?;
        let (copy, memcpy) = self.insert_copy(module, layout, entry_copies)?;
        let added = rewrite::apply(module, plan, copy, memcpy).map_err(|what| Error::Internal {
            param: self.describe(),
            what,
        })?;
        entry_copies.extend(added);
        self.check_only_memcpy_left()?;
        self.mark_readonly();
        Ok(true)
    }

    /// Adds `readonly` unless `readonly` or `readnone` is there; drops a
    /// `writeonly` that would contradict it. True when attributes changed.
    fn mark_readonly(&self) -> bool {
        let loc = AttributeLoc::Param(self.index);
        let has = |name| attributes::has_param(self.kernel, self.index, name);
        if has("readonly") || has("readnone") {
            return false;
        }
        if has("writeonly") {
            self.kernel
                .remove_enum_attribute(loc, attributes::kind("writeonly"));
        }
        let context = self.kernel.get_type().get_context();
        self.kernel.add_attribute(
            loc,
            context.create_enum_attribute(attributes::kind("readonly"), 0),
        );
        true
    }

    /// Inserts `%x.copy = alloca T, align A, addrspace(5)` and the memcpy
    /// from the parameter at entry, after allocas and earlier parameters'
    /// copies.
    fn insert_copy(
        &self,
        module: &Module<'ctx>,
        layout: &TargetData,
        entry_copies: &mut HashSet<Value<'ctx>>,
    ) -> Result<(Value<'ctx>, Value<'ctx>), Error> {
        let ty = self.copy_type()?;
        let internal = |what: &str| Error::Internal {
            param: self.describe(),
            what: what.to_owned(),
        };
        let entry = self
            .kernel
            .get_first_basic_block()
            .ok_or_else(|| internal("the kernel has no body"))?;
        // After leading phis (an entry block without predecessors may have
        // empty ones), allocas and the copies of earlier parameters.
        let at = crate::ir::Block::from(entry)
            .instructions()
            .into_iter()
            .find(|i| {
                !matches!(i.opcode(), Some(Opcode::LLVMAlloca | Opcode::LLVMPHI))
                    && !entry_copies.contains(i)
            })
            .ok_or_else(|| internal("the entry block has no terminator"))?;
        // Byref without `align` means 1 for the source; the copy also honours
        // the type's ABI alignment, which the body's accesses may assume.
        let src_align =
            types::align_u32(attributes::param_align(self.kernel, self.index).unwrap_or(1));
        let copy_align = src_align.max(layout.get_abi_alignment(&ty));
        let size = layout.get_abi_size(&ty); // the alloc size
        let builder = ValueBuilder::new(module);
        builder.position_before(at);
        let copy = builder.build_alloca(Type::from(ty), copy_align);
        let name = self.value.name();
        copy.set_name(&if name.is_empty() {
            "byref.copy".to_owned()
        } else {
            format!("{name}.copy")
        });
        let size = Value::from(module.get_context().i64_type().const_int(size, false));
        let memcpy = builder.build_memcpy(copy, copy_align, self.value, src_align, size);
        entry_copies.extend([copy, memcpy]);
        Ok((copy, memcpy))
    }

    /// After the rewrite the memcpy source must be the parameter's only use;
    /// anything else is a bug in this pass, reported rather than left behind.
    fn check_only_memcpy_left(&self) -> Result<(), Error> {
        let users = self.value.users();
        match users.as_slice() {
            [only] if calls::is_intrinsic_call(*only, "llvm.memcpy") => Ok(()),
            _ => Err(Error::Internal {
                param: self.describe(),
                what: format!(
                    "uses other than the copy remain: {}",
                    users
                        .iter()
                        .map(|u| format!("`{}`", u.text()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }),
        }
    }
}

#[cfg(test)]
mod tests;
