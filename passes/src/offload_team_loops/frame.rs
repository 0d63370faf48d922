//! The per-thread frame: which allocas of the team body must hold one
//! value per thread (their contents live across a meeting point) and where
//! each one's array lies in the team's context storage.
//!
//! An alloca is per-thread when one of its uses can reach a meeting point
//! that can reach another use: the block of the meeting point (and every
//! block that reaches it) is *before* the point, its continuation (and
//! every block it reaches) *after*; or when its address escapes
//! (conservatively: it is stored, passed to a call other than the memory
//! intrinsics and lifetime markers, or mixed into other values) in a block
//! that can reach a meeting point. An escape in a block that cannot (the
//! argument list of a panic's message, on the path to a panic or a return)
//! counts as one more use there: everything the escaped address reaches is
//! dominated by that block, so it happens in the same step, after which the
//! thread never meets its team again. Others stay private: each thread's
//! step uses them from start to end before the next thread's step starts,
//! and the optimiser keeps them in registers or on the stack. A lifetime
//! marker of the alloca (`llvm.lifetime.start`/`end`) ends its contents:
//! the walks from a meeting point back to a use, and from its continuation
//! on to one, stop at a block holding a marker (so an alloca whose lifetime
//! lies inside one iteration of a loop around a barrier stays private).

use std::collections::{HashMap, HashSet};

use inkwell::targets::TargetData;
use inkwell::values::FunctionValue;

use super::Refusal;
use crate::ir::transform_utils::successors;
use crate::ir::{Block, Opcode, Value, calls};

/// The most bytes of context storage per thread (a team of 1024 threads
/// then needs at most 64 MiB).
pub const MAX_FRAME_BYTES: u64 = 64 << 10;

/// The blocks before and after one meeting point.
pub struct Span<'ctx> {
    /// The block the meeting point ends.
    pub point: Block<'ctx>,
    pub before: HashSet<Block<'ctx>>,
    pub after: HashSet<Block<'ctx>>,
    /// The continuation's block.
    pub cont: Block<'ctx>,
}

/// The blocks reachable from `start` on paths that do not enter `avoid`
/// (none when `start` is `avoid`): where a value defined in `avoid` is
/// still the one computed before `start`.
pub fn reach_avoiding<'ctx>(start: Block<'ctx>, avoid: Block<'ctx>) -> HashSet<Block<'ctx>> {
    if start == avoid {
        return HashSet::new();
    }
    reach(start, |b| {
        successors(b).into_iter().filter(|&s| s != avoid).collect()
    })
}

fn reach<'ctx>(
    start: Block<'ctx>,
    next: impl Fn(Block<'ctx>) -> Vec<Block<'ctx>>,
) -> HashSet<Block<'ctx>> {
    let mut seen = HashSet::from([start]);
    let mut work = vec![start];
    while let Some(b) = work.pop() {
        for s in next(b) {
            if seen.insert(s) {
                work.push(s);
            }
        }
    }
    seen
}

/// The blocks reachable from the entry block.
pub fn reachable<'ctx>(function: FunctionValue<'ctx>) -> HashSet<Block<'ctx>> {
    match function.get_first_basic_block() {
        Some(entry) => reach(entry.into(), successors),
        None => HashSet::new(),
    }
}

/// The span of the meeting point ending block `point` and continuing at
/// `cont`.
pub fn span<'ctx>(
    function: FunctionValue<'ctx>,
    point: Block<'ctx>,
    cont: Block<'ctx>,
) -> Span<'ctx> {
    let blocks: Vec<Block<'ctx>> = function
        .get_basic_blocks()
        .into_iter()
        .map(Block::from)
        .collect();
    let preds = |b: Block<'ctx>| -> Vec<Block<'ctx>> {
        blocks
            .iter()
            .copied()
            .filter(|&p| successors(p).contains(&b))
            .collect()
    };
    Span {
        point,
        before: reach(point, preds),
        after: reach(cont, successors),
        cont,
    }
}

/// The instructions using the memory of an alloca (through address
/// arithmetic) and their blocks.
struct Uses<'ctx> {
    users: HashSet<Value<'ctx>>,
    blocks: HashSet<Block<'ctx>>,
    /// Where its address escapes.
    escapes: Vec<Block<'ctx>>,
    /// Where a lifetime marker starts or ends its contents.
    markers: HashSet<Block<'ctx>>,
}

/// The uses of `alloca`; `None` when a user is no instruction.
fn use_blocks<'ctx>(alloca: Value<'ctx>) -> Option<Uses<'ctx>> {
    let mut users = HashSet::new();
    let mut blocks = HashSet::new();
    let mut escapes = Vec::new();
    let mut markers = HashSet::new();
    let mut work = vec![alloca];
    while let Some(pointer) = work.pop() {
        for user in pointer.users() {
            let block = user.block()?;
            blocks.insert(block);
            users.insert(user);
            if is_marker(user) {
                markers.insert(block);
            }
            match user.opcode()? {
                Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast
                    if user.operand(0) == Some(pointer) =>
                {
                    work.push(user);
                }
                Opcode::LLVMLoad => {}
                Opcode::LLVMStore if user.operand(0) != Some(pointer) => {}
                Opcode::LLVMCall if memory_call(user, pointer) => {}
                _ => escapes.push(user.block()?),
            }
        }
    }
    Some(Uses {
        users,
        blocks,
        escapes,
        markers,
    })
}

/// Calls that only read or write through `pointer` for their duration.
fn memory_call(call: Value<'_>, pointer: Value<'_>) -> bool {
    if calls::mem_intrinsic(call).is_some() {
        return true;
    }
    let Some(callee) = calls::called_function(call) else {
        return false;
    };
    let name = callee.name();
    name.starts_with("llvm.lifetime.")
        || (name == super::EXCHANGE && call.operand(0) == Some(pointer))
}

/// Whether `alloca` needs one copy per thread.
pub fn per_thread<'ctx>(alloca: Value<'ctx>, spans: &[Span<'ctx>]) -> bool {
    let Some(uses) = use_blocks(alloca) else {
        return true;
    };
    let meets_later = |b: &Block<'ctx>| spans.iter().any(|s| s.before.contains(b));
    if uses.escapes.iter().any(meets_later) {
        return true;
    }
    let blocks = &uses.blocks;
    if uses.markers.is_empty() {
        return spans.iter().any(|s| {
            blocks.iter().any(|b| s.before.contains(b))
                && blocks.iter().any(|b| s.after.contains(b))
        });
    }
    let Some(function) = alloca.block().and_then(|b| b.function().as_function()) else {
        return true;
    };
    let preds = predecessors(function);
    spans.iter().any(|s| {
        let before = live_reach(s.point, &uses, Edge::Out, |b| {
            preds.get(&b).cloned().unwrap_or_default()
        });
        let after = live_reach(s.cont, &uses, Edge::In, successors);
        blocks.iter().any(|b| before.contains(b)) && blocks.iter().any(|b| after.contains(b))
    })
}

/// Which end of a block a walk crosses: `Out` walking backwards from a
/// meeting point (the contents must be live where the block ends), `In`
/// walking forwards from a continuation (live where it starts).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    Out,
    In,
}

/// The blocks from `start` (following `next`) where the alloca's contents
/// can be live at `edge`: a block with a lifetime marker of the alloca ends
/// the walk (its contents do not live through a marker) and is kept only
/// when a use lies between the marker and that end.
fn live_reach<'ctx>(
    start: Block<'ctx>,
    uses: &Uses<'ctx>,
    edge: Edge,
    next: impl Fn(Block<'ctx>) -> Vec<Block<'ctx>>,
) -> HashSet<Block<'ctx>> {
    let mut seen = HashSet::new();
    let mut kept = HashSet::new();
    let mut work = vec![start];
    while let Some(b) = work.pop() {
        if !seen.insert(b) {
            continue;
        }
        if !uses.markers.contains(&b) {
            kept.insert(b);
            work.extend(next(b));
            continue;
        }
        let touching: Vec<Value<'ctx>> = b
            .instructions()
            .into_iter()
            .filter(|i| uses.users.contains(i))
            .collect();
        let end = match edge {
            Edge::Out => touching.last(),
            Edge::In => touching.first(),
        };
        if end.is_some_and(|&i| !is_marker(i)) {
            kept.insert(b);
        }
    }
    kept
}

fn is_marker(inst: Value<'_>) -> bool {
    calls::called_function(inst).is_some_and(|c| c.name().starts_with("llvm.lifetime."))
}

/// Each block's predecessors.
fn predecessors<'ctx>(function: FunctionValue<'ctx>) -> HashMap<Block<'ctx>, Vec<Block<'ctx>>> {
    let mut preds: HashMap<Block<'ctx>, Vec<Block<'ctx>>> = HashMap::new();
    for b in function.get_basic_blocks().into_iter().map(Block::from) {
        for s in successors(b) {
            preds.entry(s).or_default().push(b);
        }
    }
    preds
}

/// One per-thread alloca's array: at `offset × team_size` bytes into the
/// context storage, `stride` bytes per thread.
pub struct Slot<'ctx> {
    pub alloca: Value<'ctx>,
    pub offset: u64,
    pub stride: u64,
}

/// The arrays of `allocas` (structure of arrays: thread `t`'s copy at
/// `offset × team_size + t × stride`, so consecutive threads' copies are
/// adjacent) and the bytes per thread.
pub fn layout<'ctx>(
    allocas: &[Value<'ctx>],
    data: &TargetData,
) -> Result<(Vec<Slot<'ctx>>, u64), Refusal> {
    let mut slots = Vec::new();
    let mut bytes = 0u64;
    for &alloca in allocas {
        let inst = alloca
            .as_instruction()
            .ok_or(Refusal::Internal("an alloca"))?;
        let ty = inst
            .get_allocated_type()
            .map_err(|_| Refusal::Internal("an alloca's type"))?;
        let count = alloca
            .operand(0)
            .and_then(|n| crate::ir::metadata::integer(Some(n)))
            .ok_or(Refusal::DynamicAlloca)?;
        let align = u64::from(inst.get_alignment().unwrap_or(1).max(1)).min(64);
        let size = data.get_abi_size(&ty).saturating_mul(count).max(1);
        let stride = size.div_ceil(align) * align;
        let offset = bytes.div_ceil(align) * align;
        bytes = offset.saturating_add(stride);
        slots.push(Slot {
            alloca,
            offset,
            stride,
        });
    }
    if bytes > MAX_FRAME_BYTES {
        return Err(Refusal::Frame(bytes));
    }
    Ok((slots, bytes.div_ceil(64) * 64))
}
