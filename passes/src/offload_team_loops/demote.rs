//! Demoting the values that cross a meeting point to the stack: each is
//! stored where it is defined and loaded before each use past the point, so
//! the step loop's dispatch needs no phi of a value from another step.

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use super::Refusal;
use super::frame::{self, Span};
use super::point::{BuildResult, Point, built, instructions, is_rank};
use super::remat;
use crate::ir::builder::ValueBuilder;
use crate::ir::cfg::Cfg;
use crate::ir::{Block, Opcode, Value};

/// Demotes to an alloca every use of a value that is live across a meeting
/// point: defined in a block before the point and used in a block after it
/// (a phi's use is at the end of its incoming block; a use later in the
/// defining block is no crossing). The value is stored where it is defined
/// and loaded before each crossing use; every other use keeps the value,
/// whose definition still dominates it once the body is in the loop. Rank
/// queries become the loop index, hooks go.
pub(super) fn demote<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
    points: &[Point<'ctx>],
    spans: &[Span<'ctx>],
) -> BuildResult<()> {
    let hooks: Vec<Value<'ctx>> = points.iter().map(|p| p.call).collect();
    let steps = Steps::of(team, points);
    let mut after_cache: HashMap<(usize, Block<'ctx>), HashSet<Block<'ctx>>> = HashMap::new();
    for inst in instructions(team) {
        if hooks.contains(&inst) || inst.opcode() == Some(Opcode::LLVMAlloca) || is_rank(inst) {
            continue;
        }
        let Some(def) = inst.block() else { continue };
        // Live across point k: defined before it, and used where a path
        // from its continuation leads without defining the value again.
        let mut live_after: Vec<(usize, Block<'ctx>)> = Vec::new();
        for (k, span) in spans.iter().enumerate() {
            if span.before.contains(&def) {
                after_cache
                    .entry((k, def))
                    .or_insert_with(|| frame::reach_avoiding(span.cont, def));
                live_after.push((k, def));
            }
        }
        let crossing: Vec<(Value<'ctx>, u32, Block<'ctx>)> = inst
            .users()
            .into_iter()
            .flat_map(|user| uses_of(inst, user, def))
            .filter(|&(_, _, at)| live_after.iter().any(|key| after_cache[key].contains(&at)))
            .collect();
        if crossing.is_empty() {
            continue;
        }
        match remat::plan(module, team, inst) {
            Some(plan) => rematerialize(module, &steps, &plan, &crossing)?,
            None => demote_uses(module, team, inst, &crossing)?,
        }
    }
    Ok(())
}

/// The blocks as the team body's steps see them: entered at the kernel's
/// start or at a point's continuation, never from the point itself.
struct Steps<'ctx> {
    cfg: Cfg<'ctx>,
    idom: Vec<Option<usize>>,
}

impl<'ctx> Steps<'ctx> {
    fn of(team: FunctionValue<'ctx>, points: &[Point<'ctx>]) -> Self {
        let cfg = Cfg::of(team);
        let mut roots = vec![0];
        let mut cut = Vec::new();
        for p in points {
            if let (Some(b), Some(c)) = (cfg.index(p.block), cfg.index(p.cont)) {
                roots.push(c);
                cut.push((b, c));
            }
        }
        let idom = cfg.dominators_from(&roots, &cut);
        Steps { cfg, idom }
    }

    /// The first block of the step that every path to `block` takes
    /// within its step (the top of its dominators): a value computed there
    /// is computed once per step, not once per iteration of a loop of the
    /// kernel's that `block` lies in.
    fn top(&self, block: Block<'ctx>) -> Block<'ctx> {
        let Some(mut at) = self.cfg.index(block) else {
            return block;
        };
        while let Some(up) = self.idom[at] {
            if up == at {
                break;
            }
            at = up;
        }
        self.cfg.blocks[at]
    }
}

/// Computes `plan`'s value again for each crossing use: once at the top
/// of the use's step when that cannot trap (`remat::speculatable`), else
/// right before the use.
fn rematerialize<'ctx>(
    module: &Module<'ctx>,
    steps: &Steps<'ctx>,
    plan: &[Value<'ctx>],
    crossing: &[(Value<'ctx>, u32, Block<'ctx>)],
) -> BuildResult<()> {
    let builder = module.get_context().create_builder();
    let hoist = remat::speculatable(plan);
    // One copy per block it is made in (a phi takes one per incoming block).
    let mut copies: Vec<(Block<'ctx>, Value<'ctx>)> = Vec::new();
    for &(user, index, block) in crossing {
        let at = if hoist { steps.top(block) } else { block };
        let shared = hoist || user.opcode() == Some(Opcode::LLVMPHI);
        let known = copies.iter().find(|(b, _)| shared && *b == at);
        let copy = match known {
            Some(&(_, copy)) => copy,
            None => {
                let placed = if hoist {
                    remat::position_at_start(&builder, at)
                } else {
                    remat::position(&builder, user, block)
                };
                placed.ok_or(Refusal::Internal("a use"))?;
                let copy = remat::build(&builder, plan).ok_or(Refusal::Internal("a copy"))?;
                if shared {
                    copies.push((at, copy));
                }
                copy
            }
        };
        user.set_operand(index, copy);
    }
    Ok(())
}

/// Each use of `value` by `user`: (user, operand index, the block where
/// the value must be available), leaving out uses later in `def`.
fn uses_of<'ctx>(
    value: Value<'ctx>,
    user: Value<'ctx>,
    def: Block<'ctx>,
) -> Vec<(Value<'ctx>, u32, Block<'ctx>)> {
    if user.opcode() == Some(Opcode::LLVMPHI) {
        let incoming = user.incoming();
        return user
            .operand_indices(value)
            .into_iter()
            .filter_map(|i| incoming.get(i as usize).map(|&(_, b)| (user, i, b)))
            .collect();
    }
    match user.block() {
        Some(block) if block != def => user
            .operand_indices(value)
            .into_iter()
            .map(|i| (user, i, block))
            .collect(),
        _ => Vec::new(),
    }
}

/// Stores `value` in a new entry-block alloca right after its definition
/// and loads it for each of `uses` (a phi's at the end of the incoming
/// block, one load per block).
fn demote_uses<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
    value: Value<'ctx>,
    uses: &[(Value<'ctx>, u32, Block<'ctx>)],
) -> BuildResult<()> {
    let ty = value
        .ty()
        .as_basic()
        .ok_or(Refusal::Internal("a demotable value"))?;
    let entry = team
        .get_first_basic_block()
        .ok_or(Refusal::Internal("an entry"))?;
    let builder = module.get_context().create_builder();
    match entry.get_first_instruction() {
        Some(first) => builder.position_before(&first),
        None => builder.position_at_end(entry),
    }
    let slot = built(builder.build_alloca(ty, &format!("{}.cross", value.name())))?;
    let at = ValueBuilder::new(module);
    at.position_after(value);
    at.build_store_value(value, Value::from(slot));
    let mut phi_loads: Vec<(Value<'ctx>, Block<'ctx>, Value<'ctx>)> = Vec::new();
    for &(user, index, block) in uses {
        let load = if user.opcode() == Some(Opcode::LLVMPHI) {
            if let Some(&(_, _, l)) = phi_loads.iter().find(|(u, b, _)| *u == user && *b == block) {
                l
            } else {
                at.position_before_terminator(block);
                let l = at.build_load_value(value.ty(), Value::from(slot));
                phi_loads.push((user, block, l));
                l
            }
        } else {
            at.position_before(user);
            at.build_load_value(value.ty(), Value::from(slot))
        };
        user.set_operand(index, load);
    }
    Ok(())
}
