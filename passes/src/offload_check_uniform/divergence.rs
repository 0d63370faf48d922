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
    /// It may write memory it does not own (not its own allocas) with a
    /// plain (non-atomic) store, memcpy or memset, or calls what may.
    pub writes_memory: bool,
    /// Such a write may store a divergent value, at a divergent address or
    /// under divergent control.
    pub writes_divergent: bool,
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
    /// Each block's place in reverse post-order (`usize::MAX`: unreachable).
    rpo_index: Vec<usize>,
    rpo: Vec<usize>,
    divergent: HashSet<Value<'ctx>>,
    /// Blocks whose terminator branches on a divergent value, in the order
    /// found.
    pub branches: Vec<usize>,
    /// Blocks some divergent branch decides whether a thread runs.
    region: Vec<bool>,
    /// Allocas written with divergent values, with the blocks of those
    /// writes (a load sees them only where such a block reaches it).
    tainted: HashMap<Value<'ctx>, Vec<usize>>,
    bases: HashMap<Value<'ctx>, Vec<Value<'ctx>>>,
    /// Blocks reachable from a block (computed when first asked).
    reachable: HashMap<usize, Vec<bool>>,
}

impl<'ctx> Divergence<'ctx> {
    pub fn is_divergent(&self, value: Value<'ctx>) -> bool {
        self.divergent.contains(&value)
    }

    /// What the function writes to memory it does not own: (any, any
    /// divergent), see [`Summary`].
    pub fn writes(&mut self, summaries: &Summaries<'ctx>) -> (bool, bool) {
        let (mut any, mut divergent) = (false, false);
        // What a path that never returns (a panic) writes, no caller sees.
        let returns = self.reaches_return();
        for b in (0..self.cfg.len()).filter(|&b| returns[b]) {
            for inst in self.cfg.blocks[b].instructions() {
                let (w, d) = self.write_of(b, inst, summaries);
                if d && !divergent {
                    log::debug!(
                        "offload-check-uniform: '{}' may write divergent values: {}",
                        crate::ir::naming::display_symbol(&self.cfg.blocks[b].function().name()),
                        inst.text()
                    );
                }
                any |= w;
                divergent |= d;
            }
        }
        (any, divergent)
    }

    /// Whether each block can reach a `ret`.
    fn reaches_return(&self) -> Vec<bool> {
        let n = self.cfg.len();
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&b| {
                self.cfg.blocks[b]
                    .terminator()
                    .is_some_and(|t| t.opcode() == Some(Opcode::LLVMRet))
            })
            .collect();
        while let Some(b) = stack.pop() {
            if !seen[b] {
                seen[b] = true;
                stack.extend(self.cfg.preds[b].iter().copied());
            }
        }
        seen
    }

    /// Whether `inst` writes memory the function does not own, and whether
    /// divergently.
    fn write_of(
        &mut self,
        b: usize,
        inst: Value<'ctx>,
        summaries: &Summaries<'ctx>,
    ) -> (bool, bool) {
        let own = |d: &mut Self, p: Value<'ctx>| {
            let bases = d.bases_of(p);
            !bases.is_empty() && bases.len() == d.bases_roots(p)
        };
        match inst.opcode() {
            Some(Opcode::LLVMStore) if !inst.is_atomic_or_volatile_access() => {
                let Some(pointer) = inst.operand(1) else {
                    return (false, false);
                };
                if own(self, pointer) {
                    return (false, false);
                }
                (true, self.region[b] || self.operand_divergent(inst))
            }
            _ if is_call_like(inst) => {
                if let Some(_mem) = mem_intrinsic(inst) {
                    let writes_own = inst.operand(0).is_some_and(|p| own(self, p));
                    return if writes_own {
                        (false, false)
                    } else {
                        (true, self.region[b] || self.operand_divergent(inst))
                    };
                }
                match classify(inst) {
                    // An indirect call (formatting, `dyn` methods) may
                    // write; thread-dependent values only if given them.
                    None => (true, self.region[b] || self.operand_divergent(inst)),
                    Some(CallKind::Other) => match callee_summary(inst, summaries) {
                        Some(s) => (
                            s.writes_memory,
                            s.writes_divergent
                                || (s.writes_memory
                                    && (self.region[b] || self.operand_divergent(inst))),
                        ),
                        None => (false, false),
                    },
                    Some(_) => (false, false),
                }
            }
            _ => (false, false),
        }
    }

    /// How many values `pointer` may be based on (allocas or not).
    fn bases_roots(&self, pointer: Value<'ctx>) -> usize {
        let mut roots = 0;
        let mut seen = HashSet::new();
        let mut stack = vec![pointer];
        while let Some(v) = stack.pop() {
            if !seen.insert(v) || seen.len() > 64 {
                continue;
            }
            match v.opcode() {
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
                _ => roots += 1,
            }
        }
        roots
    }

    /// Runs the analysis of `function` to its fixed point.
    pub fn of(function: FunctionValue<'ctx>, summaries: &Summaries<'ctx>) -> Self {
        let cfg = Cfg::of(function);
        let idom = cfg.dominators();
        let loops = cfg.loops(&idom);
        let rpo = cfg.reverse_post_order();
        let n = cfg.len();
        let mut rpo_index = vec![usize::MAX; n];
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b] = i;
        }
        let mut d = Divergence {
            cfg,
            loops,
            rpo_index,
            rpo,
            divergent: HashSet::new(),
            branches: Vec::new(),
            region: vec![false; n],
            tainted: HashMap::new(),
            bases: HashMap::new(),
            reachable: HashMap::new(),
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
        for &(block, inst) in instructions {
            if !self.divergent.contains(&inst) && self.becomes_divergent(block, inst, summaries) {
                log::trace!("offload-check-uniform: divergent: {}", inst.text());
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

    fn becomes_divergent(
        &mut self,
        block: usize,
        inst: Value<'ctx>,
        summaries: &Summaries<'ctx>,
    ) -> bool {
        match inst.opcode() {
            Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => true,
            Some(Opcode::LLVMStore | Opcode::LLVMFence | Opcode::LLVMAlloca) => false,
            Some(Opcode::LLVMLoad) => {
                inst.is_atomic_or_volatile_access()
                    || self.operand_divergent(inst)
                    || inst.operand(0).is_some_and(|p| self.sees_taint(p, block))
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

    /// Whether a load of `pointer` in `block` may read a divergent value
    /// written to one of its allocas.
    fn sees_taint(&mut self, pointer: Value<'ctx>, block: usize) -> bool {
        let writers: Vec<usize> = self
            .bases_of(pointer)
            .iter()
            .filter_map(|a| self.tainted.get(a))
            .flatten()
            .copied()
            .collect();
        writers
            .into_iter()
            .any(|w| w == block || self.reaches(w, block))
    }

    fn reaches(&mut self, from: usize, to: usize) -> bool {
        if !self.reachable.contains_key(&from) {
            let mut seen = vec![false; self.cfg.len()];
            let mut stack: Vec<usize> = self.cfg.succs[from].clone();
            while let Some(x) = stack.pop() {
                if !seen[x] {
                    seen[x] = true;
                    stack.extend(self.cfg.succs[x].iter().copied());
                }
            }
            self.reachable.insert(from, seen);
        }
        self.reachable[&from][to]
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
            log::debug!(
                "offload-check-uniform: divergent branch in '{}': {}",
                crate::ir::naming::display_symbol(&self.cfg.blocks[b].function().name()),
                term.text()
            );
            self.branches.push(b);
            self.mark_joins(b);
            self.mark_loop_exits(b);
            changed = true;
        }
        changed
    }

    /// The joins of the divergent branch ending block `b`: where paths
    /// from two of its successors first meet (each block is labelled, in
    /// reverse post-order, with the successor it is reached from, or is a
    /// join and labels what follows it). Its `phi`s are divergent; the
    /// blocks labelled by a successor run under divergent control.
    fn mark_joins(&mut self, b: usize) {
        let n = self.cfg.len();
        let start = self.rpo_index[b];
        if start == usize::MAX {
            return;
        }
        let mut label = vec![usize::MAX; n];
        let mut joins = Vec::new();
        for &x in &self.rpo[start + 1..] {
            let mut labels: Vec<usize> = Vec::new();
            if self.cfg.succs[b].contains(&x) {
                labels.push(x);
            }
            for &p in &self.cfg.preds[x] {
                let forward = self.rpo_index[p] < self.rpo_index[x];
                if p != b && forward && label[p] != usize::MAX && !labels.contains(&label[p]) {
                    labels.push(label[p]);
                }
            }
            match labels.len() {
                0 => {}
                1 => label[x] = labels[0],
                _ => {
                    label[x] = x;
                    joins.push(x);
                }
            }
        }
        for (x, &origin) in label.iter().enumerate() {
            if origin != usize::MAX && self.cfg.succs[b].contains(&origin) {
                self.region[x] = true;
            }
        }
        for x in joins {
            for inst in self.cfg.blocks[x].instructions() {
                if inst.opcode() == Some(Opcode::LLVMPHI) {
                    self.divergent.insert(inst);
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
                let writers = self.tainted.entry(a).or_default();
                if !writers.contains(&block) {
                    writers.push(block);
                    log::debug!(
                        "offload-check-uniform: {} holds divergent values after {}",
                        a.text(),
                        inst.text()
                    );
                    changed = true;
                }
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
                // An alloca's address stored to memory and written through
                // later is not followed (see docs/uniformity.md).
                let _ = value;
                let mut out = Vec::new();
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
        // A `readonly` (or `readnone`) argument is not written through.
        let written = |i: usize| {
            let i = i as u32;
            crate::ir::attributes::call_param(call, i, "readonly").is_none()
                && crate::ir::attributes::call_param(call, i, "readnone").is_none()
        };
        let pointer_args: Vec<(usize, Vec<Value<'ctx>>)> = args
            .iter()
            .enumerate()
            .filter(|&(i, _)| written(i))
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
            .any(|(_, b)| b.iter().any(|a| self.tainted.contains_key(a)));
        let divergent_args = self.operand_divergent(call) || reads_tainted;
        if let Some(_mem) = mem_intrinsic(call) {
            // Only the destination (argument 0) is written.
            return if divergent_args || in_region {
                pointer_args
                    .into_iter()
                    .filter(|(i, _)| *i == 0)
                    .flat_map(|(_, b)| b)
                    .collect()
            } else {
                Vec::new()
            };
        }
        // A function of the module writes what its summary says; an
        // external one (the C library) writes nothing thread-dependent into
        // a thread's memory unless given thread-dependent arguments.
        let summary = callee_summary(call, summaries);
        let writes_divergent = divergent_args
            || (kind.is_none() && in_region)
            || kind == Some(CallKind::Unchecked)
            || summary.is_some_and(|s| s.writes_divergent || (in_region && s.writes_memory));
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
