#![forbid(unsafe_code)]
//! `offload-check-uniform`: refuses a module in which a team barrier or a
//! warp operation can be reached by some threads of a team (lanes of a
//! warp) and not by others, the one rule of `offload`'s `sync_threads` and
//! `warp::*` that makes them safe functions.
//!
//! Input: a device module of any target, after inlining (offload-build
//! runs it at the end of the device build's link-time optimisation,
//! `OFFLOAD_PASSES_OPTIMIZER_LAST`, so it sees each kernel with the
//! `offload` crate's code inlined into it). The collectives and the sources
//! of divergence are known by name ([`operations`]): on x86_64 the CPU
//! grid's hooks (`__offload_cpu_sync_threads`, `__offload_cpu_warp_exchange`,
//! `__offload_cpu_thread_rank`), on NVPTX `llvm.nvvm.barrier*`,
//! `llvm.nvvm.shfl.sync.*`, `llvm.nvvm.vote.*` and the `tid`/`laneid`
//! registers, on AMDGPU `llvm.amdgcn.s.barrier`, `ds.bpermute`, `ballot`,
//! `workitem.id.*` and `mbcnt`. One analysis serves all three
//! ([`divergence`]): a host-only build refuses what a GPU build would.
//!
//! Guarantees: the module is unchanged (with parameter `strip-debug-info`,
//! its debug info is removed after a successful check, for pipelines that
//! run the check once, last; offload-build runs it before and after fat
//! LTO and lets the image's link strip the line tables it enables). Every defined function that reaches
//! a collective is checked ([`check`]): after each branch on a divergent
//! value, every path reaches the same next collective, or returns. A
//! failure is an error naming the function (demangled, from debug info
//! where the collective was written), both meeting points and the branch
//! with their source lines, and the way out: the `unsafe` forms
//! (`sync_threads_unchecked`, `warp::*_unchecked`), which call
//! `__offload_unchecked_*` entry points the check does not look into.
//!
//! Run: `opt-22 -load-pass-plugin=target/release/liboffload_passes.so
//! -passes=offload-check-uniform in.ll -disable-output`.
//!
//! Before (refused; x86_64 hooks, a thread-dependent barrier):
//! ```llvm
//! %rank = call i32 @__offload_cpu_thread_rank()
//! %low = icmp ult i32 %rank, 16
//! br i1 %low, label %sync, label %done
//! sync:
//!   call void @__offload_cpu_sync_threads(ptr @site)
//!   br label %done
//! done:
//!   call void @__offload_cpu_sync_threads(ptr @site2)
//! ```
//! gives `offload-check-uniform: kernel 'k': after the thread-dependent
//! branch at src/lib.rs:4:8, some threads of a team (lanes of a warp) reach
//! the team barrier `sync_threads` at src/lib.rs:5:9 and others the team
//! barrier `sync_threads` at src/lib.rs:7:5. Every thread ...` (the lines
//! from the instructions' debug locations).

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::ir::calls::{called_function, is_call_like};
use crate::ir::debug_loc::{Frame, strip_module_debug_info};
use crate::ir::naming::name_of;
use crate::ir::{Opcode, Value};
use crate::params::{self, Key, ParamError};
use crate::{Diagnostics, ModulePass};

mod check;
mod divergence;
mod operations;

use divergence::{Divergence, Summaries, Summary};
use operations::{CallKind, UNCHECKED_PREFIX, classify};

/// The pass; `strip-debug-info` removes the module's debug info after a
/// successful check.
#[derive(Default)]
pub struct OffloadCheckUniform {
    strip_debug_info: bool,
}

/// Why the pass refused the module: one mismatch per function.
#[derive(Debug)]
pub struct Error(Vec<check::Mismatch>);

fn located(what: &str, frame: &Option<Frame>) -> String {
    match frame {
        Some(f) => format!("{what} at {f}"),
        None => format!("{what} (no line information)"),
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "kernel '{}': {}, some threads of a team (lanes of a warp) reach {} and others {}. \
                 Every thread of the team (lane of the warp) that has not returned must reach the same \
                 barriers and warp operations in the same order; make the condition uniform (kernel \
                 arguments, team ids and sizes, loads of uniform addresses), or, if the code ensures it \
                 by other means, call the `unsafe` forms (`offload::sync::sync_threads_unchecked`, \
                 `offload::warp::*_unchecked`), whose contract is that promise",
                m.function,
                located("after the thread-dependent branch", &m.branch).replacen(
                    " (no line information)",
                    " (a branch without line information)",
                    1
                ),
                located(&m.first.0, &m.first.1),
                located(&m.second.0, &m.second.1),
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl ModulePass for OffloadCheckUniform {
    const NAME: &'static str = "offload-check-uniform";
    const CLASS_NAME: &'static str = "OffloadCheckUniformPass";
    type Error = Error;

    fn parse(text: &[u8]) -> Result<Self, ParamError> {
        let mut pass = OffloadCheckUniform::default();
        for param in params::parse(text, &[Key::once("strip-debug-info")])? {
            if param.value.is_some() {
                return Err(
                    param.invalid("is a flag: write 'strip-debug-info', no value".to_owned())
                );
            }
            pass.strip_debug_info = true;
        }
        Ok(pass)
    }

    fn run(&self, module: &Module<'_>, _diagnostics: &mut Diagnostics) -> Result<bool, Error> {
        let functions: Vec<FunctionValue<'_>> = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .collect();
        let Some(summaries) = summarise(&functions) else {
            // No collective anywhere: nothing to check.
            return Ok(self.strip_debug_info && strip_module_debug_info(module));
        };
        let mut mismatches = Vec::new();
        for &f in &functions {
            let name = name_of(f);
            let skipped = name.starts_with(UNCHECKED_PREFIX) || is_cpu_executor(&name);
            if skipped || !summaries.get(&f).is_some_and(|s| s.collective) {
                continue;
            }
            let d = Divergence::of(f, &summaries);
            if let Some(m) = check::check(&d, &summaries, &name_of(f)) {
                mismatches.push(m);
            }
        }
        if !mismatches.is_empty() {
            return Err(Error(mismatches));
        }
        Ok(self.strip_debug_info && strip_module_debug_info(module))
    }
}

/// The CPU grid's executor (`offload::cpu_grid`): the code that starts a
/// team's threads and runs the kernel in each, through the never-inlined
/// `run_kernel`, the function the check sees the kernel in. Its own
/// bookkeeping (thread creation, its barriers' atomics) is not kernel code.
const CPU_EXECUTOR: &[&str] = &[
    "offload::cpu_grid::run_grid",
    "offload::cpu_grid::run_team_threads",
    "offload::cpu_grid::start",
    "<offload::cpu_grid::Launch>::run_thread",
    "<offload::cpu_grid::Launch>::run_alone",
];

fn is_cpu_executor(name: &str) -> bool {
    CPU_EXECUTOR.iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    })
}

/// The calls in `f`.
fn calls<'ctx>(f: FunctionValue<'ctx>) -> Vec<Value<'ctx>> {
    crate::ir::cfg::blocks(f)
        .into_iter()
        .flat_map(|b| b.instructions())
        .filter(|&i| is_call_like(i))
        .collect()
}

/// The module's summaries at their fixed point: which functions reach a
/// collective, return divergent values, compute any, and receive divergent
/// arguments; `None` when no function reaches a collective.
fn summarise<'ctx>(functions: &[FunctionValue<'ctx>]) -> Option<Summaries<'ctx>> {
    let mut summaries: Summaries<'ctx> = functions
        .iter()
        .map(|&f| {
            let direct = !name_of(f).starts_with(UNCHECKED_PREFIX)
                && calls(f)
                    .into_iter()
                    .any(|c| matches!(classify(c), Some(CallKind::Collective(_))));
            let summary = Summary {
                collective: direct,
                divergent_args: vec![false; f.count_params() as usize],
                ..Summary::default()
            };
            (f, summary)
        })
        .collect();
    propagate_collective(functions, &mut summaries);
    if !summaries.values().any(|s| s.collective) {
        return None;
    }
    loop {
        let mut changed = false;
        for &f in functions {
            let mut d = Divergence::of(f, &summaries);
            changed |= update(f, &mut d, &mut summaries);
        }
        if !changed {
            return Some(summaries);
        }
    }
}

/// Marks callers of collective-reaching functions, to the fixed point.
fn propagate_collective<'ctx>(functions: &[FunctionValue<'ctx>], summaries: &mut Summaries<'ctx>) {
    let callees: Vec<(FunctionValue<'ctx>, Vec<FunctionValue<'ctx>>)> = functions
        .iter()
        .filter(|f| !name_of(**f).starts_with(UNCHECKED_PREFIX))
        .map(|&f| {
            let called = calls(f)
                .into_iter()
                .filter_map(|c| called_function(c)?.as_function())
                .collect();
            (f, called)
        })
        .collect();
    loop {
        let mut changed = false;
        for (f, called) in &callees {
            let reaches = called
                .iter()
                .any(|c| summaries.get(c).is_some_and(|s| s.collective));
            if let Some(s) = summaries.get_mut(f)
                && reaches
                && !s.collective
            {
                s.collective = true;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// Folds one function's analysis into the summaries; whether any changed.
fn update<'ctx>(
    f: FunctionValue<'ctx>,
    d: &mut Divergence<'ctx>,
    summaries: &mut Summaries<'ctx>,
) -> bool {
    let mut changed = false;
    let blocks = crate::ir::cfg::blocks(f);
    let returns_divergent = blocks.iter().filter_map(|b| b.terminator()).any(|t| {
        t.opcode() == Some(Opcode::LLVMRet) && t.operand(0).is_some_and(|v| d.is_divergent(v))
    });
    let (writes, writes_divergent) = d.writes(summaries);
    if let Some(s) = summaries.get_mut(&f) {
        for (bit, now) in [
            (&mut s.divergent_return, returns_divergent),
            (&mut s.writes_memory, writes),
            (&mut s.writes_divergent, writes_divergent),
        ] {
            if now && !*bit {
                *bit = true;
                changed = true;
            }
        }
    }
    for call in calls(f) {
        let Some(callee) = called_function(call).and_then(Value::as_function) else {
            continue;
        };
        let Some(s) = summaries.get_mut(&callee) else {
            continue;
        };
        for (i, arg) in crate::ir::calls::arguments(call).into_iter().enumerate() {
            if d.is_divergent(arg) && s.divergent_args.get(i) == Some(&false) {
                s.divergent_args[i] = true;
                changed = true;
            }
        }
    }
    changed
}
