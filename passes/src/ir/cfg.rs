//! A function's control-flow graph by block index: successors,
//! predecessors, reverse post-order, dominators and natural loops (LLVM's
//! `DominatorTree` and `LoopInfo`, which the C API does not reach).

use std::collections::HashMap;

use inkwell::values::FunctionValue;
use llvm_sys::core as llvm;

use super::handles::{Block, Value};

/// The blocks of a function, numbered in layout order (the entry is 0).
pub struct Cfg<'ctx> {
    pub blocks: Vec<Block<'ctx>>,
    index: HashMap<Block<'ctx>, usize>,
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
}

/// A natural loop: its header and whether each block is in it.
pub struct Loop {
    pub header: usize,
    pub blocks: Vec<bool>,
}

/// The successor blocks of a terminator, in operand order (repeats kept).
pub fn successors<'ctx>(terminator: Value<'ctx>) -> Vec<Block<'ctx>> {
    // SAFETY: LLVMIsATerminatorInst accepts any value; a terminator has
    // LLVMGetNumSuccessors successors, each a live block.
    unsafe {
        let raw = terminator.as_raw();
        if llvm::LLVMIsATerminatorInst(raw).is_null() {
            return Vec::new();
        }
        (0..llvm::LLVMGetNumSuccessors(raw))
            .filter_map(|i| Block::from_raw_opt(llvm::LLVMGetSuccessor(raw, i)))
            .collect()
    }
}

/// The blocks of a function, in layout order.
pub fn blocks<'ctx>(function: FunctionValue<'ctx>) -> Vec<Block<'ctx>> {
    let mut out = Vec::new();
    // SAFETY: walks the blocks of a live function.
    unsafe {
        let mut block = llvm::LLVMGetFirstBasicBlock(Value::from(function).as_raw());
        while let Some(b) = Block::from_raw_opt(block) {
            out.push(b);
            block = llvm::LLVMGetNextBasicBlock(block);
        }
    }
    out
}

impl<'ctx> Cfg<'ctx> {
    pub fn of(function: FunctionValue<'ctx>) -> Self {
        let blocks = blocks(function);
        let index: HashMap<_, _> = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut succs = vec![Vec::new(); blocks.len()];
        let mut preds = vec![Vec::new(); blocks.len()];
        for (i, block) in blocks.iter().enumerate() {
            let Some(terminator) = block.terminator() else {
                continue;
            };
            for s in successors(terminator) {
                if let Some(&j) = index.get(&s)
                    && !succs[i].contains(&j)
                {
                    succs[i].push(j);
                    preds[j].push(i);
                }
            }
        }
        Cfg {
            blocks,
            index,
            succs,
            preds,
        }
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    pub fn index(&self, block: Block<'ctx>) -> Option<usize> {
        self.index.get(&block).copied()
    }

    /// The immediate dominator of each block (the entry: itself; `None`:
    /// unreachable from the entry).
    pub fn dominators(&self) -> Vec<Option<usize>> {
        if self.blocks.is_empty() {
            return Vec::new();
        }
        immediate_dominators(0, &self.succs, &self.preds)
    }

    /// The immediate dominators when the function is entered at any of
    /// `roots` (through a virtual entry above them) and the edges `cut`
    /// are gone: each block's immediate dominator, `None` for a root, for a
    /// block only the virtual entry dominates (reached from several roots)
    /// and for one not reached at all.
    pub fn dominators_from(&self, roots: &[usize], cut: &[(usize, usize)]) -> Vec<Option<usize>> {
        let n = self.len();
        let mut succs: Vec<Vec<usize>> = self
            .succs
            .iter()
            .enumerate()
            .map(|(b, s)| {
                s.iter()
                    .copied()
                    .filter(|&t| !cut.contains(&(b, t)))
                    .collect()
            })
            .collect();
        succs.push(roots.iter().copied().filter(|&r| r < n).collect());
        let mut preds = vec![Vec::new(); n + 1];
        for (b, s) in succs.iter().enumerate() {
            for &t in s {
                preds[t].push(b);
            }
        }
        let idom = immediate_dominators(n, &succs, &preds);
        idom[..n].iter().map(|d| d.filter(|&d| d != n)).collect()
    }

    /// The blocks reachable from the entry in reverse post-order.
    pub fn reverse_post_order(&self) -> Vec<usize> {
        if self.blocks.is_empty() {
            return Vec::new();
        }
        reverse_post_order(0, &self.succs)
    }

    /// The natural loops (one per header, its back edges merged).
    pub fn loops(&self, idom: &[Option<usize>]) -> Vec<Loop> {
        let mut loops: Vec<Loop> = Vec::new();
        for latch in 0..self.len() {
            for &header in &self.succs[latch] {
                if !dominates(idom, header, latch) {
                    continue;
                }
                let at = match loops.iter().position(|l| l.header == header) {
                    Some(at) => at,
                    None => {
                        let mut blocks = vec![false; self.len()];
                        blocks[header] = true;
                        loops.push(Loop { header, blocks });
                        loops.len() - 1
                    }
                };
                let body = &mut loops[at].blocks;
                let mut stack = vec![latch];
                while let Some(b) = stack.pop() {
                    if !body[b] {
                        body[b] = true;
                        stack.extend(self.preds[b].iter().copied());
                    }
                }
            }
        }
        loops
    }
}

/// Whether `a` dominates `b` in the tree `idom` (a block dominates itself).
pub fn dominates(idom: &[Option<usize>], a: usize, b: usize) -> bool {
    let mut at = b;
    loop {
        if at == a {
            return true;
        }
        match idom.get(at).copied().flatten() {
            Some(up) if up != at => at = up,
            _ => return false,
        }
    }
}

/// Cooper, Harvey and Kennedy's iterative dominators from `entry`.
fn immediate_dominators(
    entry: usize,
    succs: &[Vec<usize>],
    preds: &[Vec<usize>],
) -> Vec<Option<usize>> {
    let order = reverse_post_order(entry, succs);
    let mut rank = vec![usize::MAX; succs.len()];
    for (i, &b) in order.iter().enumerate() {
        rank[b] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; succs.len()];
    idom[entry] = Some(entry);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(n) => intersect(&idom, &rank, p, n),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

fn intersect(idom: &[Option<usize>], rank: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rank[a] > rank[b] {
            a = idom[a].unwrap_or(a);
        }
        while rank[b] > rank[a] {
            b = idom[b].unwrap_or(b);
        }
    }
    a
}

fn reverse_post_order(entry: usize, succs: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; succs.len()];
    let mut post = Vec::with_capacity(succs.len());
    // (block, next successor to visit)
    let mut stack = vec![(entry, 0)];
    seen[entry] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succs[b].get(*next) {
            *next += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}
