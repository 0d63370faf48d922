#![forbid(unsafe_code)]
//! `offload-team-loops`: compiles the x86_64 image's kernels so that one OS
//! thread runs a whole team as loops over its threads, between the team's
//! meeting points (continuation-based synchronization, as AdaptiveCpp's
//! and PoCL's CPU back ends do).
//!
//! Input: an x86_64 module with the `offload` crate's CPU grid (other
//! triples, and modules without `__offload_cpu_run_grid`, are left as they
//! are). Each kernel's entry point calls
//! `__offload_cpu_run_grid(slots, env, thread, team, name, name_len)`:
//! `thread` is the kernel's thread body, `void(ptr env)`, which runs one
//! GPU thread's call of the kernel (`env`, the kernel's arguments, is not
//! written while the grid runs: the team body may read it again); `team`
//! is null. Every thread-dependent
//! query in it is a call of `__offload_cpu_thread_rank`, every meeting
//! point a call of `__offload_cpu_sync_threads` (the team barrier),
//! `__offload_cpu_warp_exchange` or `__offload_cpu_warp_release` (a warp's
//! exchange), the team's record is `__offload_cpu_current()` (the runtime
//! writes none of the fields a kernel reads during a team), the count of
//! team barriers passed is behind `__offload_cpu_barriers()` (the same for
//! a team body call, not across its steps) and a static shared array's
//! address is `__offload_cpu_static_shared(site, bytes, align)` (the same
//! for a whole team); see the `offload` crate's `cpu_grid::hooks`.
//!
//! Guarantees: the runner and the hooks, where the module defines them, get
//! hidden visibility (each copy of the image, one per device, calls its
//! own). For each such call whose thread body the pass can compile,
//! `team` becomes a private constant descriptor `{ ptr team_body, i64
//! frame_bytes, i32 states, i32 has_warp_points, ptr points }`, `points`
//! being `[states x { ptr site, i32 kind }]` (state 0 the kernel's start,
//! kind 0; state k its k-th meeting point, kind 1 barrier, 2 exchange, 3
//! release, and its `Location` site or null). The team body
//! `void(ptr env, ptr ctx, i32 team_size, ptr slots, i32 begin, i32 end,
//! i32 state, ptr next)` runs, for each thread `t` in `begin..end` with
//! `next[t] == state` (the others are skipped: returned, `EXIT` =
//! `u32::MAX`, or stopped at another point), the thread's step from meeting
//! point `state` to the next one it reaches, stores that point's number in
//! `next[t]` (`EXIT` when it returns) and goes on with `t + 1`. `env`,
//! `ctx`, `slots` and `next` are `noalias` (nothing else reaches them
//! during the call). An
//! exchange's step stores the lane's offer in `slots[t]` and resumes with
//! the warp's offers, `slots + (t & !31)`. Values live across a meeting
//! point live in `ctx`: `frame_bytes` per thread, an array of each value
//! at `offset × team_size` (consecutive threads adjacent). The runtime
//! (`offload`'s `cpu_grid::compiled`) calls it step by step and checks that
//! the threads agree on the next point.
//!
//! How: the thread body is cloned; every call of a function that may reach
//! a hook is inlined; the record's calls become `nonnull` and, once the
//! kernel's null tests of it have folded, its loads at constant offsets
//! `!invariant.load` with the size and alignment they show on the calls
//! (`invariant`); each block is split after each meeting point; each
//! use of a value live across a meeting point (defined in a block that
//! reaches the point, used where a path from the point's continuation
//! leads without redefining it) either recomputes it (from constants, the
//! environment, loads from it, the record's fields, the static shared
//! arrays and the rank, never the barrier count: `remat`; once at the top of the use's step when
//! that cannot trap, else right before the use) or loads it from an
//! alloca stored at the definition; every other use keeps its value, whose
//! definition still dominates it; an alloca whose uses can reach a meeting
//! point that can reach another of its uses (or whose address escapes in a
//! block that can reach a meeting point) gets one copy per thread in `ctx`,
//! the others stay private; the calls of `__offload_cpu_current`,
//! `__offload_cpu_barriers` and of `__offload_cpu_static_shared` with
//! constant arguments become one call each in the entry block; the body is wrapped in the loop over `t` with
//! a `switch` on `state` to the kernel's entry or the resume block of each
//! point. Then the function pipeline the team body would have had, with
//! the target machine's costs: SROA and cleanup (the private allocas back
//! into registers), LICM and loop unswitching (one loop over the threads
//! per state, and per shared-memory phase where a kernel checks it), loop
//! deletion and the loop vectorizer. Before (a barrier between a store and
//! a load):
//!
//! ```llvm
//! define internal void @body(ptr %env) {
//!   %t = call i32 @__offload_cpu_thread_rank()
//!   %v = load float, ptr %env
//!   call void @__offload_cpu_sync_threads(ptr @site)
//!   store float %v, ptr %env
//!   ret void
//! }
//! ```
//!
//! After (`@body.team`, simplified, as the pass builds it; the final
//! pipeline then unswitches the loop into one per state):
//!
//! ```llvm
//! team.thread:                        ; t from begin to end
//!   %t = phi i32 [ %begin, %team.entry ], [ %t.next, %team.next ]
//!   %done = icmp uge i32 %t, %end
//!   br i1 %done, label %team.exit, label %team.step
//! team.step:                          ; threads elsewhere are skipped
//!   %v.t = getelementptr i8, ptr %ctx, i64 (4 * t)  ; %v's copy of thread t
//!   ...
//!   switch i32 %state, label %team.next [ i32 0, label %start
//!                                         i32 1, label %team.resume1 ]
//! start:
//!   %v = load float, ptr %env
//!   store float %v, ptr %v.t
//!   store i32 1, ptr %next.t               ; stopped at point 1
//!   br label %team.next
//! team.resume1:
//!   %v1 = load float, ptr %v.t
//!   store float %v1, ptr %env
//!   store i32 -1, ptr %next.t              ; returned
//!   br label %team.next
//! ```
//!
//! Refused (the kernel keeps the thread-per-thread executor; a warning
//! names the kernel and why): a call that may reach a hook and cannot be
//! inlined (recursion, a declaration), an indirect call when a function
//! that may meet has its address taken, `invoke`/`callbr`, allocas outside
//! the entry block, more than 64 KiB of per-thread values.
//!
//! Run: `opt-22 -load-pass-plugin=target/release/liboffload_passes.so
//! -passes=offload-team-loops in.ll -S` (offload-build runs it at the end
//! of the x86_64 image's link-time optimisation).

use std::fmt;

use inkwell::AddressSpace;
use inkwell::GlobalVisibility;
use inkwell::module::{Linkage, Module};
use inkwell::values::{BasicValue, BasicValueEnum, GlobalValue};

use crate::ir::{Value, calls, naming};
use crate::params::ParamError;
use crate::{Diagnostics, ModulePass};

mod demote;
mod frame;
mod invariant;
mod loops;
mod meets;
mod point;
mod remat;
mod skeleton;

/// The runtime function a kernel's entry point calls.
pub const RUN_GRID: &str = "__offload_cpu_run_grid";
pub const RANK: &str = "__offload_cpu_thread_rank";
pub const SYNC: &str = "__offload_cpu_sync_threads";
pub const EXCHANGE: &str = "__offload_cpu_warp_exchange";
pub const RELEASE: &str = "__offload_cpu_warp_release";
/// The team's record, the same for a whole team body call.
pub const CURRENT: &str = "__offload_cpu_current";
/// A static shared array's address, the same for a whole team body call.
pub const STATIC_SHARED: &str = "__offload_cpu_static_shared";
/// Where the team's barriers are counted: the count is the same for a
/// whole team body call, not across its steps.
pub const BARRIERS: &str = "__offload_cpu_barriers";
/// `next[t]` of a thread that returned.
pub const EXIT: u32 = u32::MAX;

/// What a meeting point is (the descriptor's `kind`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Barrier = 1,
    Exchange = 2,
    Release = 3,
}

/// Why a kernel keeps the thread-per-thread executor.
#[derive(Debug)]
pub enum Refusal {
    Signature,
    NotInlined(String),
    TooDeep,
    Invoke,
    DynamicAlloca,
    IndirectCall,
    Frame(u64),
    /// A call of a hook of another signature than the `offload` crate's.
    Hook(String),
    Internal(&'static str),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Signature => {
                write!(f, "its thread body is not a defined `void(ptr)` function")
            }
            Refusal::NotInlined(callee) => {
                write!(
                    f,
                    "it calls '{callee}', which reaches a barrier or warp operation and cannot be inlined"
                )
            }
            Refusal::TooDeep => write!(
                f,
                "more than 256 calls reaching a barrier or warp operation to inline (recursion?)"
            ),
            Refusal::Invoke => write!(f, "it has an `invoke` or `callbr` (unwinding)"),
            Refusal::DynamicAlloca => write!(
                f,
                "it has a stack allocation of run-time size or outside the entry block"
            ),
            Refusal::IndirectCall => {
                write!(
                    f,
                    "it has an indirect call that may reach a barrier or warp operation"
                )
            }
            Refusal::Frame(bytes) => write!(
                f,
                "{bytes} bytes live across its barriers per thread (at most {})",
                frame::MAX_FRAME_BYTES
            ),
            Refusal::Hook(call) => write!(
                f,
                "a call of a CPU grid hook with another signature than the offload crate's: {call}"
            ),
            Refusal::Internal(what) => write!(f, "the pass could not build {what} (please report)"),
        }
    }
}

/// The pass (no parameters).
pub struct OffloadTeamLoops;

/// Why the pass refused the module.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a use of @{RUN_GRID} that is not a call with 6 arguments (a thread body and a null team body): {}",
            self.0
        )
    }
}

impl std::error::Error for Error {}

impl ModulePass for OffloadTeamLoops {
    const NAME: &'static str = "offload-team-loops";
    const CLASS_NAME: &'static str = "OffloadTeamLoopsPass";
    type Error = Error;

    fn parse(params: &[u8]) -> Result<Self, ParamError> {
        crate::pass::no_params(params)?;
        Ok(OffloadTeamLoops)
    }

    fn run(&self, module: &Module<'_>, diagnostics: &mut Diagnostics) -> Result<bool, Error> {
        if !module
            .get_triple()
            .as_str()
            .to_bytes()
            .starts_with(b"x86_64")
        {
            return Ok(false);
        }
        let Some(run_grid) = module.get_function(RUN_GRID) else {
            return Ok(false);
        };
        let mut changed = hide_runtime(module);
        let mut entries = Vec::new();
        for user in Value::from(run_grid).users() {
            let fits = calls::is_call_like(user)
                && calls::called_function(user) == Some(run_grid.into())
                && calls::arg_count(user) == 6;
            if !fits {
                return Err(Error(user.text()));
            }
            entries.push(user);
        }
        let meets = meets::Meets::of(module);
        for call in entries {
            let args = calls::arguments(call);
            if !args[3].is_null_pointer() {
                continue;
            }
            let Some(thread) = args[2]
                .strip_pointer_casts()
                .as_function()
                .filter(|f| f.count_basic_blocks() > 0)
            else {
                return Err(Error(call.text()));
            };
            let kernel = naming::name_of(
                call.block()
                    .expect("a call is in a block")
                    .function()
                    .as_function()
                    .expect("a function"),
            );
            match loops::compile(module, thread, &meets) {
                Ok(body) => {
                    let descriptor = descriptor(module, &body);
                    call.set_operand(3, descriptor.as_pointer_value().into());
                    changed = true;
                }
                Err(why) => diagnostics.warn(format!(
                    "kernel '{kernel}' runs one OS thread per GPU thread (its team is not compiled into loops): {why}"
                )),
            }
        }
        Ok(changed)
    }
}

/// Gives the grid runner and the hooks defined in the module hidden
/// visibility: the image calls its own (a second copy of the image, loaded
/// for another device, would otherwise interpose its definitions, whose
/// per-thread records are its own), and exports only its kernels.
fn hide_runtime(module: &Module<'_>) -> bool {
    let mut changed = false;
    for name in [
        RUN_GRID,
        RANK,
        SYNC,
        EXCHANGE,
        RELEASE,
        CURRENT,
        STATIC_SHARED,
    ] {
        if let Some(f) = module
            .get_function(name)
            .filter(|f| f.count_basic_blocks() > 0)
        {
            let global = f.as_global_value();
            if global.get_visibility() != GlobalVisibility::Hidden {
                global.set_visibility(GlobalVisibility::Hidden);
                changed = true;
            }
        }
    }
    changed
}

/// The team body's descriptor (see the header).
fn descriptor<'ctx>(module: &Module<'ctx>, body: &loops::TeamBody<'ctx>) -> GlobalValue<'ctx> {
    let ctx = module.get_context();
    let ptr = ctx.ptr_type(AddressSpace::default());
    let i32t = ctx.i32_type();
    let point_ty = ctx.struct_type(&[ptr.into(), i32t.into()], false);
    let entry = point_ty.const_named_struct(&[ptr.const_null().into(), i32t.const_zero().into()]);
    let mut points = vec![entry];
    for (kind, site) in &body.points {
        let site: BasicValueEnum<'ctx> = site
            .and_then(|s| s.as_basic())
            .filter(|s| s.is_pointer_value())
            .unwrap_or_else(|| ptr.const_null().into());
        points
            .push(point_ty.const_named_struct(&[site, i32t.const_int(*kind as u64, false).into()]));
    }
    let table_ty = point_ty.array_type(points.len() as u32);
    let table = module.add_global(
        table_ty,
        None,
        &format!("{}.points", body.function.get_name().to_string_lossy()),
    );
    table.set_initializer(&point_ty.const_array(&points));
    table.set_linkage(Linkage::Private);
    table.set_constant(true);
    let warp = body.points.iter().any(|(k, _)| *k != Kind::Barrier);
    let i64t = ctx.i64_type();
    let desc_ty = ctx.struct_type(
        &[
            ptr.into(),
            i64t.into(),
            i32t.into(),
            i32t.into(),
            ptr.into(),
        ],
        false,
    );
    let value = desc_ty.const_named_struct(&[
        body.function.as_global_value().as_pointer_value().into(),
        i64t.const_int(body.frame_bytes, false).into(),
        i32t.const_int(points.len() as u64, false).into(),
        i32t.const_int(u64::from(warp), false).into(),
        table.as_pointer_value().as_basic_value_enum(),
    ]);
    let desc = module.add_global(
        desc_ty,
        None,
        &format!("{}.desc", body.function.get_name().to_string_lossy()),
    );
    desc.set_initializer(&value);
    desc.set_linkage(Linkage::Private);
    desc.set_constant(true);
    desc
}
