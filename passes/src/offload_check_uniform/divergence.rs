//! The divergence (uniformity) analysis of one function: which values can
//! differ between the threads of a team, and which branches therefore send
//! the threads of a team different ways.
//!
//! A value is divergent when it is
//! - a thread-dependent query (a source: `__offload_cpu_thread_rank`,
//!   `tid.*`, `laneid`, `workitem.id.*`, `mbcnt`, clocks), the result of an
//!   atomic (`atomicrmw`, `cmpxchg`, an atomic or volatile `load`, an atomic
//!   intrinsic) or of a warp operation;
//! - data-dependent on a divergent value (any operand divergent; a call
//!   with a divergent argument; a call of a function of the module whose
//!   result is divergent; an indirect call);
//! - a `load` from a divergent address, or from a thread's own memory (an
//!   `alloca`) that was written with a divergent value or address, under
//!   divergent control, or by a call that may write divergent values;
//! - sync-dependent on a divergent branch: a `phi` at a join of the
//!   branch (a block two of its successors reach, up to its immediate
//!   post-dominator), and every use outside a loop of a value defined in it
//!   when a divergent branch exits the loop.
//!
//! Arguments are uniform unless a call in the module passes a divergent
//! value ([`Summary`]); constants, globals, team ids and sizes, grid sizes
//! and non-atomic loads from uniform addresses of shared memory are uniform
//! (a thread reading what another writes without a barrier in between is a
//! data race, which the rule does not have to cover).

use std::collections::{HashMap, HashSet};

use inkwell::values::FunctionValue;

use super::operations::{CallKind, classify};
use crate::ir::calls::{called_function, is_call_like, mem_intrinsic};
use crate::ir::cfg::{Cfg, Loop};
use crate::ir::{Opcode, Value};

/// What the analysis of a function tells the analyses of its callers and
/// callees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Some `ret` returns a divergent value.
    pub divergent_return: bool,
    /// Some value in it is divergent (so what it writes may be).
    pub divergent_inside: bool,
    /// Parameter `i` receives a divergent value at some call.
    pub divergent_args: Vec<bool>,
    /// It reaches a collective (directly or through calls).
    pub collective: bool,
}

/// The summaries of the module's defined functions.
pub type Summaries<'ctx> = HashMap<FunctionValue<'ctx>, Summary>;

/// The analysis of one function.
pub struct Divergence<'ctx> {
    pub cfg: Cfg<'ctx>,
    pub loops: Vec<Loop>,
    ipdom: Vec<Option<usize>>,
    divergent: HashSet<Value<'ctx>>,
    /// Blocks whose terminator branches on a divergent value, in the order
    /// found.
    pub branches: Vec<usize>,
    /// Blocks some divergent branch decides whether a thread runs.
    region: Vec<bool>,
    tainted: HashSet<Value<'ctx>>,
    bases: HashMap<Value<'ctx>, Vec<Value<'ctx>>>,
}

impl<'ctx> Divergence<'ctx> {
    pub fn is_divergent(&self, value: Value<'ctx>) -> bool {
        self.divergent.contains(&value)
    }

    pub fn any_divergent(&self) -> bool {
        !self.divergent.is_empty()
    }

    /// Runs the analysis of `function` to its fixed point.
    pub fn of(function: FunctionValue<'ctx>, summaries: &Summaries<'ctx>) -> Self {
        let cfg = Cfg::of(function);
        let idom = cfg.dominators();
        let loops = cfg.loops(&idom);
        let ipdom = cfg.post_dominators();
        let n = cfg.len();
        let mut d = Divergence {
            cfg,
            loops,
            ipdom,
            divergent: HashSet::new(),
            branches: Vec::new(),
            region: vec![false; n],
            tainted: HashSet::new(),
            bases: HashMap::new(),
        };
        if let Some(summary) = summaries.get(&function) {
            for (i, &div) in summary.divergent_args.iter().enumerate() {
                if div && let Some(p) = crate::ir::naming::param(function, i as u32) {
                    d.divergent.insert(p);
                }
            }
        }
        let instructions: Vec<(usize, Value<'ctx>)> = d
            .cfg
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(i, b)| b.instructions().into_iter().map(move |v| (i, v)))
            .collect();
        loop {
            let mut changed = d.propagate(&instructions, summaries);
            changed |= d.sync_dependence();
            changed |= d.taint(&instructions, summaries);
            if !changed {
                break;
            }
        }
        d
    }

    /// One sweep of the data-dependence rules; whether anything changed.
    fn propagate(
        &mut self,
        instructions: &[(usize, Value<'ctx>)],
        summaries: &Summaries<'ctx>,
    ) -> bool {
        let mut changed = false;
        for &(_, inst) in instructions {
            if !self.divergent.contains(&inst) && self.becomes_divergent(inst, summaries) {
                self.divergent.insert(inst);
                changed = true;
            }
        }
        changed
    }

    fn operand_divergent(&self, inst: Value<'ctx>) -> bool {
        (0..inst.operand_count())
            .any(|i| inst.operand(i).is_some_and(|v| self.divergent.contains(&v)))
    }

    fn becomes_divergent(&mut self, inst: Value<'ctx>, summaries: &Summaries<'ctx>) -> bool {
        match inst.opcode() {
            Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => true,
            Some(Opcode::LLVMStore | Opcode::LLVMFence | Opcode::LLVMAlloca) => false,
            Some(Opcode::LLVMLoad) => {
                inst.is_atomic_or_volatile_access()
                    || self.operand_divergent(inst)
                    || inst
                        .operand(0)
                        .is_some_and(|p| self.bases_of(p).iter().any(|a| self.tainted.contains(a)))
            }
            _ if is_call_like(inst) => self.call_divergent(inst, summaries),
            _ => self.operand_divergent(inst),
        }
    }

    fn call_divergent(&self, call: Value<'ctx>, summaries: &Summaries<'ctx>) -> bool {
        let Some(kind) = classify(call) else {
            return true;
        };
        match kind {
            CallKind::Source | CallKind::Unchecked | CallKind::Collective(_) => true,
            CallKind::NoWrite | CallKind::Other => {
                self.operand_divergent(call)
                    || callee_summary(call, summaries).is_some_and(|s| s.divergent_return)
            }
        }
    }

    /// The allocas `pointer` may point into (through GEPs, casts, phis and
    /// selects).
    fn bases_of(&mut self, pointer: Value<'ctx>) -> Vec<Value<'ctx>> {
        if let Some(known) = self.bases.get(&pointer) {
            return known.clone();
        }
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![pointer];
        while let Some(v) = stack.pop() {
            if !seen.insert(v) || seen.len() > 64 {
                continue;
            }
            match v.opcode() {
                Some(Opcode::LLVMAlloca) => out.push(v),
                Some(
                    Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast,
                ) => {
                    stack.extend(v.operand(0));
                }
                Some(Opcode::LLVMPHI) => {
                    stack.extend((0..v.operand_count()).filter_map(|i| v.operand(i)))
                }
                Some(Opcode::LLVMSelect) => {
                    stack.extend([v.operand(1), v.operand(2)].into_iter().flatten())
                }
                _ => {}
            }
        }
        self.bases.insert(pointer, out.clone());
        out
    }

    /// Marks the joins and loop exits of divergent branches not seen yet.
    fn sync_dependence(&mut self) -> bool {
        let mut changed = false;
        for b in 0..self.cfg.len() {
            if self.branches.contains(&b) {
                continue;
            }
            let Some(term) = self.cfg.blocks[b].terminator() else {
                continue;
            };
            if self.cfg.succs[b].len() < 2 || !self.divergent.contains(&term) {
                continue;
            }
            self.branches.push(b);
            self.mark_joins(b);
            self.mark_loop_exits(b);
            changed = true;
        }
        changed
    }

    /// Blocks reachable from `from` without passing a block in `stop`.
    fn reach(&self, from: usize, stop: &[usize]) -> Vec<bool> {
        let mut seen = vec![false; self.cfg.len()];
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            if seen[x] {
                continue;
            }
            seen[x] = true;
            if stop.contains(&x) {
                continue;
            }
            stack.extend(self.cfg.succs[x].iter().copied());
        }
        seen
    }

    fn mark_joins(&mut self, b: usize) {
        let n = self.cfg.len();
        let ipd = self.ipdom[b].filter(|&p| p < n);
        let stop: Vec<usize> = std::iter::once(b).chain(ipd).collect();
        let reached: Vec<Vec<bool>> = self.cfg.succs[b]
            .iter()
            .map(|&s| self.reach(s, &[b]))
            .collect();
        let mut region = vec![false; n];
        for &s in &self.cfg.succs[b] {
            for (x, r) in self.reach(s, &stop).into_iter().enumerate() {
                region[x] |= r && x != b;
            }
        }
        for x in 0..n {
            if !region[x] {
                continue;
            }
            self.region[x] = self.region[x] || Some(x) != ipd;
            let from = reached.iter().filter(|r| r[x]).count();
            if from >= 2 {
                for inst in self.cfg.blocks[x].instructions() {
                    if inst.opcode() == Some(Opcode::LLVMPHI) {
                        self.divergent.insert(inst);
                    }
                }
            }
        }
    }

    /// Values defined in a loop that `b` exits, used outside it: the
    /// threads leave the loop in different iterations.
    fn mark_loop_exits(&mut self, b: usize) {
        let exited: Vec<usize> = (0..self.loops.len())
            .filter(|&l| self.exits(b, l))
            .collect();
        for l in exited {
            for x in 0..self.cfg.len() {
                if !self.loops[l].blocks[x] {
                    continue;
                }
                for inst in self.cfg.blocks[x].instructions() {
                    for user in inst.users() {
                        let outside = user
                            .block()
                            .and_then(|ub| self.cfg.index(ub))
                            .is_some_and(|ub| !self.loops[l].blocks[ub]);
                        if outside {
                            self.divergent.insert(user);
                        }
                    }
                }
            }
        }
    }

    /// Whether block `b` branches out of loop `l` (it is in the loop and a
    /// successor is not).
    pub fn exits(&self, b: usize, l: usize) -> bool {
        let blocks = &self.loops[l].blocks;
        blocks[b] && self.cfg.succs[b].iter().any(|&s| !blocks[s])
    }

    /// Taints the allocas written with divergent values; whether any new.
    fn taint(
        &mut self,
        instructions: &[(usize, Value<'ctx>)],
        summaries: &Summaries<'ctx>,
    ) -> bool {
        let mut changed = false;
        for &(block, inst) in instructions {
            let targets = self.written_allocas(block, inst, summaries);
            for a in targets {
                changed |= self.tainted.insert(a);
            }
        }
        changed
    }

    /// The allocas `inst` may write divergent values into.
    fn written_allocas(
        &mut self,
        block: usize,
        inst: Value<'ctx>,
        summaries: &Summaries<'ctx>,
    ) -> Vec<Value<'ctx>> {
        let in_region = self.region[block];
        match inst.opcode() {
            Some(Opcode::LLVMStore) => {
                let (Some(value), Some(pointer)) = (inst.operand(0), inst.operand(1)) else {
                    return Vec::new();
                };
                // An alloca's address stored anywhere escapes: anything
                // may write it.
                let mut out = self.bases_of(value);
                if in_region || self.divergent.contains(&value) || self.divergent.contains(&pointer)
                {
                    out.extend(self.bases_of(pointer));
                }
                out
            }
            _ if is_call_like(inst) => self.call_written_allocas(in_region, inst, summaries),
            _ => Vec::new(),
        }
    }

    fn call_written_allocas(
        &mut self,
        in_region: bool,
        call: Value<'ctx>,
        summaries: &Summaries<'ctx>,
    ) -> Vec<Value<'ctx>> {
        let args = crate::ir::calls::arguments(call);
        let pointer_args: Vec<(usize, Vec<Value<'ctx>>)> = args
            .iter()
            .enumerate()
            .map(|(i, &a)| (i, self.bases_of(a)))
            .filter(|(_, b)| !b.is_empty())
            .collect();
        if pointer_args.is_empty() {
            return Vec::new();
        }
        let kind = classify(call);
        if matches!(kind, Some(CallKind::NoWrite | CallKind::Collective(_))) {
            return Vec::new();
        }
        let reads_tainted = pointer_args
            .iter()
            .any(|(_, b)| b.iter().any(|a| self.tainted.contains(a)));
        let divergent = in_region || self.operand_divergent(call) || reads_tainted;
        if let Some(_mem) = mem_intrinsic(call) {
            // Only the destination (argument 0) is written.
            return if divergent {
                pointer_args
                    .into_iter()
                    .filter(|(i, _)| *i == 0)
                    .flat_map(|(_, b)| b)
                    .collect()
            } else {
                Vec::new()
            };
        }
        let writes_divergent = divergent
            || kind.is_none()
            || kind == Some(CallKind::Source)
            || kind == Some(CallKind::Unchecked)
            || callee_summary(call, summaries).is_some_and(|s| s.divergent_inside);
        if writes_divergent {
            pointer_args.into_iter().flat_map(|(_, b)| b).collect()
        } else {
            Vec::new()
        }
    }
}

/// The summary of a call's callee, when it is a function of the module.
pub fn callee_summary<'a, 'ctx>(
    call: Value<'ctx>,
    summaries: &'a Summaries<'ctx>,
) -> Option<&'a Summary> {
    let callee = called_function(call)?.as_function()?;
    summaries.get(&callee)
}
