//! What the check knows of calls, by callee name, for the three targets:
//! the team barriers and warp operations (collectives), the sources of
//! divergence, and the `unsafe` forms the check leaves to their caller.

use crate::ir::Value;
use crate::ir::calls::called_function;

/// A collective: the threads of a team, or the lanes of a warp, meet there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collective {
    /// `sync_threads`: `__offload_cpu_sync_threads`, `llvm.nvvm.barrier*`,
    /// `llvm.amdgcn.s.barrier*`.
    TeamBarrier,
    /// A shuffle, vote or reduction: `__offload_cpu_warp_exchange`,
    /// `llvm.nvvm.shfl.sync.*`, `llvm.nvvm.vote.*`, `llvm.amdgcn.ds.bpermute`,
    /// `llvm.amdgcn.ballot`, ...
    WarpOperation,
}

impl Collective {
    pub fn describe(self) -> &'static str {
        match self {
            Collective::TeamBarrier => "the team barrier `sync_threads`",
            Collective::WarpOperation => "a warp operation (shuffle, vote or reduction)",
        }
    }
}

/// What a call is to the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    /// A meeting point; its result (if any) differs between lanes.
    Collective(Collective),
    /// Its result differs between the threads of a team (thread and lane
    /// ids, atomics, clocks).
    Source,
    /// An `unsafe` unchecked form: not checked here, result divergent.
    Unchecked,
    /// Reads memory through its pointer arguments and writes none of it
    /// (`lifetime`, debug and assumption intrinsics; the CPU grid's warp
    /// exchange reads the lane's offer).
    NoWrite,
    /// Anything else: a function of its arguments (and, for a defined
    /// function, of what its summary says).
    Other,
}

/// The x86_64 image's hooks (`offload::cpu_grid::hooks`).
pub const CPU_THREAD_RANK: &str = "__offload_cpu_thread_rank";
pub const CPU_SYNC_THREADS: &str = "__offload_cpu_sync_threads";
pub const CPU_WARP_EXCHANGE: &str = "__offload_cpu_warp_exchange";
pub const CPU_WARP_RELEASE: &str = "__offload_cpu_warp_release";
/// The prefix of the `unsafe` forms' never-inlined entry points
/// (`offload::sync::sync_threads_unchecked`, `offload::warp::*_unchecked`).
pub const UNCHECKED_PREFIX: &str = "__offload_unchecked_";

const TEAM_BARRIERS: &[&str] = &[
    "llvm.nvvm.barrier",
    "llvm.nvvm.bar.sync",
    "llvm.amdgcn.s.barrier",
];
const WARP_OPERATIONS: &[&str] = &[
    "llvm.nvvm.shfl.",
    "llvm.nvvm.vote.",
    "llvm.nvvm.match.",
    "llvm.nvvm.redux.sync",
    "llvm.nvvm.bar.warp.sync",
    "llvm.amdgcn.ds.bpermute",
    "llvm.amdgcn.ds.permute",
    "llvm.amdgcn.ds.swizzle",
    "llvm.amdgcn.ballot",
    "llvm.amdgcn.mov.dpp",
    "llvm.amdgcn.update.dpp",
    "llvm.amdgcn.permlane",
    "llvm.amdgcn.wave.reduce",
];
const SOURCES: &[&str] = &[
    "llvm.nvvm.read.ptx.sreg.tid.",
    "llvm.nvvm.read.ptx.sreg.laneid",
    "llvm.nvvm.read.ptx.sreg.lanemask",
    "llvm.nvvm.read.ptx.sreg.warpid",
    "llvm.nvvm.read.ptx.sreg.smid",
    "llvm.nvvm.read.ptx.sreg.clock",
    "llvm.nvvm.read.ptx.sreg.globaltimer",
    "llvm.nvvm.atom",
    "llvm.amdgcn.workitem.id.",
    "llvm.amdgcn.mbcnt.",
    "llvm.amdgcn.s.memtime",
    "llvm.amdgcn.s.memrealtime",
    "llvm.readcyclecounter",
];
const NO_WRITE: &[&str] = &[
    "llvm.lifetime.",
    "llvm.dbg.",
    "llvm.assume",
    "llvm.experimental.noalias.scope.decl",
    "llvm.prefetch",
];

/// What `call` (a call-like instruction) is; `None` for an indirect call.
pub fn classify(call: Value<'_>) -> Option<CallKind> {
    let callee = called_function(call)?;
    Some(classify_name(&callee.name()))
}

pub fn classify_name(name: &str) -> CallKind {
    let starts = |list: &[&str]| list.iter().any(|p| name.starts_with(p));
    match name {
        CPU_SYNC_THREADS => return CallKind::Collective(Collective::TeamBarrier),
        CPU_WARP_EXCHANGE => return CallKind::Collective(Collective::WarpOperation),
        CPU_THREAD_RANK => return CallKind::Source,
        // The second half of an exchange: the exchange is the meeting point.
        CPU_WARP_RELEASE => return CallKind::NoWrite,
        _ => {}
    }
    if name.starts_with(UNCHECKED_PREFIX) {
        CallKind::Unchecked
    } else if starts(TEAM_BARRIERS) {
        CallKind::Collective(Collective::TeamBarrier)
    } else if starts(WARP_OPERATIONS) {
        CallKind::Collective(Collective::WarpOperation)
    } else if starts(SOURCES) || (name.starts_with("llvm.") && name.contains(".atomic")) {
        CallKind::Source
    } else if starts(NO_WRITE) {
        CallKind::NoWrite
    } else {
        CallKind::Other
    }
}

/// The operand that names a CPU hook's source site (`&'static Location`),
/// so one site inlined or duplicated into several calls is one meeting
/// point, as the CPU grid compares them.
pub fn site_operand(call: Value<'_>) -> Option<Value<'_>> {
    let name = called_function(call)?.name();
    match name.as_str() {
        CPU_SYNC_THREADS => call.operand(0),
        CPU_WARP_EXCHANGE => call.operand(1),
        _ => None,
    }
}
