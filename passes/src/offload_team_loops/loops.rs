//! Compiling one thread body into a team body: inline what meets, split at
//! the meeting points, demote what crosses blocks to the stack, give the
//! allocas live across a meeting point one copy per thread, and wrap the
//! body in the loop over the threads with its dispatch on the state.

use std::collections::{HashMap, HashSet};

use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::module::Module;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use offload_contract::grid::CPU_WARP_SIZE;

use super::frame::{self, Slot, Span};
use super::meets::Meets;
use super::remat;
use super::{EXCHANGE, EXIT, Kind, RANK, RELEASE, Refusal, SYNC};
use crate::ir::builder::ValueBuilder;
use crate::ir::transform_utils::{self as utils, split_block_after};
use crate::ir::{Block, Opcode, Value, calls, erase, gep, types};

/// The most calls inlined into one team body.
const MAX_INLINED: usize = 256;

/// One meeting point of the team body: its call (erased once rewritten),
/// the block it ends and the continuation after it.
pub struct Point<'ctx> {
    pub kind: Kind,
    pub site: Option<Value<'ctx>>,
    call: Value<'ctx>,
    block: Block<'ctx>,
    cont: Block<'ctx>,
    /// An exchange's result, re-defined at the top of the continuation.
    result: Option<Value<'ctx>>,
}

/// The compiled team body.
pub struct TeamBody<'ctx> {
    pub function: FunctionValue<'ctx>,
    pub points: Vec<(Kind, Option<Value<'ctx>>)>,
    pub frame_bytes: u64,
}

fn hook_kind(name: &str) -> Option<Kind> {
    match name {
        SYNC => Some(Kind::Barrier),
        EXCHANGE => Some(Kind::Exchange),
        RELEASE => Some(Kind::Release),
        _ => None,
    }
}

fn instructions<'ctx>(function: FunctionValue<'ctx>) -> Vec<Value<'ctx>> {
    function
        .get_basic_blocks()
        .into_iter()
        .flat_map(|b| Block::from(b).instructions())
        .collect()
}

/// The team body of `thread` (`void(ptr env)`), or why not.
pub fn compile<'ctx>(
    module: &Module<'ctx>,
    thread: FunctionValue<'ctx>,
    meets: &Meets<'ctx>,
) -> Result<TeamBody<'ctx>, Refusal> {
    let ctx = module.get_context();
    let ptr = ctx.ptr_type(AddressSpace::default());
    let i32t = ctx.i32_type();
    let ty = ctx.void_type().fn_type(
        &[
            ptr.into(),
            ptr.into(),
            i32t.into(),
            ptr.into(),
            i32t.into(),
            i32t.into(),
            i32t.into(),
            ptr.into(),
        ],
        false,
    );
    let name = format!("{}.team", thread.get_name().to_string_lossy());
    let team = utils::clone_function(thread, ty, &name).ok_or(Refusal::Signature)?;
    for (i, name) in ["ctx", "team.size", "slots", "begin", "end", "state", "next"]
        .iter()
        .enumerate()
    {
        Value::from(param(team, i as u32 + 1)).set_name(name);
    }
    match rewrite(module, team, meets) {
        Ok(body) => Ok(body),
        Err(why) => {
            erase::erase_function(team);
            Err(why)
        }
    }
}

fn rewrite<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
    meets: &Meets<'ctx>,
) -> Result<TeamBody<'ctx>, Refusal> {
    inline_meeting_callees(team, meets)?;
    check_shape(team, meets)?;
    let mut points = split_at_points(module, team)?;
    let reachable = frame::reachable(team);
    let spans: Vec<Span<'ctx>> = points
        .iter()
        .map(|p| frame::span(team, p.block, p.cont))
        .collect();
    demote(module, team, &points, &spans)?;
    let old_entry = team
        .get_first_basic_block()
        .ok_or(Refusal::Internal("an entry block"))?;
    let allocas: Vec<Value<'ctx>> = Block::from(old_entry)
        .instructions()
        .into_iter()
        .filter(|i| i.opcode() == Some(Opcode::LLVMAlloca))
        .collect();
    let (shared, private): (Vec<Value<'ctx>>, Vec<Value<'ctx>>) = allocas
        .into_iter()
        .partition(|&a| frame::per_thread(a, &spans));
    let (slots, frame_bytes) = frame::layout(&shared, &types::target_data(module))?;
    let body_blocks = team.get_basic_blocks();
    let skeleton = Skeleton::build(module, team, &private)?;
    skeleton.per_thread(&slots)?;
    skeleton.rewrite_points(&mut points, &reachable)?;
    skeleton.rewrite_exits_and_ranks(&body_blocks)?;
    skeleton.hoist_current(&body_blocks)?;
    if !utils::function_is_valid(team) {
        return Err(Refusal::Internal("a valid team body"));
    }
    // Private allocas and the loop index back into registers; the cleanup
    // the full pipeline would have done (the team body is made late).
    utils::run_function_pipeline(
        team,
        "sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg",
    );
    if !utils::function_is_valid(team) {
        return Err(Refusal::Internal("a valid optimised team body"));
    }
    let points = points.into_iter().map(|p| (p.kind, p.site)).collect();
    Ok(TeamBody {
        function: team,
        points,
        frame_bytes,
    })
}

/// Inlines every call of a function that may reach a hook (other than the
/// hooks), until none is left.
fn inline_meeting_callees<'ctx>(
    team: FunctionValue<'ctx>,
    meets: &Meets<'ctx>,
) -> Result<(), Refusal> {
    for _ in 0..MAX_INLINED {
        let next = instructions(team).into_iter().find(|&i| {
            calls::is_call_like(i)
                && calls::called_function(i).is_some_and(|c| meets.may_meet(c) && !is_hook(c))
        });
        let Some(call) = next else {
            return Ok(());
        };
        if !utils::inline_call(call) {
            let callee = calls::called_function(call)
                .map(|c| c.name())
                .unwrap_or_default();
            return Err(Refusal::NotInlined(crate::ir::naming::display_symbol(
                &callee,
            )));
        }
    }
    Err(Refusal::TooDeep)
}

fn is_hook(function: Value<'_>) -> bool {
    let name = function.name();
    name == RANK || hook_kind(&name).is_some()
}

/// Refuses shapes the loops cannot hold: indirect calls that may meet,
/// invokes, allocas outside the entry block.
fn check_shape<'ctx>(team: FunctionValue<'ctx>, meets: &Meets<'ctx>) -> Result<(), Refusal> {
    let entry = team.get_first_basic_block().map(Block::from);
    for inst in instructions(team) {
        match inst.opcode() {
            Some(Opcode::LLVMInvoke | Opcode::LLVMCallBr) => return Err(Refusal::Invoke),
            Some(Opcode::LLVMAlloca)
                if inst.block() != entry
                    || crate::ir::metadata::integer(inst.operand(0)).is_none() =>
            {
                return Err(Refusal::DynamicAlloca);
            }
            Some(Opcode::LLVMCall) if calls::called_function(inst).is_none() && meets.indirect => {
                return Err(Refusal::IndirectCall);
            }
            _ => {}
        }
    }
    Ok(())
}

/// Ends a block after each meeting point; an exchange's result gets a
/// stand-in (`freeze`) at the top of its continuation, which the resume
/// block's value replaces.
fn split_at_points<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
) -> Result<Vec<Point<'ctx>>, Refusal> {
    let mut points = Vec::new();
    for call in instructions(team) {
        let Some(kind) = calls::is_call_like(call)
            .then(|| calls::called_function(call))
            .flatten()
            .and_then(|c| hook_kind(&c.name()))
        else {
            continue;
        };
        let arity = if kind == Kind::Exchange { 2 } else { 1 };
        let returns_pointer = call.ty().kind() == crate::ir::TypeKind::LLVMPointerTypeKind;
        if calls::arg_count(call) != arity || (kind == Kind::Exchange) != returns_pointer {
            return Err(Refusal::Hook(call.text()));
        }
        let block = call.block().ok_or(Refusal::Internal("a block"))?;
        let cont = split_block_after(call).ok_or(Refusal::Internal("a split"))?;
        let result = if kind == Kind::Exchange {
            let builder = ValueBuilder::new(module);
            builder.position_before(cont.instructions()[0]);
            let copy = builder.build_freeze(call);
            for user in call.users() {
                if user != copy {
                    let Some(i) = user.operand_indices(call).first().copied() else {
                        continue;
                    };
                    user.set_operand(i, copy);
                }
            }
            Some(copy)
        } else {
            None
        };
        let site = calls::arguments(call)
            .last()
            .copied()
            .filter(|s| !s.is_instruction());
        points.push(Point {
            kind,
            site,
            call,
            block,
            cont,
            result,
        });
    }
    Ok(points)
}

/// Demotes to an alloca every use of a value that is live across a meeting
/// point: defined in a block before the point and used in a block after it
/// (a phi's use is at the end of its incoming block; a use later in the
/// defining block is no crossing). The value is stored where it is defined
/// and loaded before each crossing use; every other use keeps the value,
/// whose definition still dominates it once the body is in the loop. Rank
/// queries become the loop index, hooks go.
fn demote<'ctx>(
    module: &Module<'ctx>,
    team: FunctionValue<'ctx>,
    points: &[Point<'ctx>],
    spans: &[Span<'ctx>],
) -> BuildResult<()> {
    let hooks: Vec<Value<'ctx>> = points.iter().map(|p| p.call).collect();
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
        match remat::plan(team, inst) {
            Some(plan) => {
                let builder = module.get_context().create_builder();
                // A phi takes one value per incoming block.
                let mut phi_copies: Vec<(Value<'ctx>, Block<'ctx>, Value<'ctx>)> = Vec::new();
                for &(user, index, block) in &crossing {
                    let known = phi_copies
                        .iter()
                        .find(|(u, b, _)| *u == user && *b == block);
                    let copy = match known {
                        Some(&(_, _, copy)) => copy,
                        None => {
                            remat::position(&builder, user, block)
                                .ok_or(Refusal::Internal("a use"))?;
                            let copy =
                                remat::build(&builder, &plan).ok_or(Refusal::Internal("a copy"))?;
                            if user.opcode() == Some(Opcode::LLVMPHI) {
                                phi_copies.push((user, block, copy));
                            }
                            copy
                        }
                    };
                    user.set_operand(index, copy);
                }
            }
            None => demote_uses(module, team, inst, &crossing)?,
        }
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

pub(super) fn is_rank(inst: Value<'_>) -> bool {
    inst.opcode() == Some(Opcode::LLVMCall)
        && calls::called_function(inst).is_some_and(|c| c.name() == RANK)
}

/// The loop around the body: its blocks and the values every step uses.
struct Skeleton<'ctx> {
    builder: Builder<'ctx>,
    ctx: ContextRef<'ctx>,
    team: FunctionValue<'ctx>,
    dispatch: inkwell::basic_block::BasicBlock<'ctx>,
    latch: inkwell::basic_block::BasicBlock<'ctx>,
    body: inkwell::basic_block::BasicBlock<'ctx>,
    t: IntValue<'ctx>,
    t64: IntValue<'ctx>,
    next_t: PointerValue<'ctx>,
}

type BuildResult<T> = Result<T, Refusal>;

fn built<T>(r: Result<T, inkwell::builder::BuilderError>) -> BuildResult<T> {
    r.map_err(|_| Refusal::Internal("an instruction"))
}

fn param<'ctx>(team: FunctionValue<'ctx>, i: u32) -> BasicValueEnum<'ctx> {
    team.get_nth_param(i)
        .expect("the team body has eight parameters")
}

impl<'ctx> Skeleton<'ctx> {
    fn build(
        module: &Module<'ctx>,
        team: FunctionValue<'ctx>,
        private: &[Value<'ctx>],
    ) -> BuildResult<Self> {
        let ctx = module.get_context();
        let builder = ctx.create_builder();
        let i32t = ctx.i32_type();
        let body = team
            .get_first_basic_block()
            .ok_or(Refusal::Internal("a body"))?;
        let entry = ctx.prepend_basic_block(body, "team.entry");
        let header = ctx.prepend_basic_block(body, "team.thread");
        let step = ctx.prepend_basic_block(body, "team.step");
        let dispatch = ctx.prepend_basic_block(body, "team.dispatch");
        let latch = ctx.append_basic_block(team, "team.next");
        let exit = ctx.append_basic_block(team, "team.exit");
        builder.position_at_end(entry);
        for &alloca in private {
            let inst = alloca
                .as_instruction()
                .ok_or(Refusal::Internal("an alloca"))?;
            inst.remove_from_basic_block();
            builder.insert_instruction(&inst, None);
        }
        let t_addr = built(builder.build_alloca(i32t, "t.addr"))?;
        built(builder.build_store(t_addr, param(team, 4)))?;
        built(builder.build_unconditional_branch(header))?;
        builder.position_at_end(header);
        let t = built(builder.build_load(i32t, t_addr, "t"))?.into_int_value();
        let done = built(builder.build_int_compare(
            IntPredicate::UGE,
            t,
            param(team, 5).into_int_value(),
            "done",
        ))?;
        built(builder.build_conditional_branch(done, exit, step))?;
        builder.position_at_end(step);
        let t64 = built(builder.build_int_z_extend(t, ctx.i64_type(), "t64"))?;
        let next = param(team, 7).into_pointer_value();
        let next_t = built(gep::element(&builder, i32t, next, t64))?;
        let now = built(builder.build_load(i32t, next_t, "now"))?.into_int_value();
        // Threads elsewhere (returned, or stopped at another copy of the
        // point) wait for their own state's call.
        let elsewhere = built(builder.build_int_compare(
            IntPredicate::NE,
            now,
            param(team, 6).into_int_value(),
            "elsewhere",
        ))?;
        let term = built(builder.build_conditional_branch(elsewhere, latch, dispatch))?;
        builder.position_at_end(latch);
        let t1 = built(builder.build_int_add(t, i32t.const_int(1, false), "t.next"))?;
        built(builder.build_store(t_addr, t1))?;
        built(builder.build_unconditional_branch(header))?;
        builder.position_at_end(exit);
        built(builder.build_return(None))?;
        builder.position_before(&term);
        Ok(Skeleton {
            builder,
            ctx,
            team,
            dispatch,
            latch,
            body,
            t,
            t64,
            next_t,
        })
    }
}

impl<'ctx> Skeleton<'ctx> {
    /// Each per-thread alloca becomes its thread's element of its array in
    /// the context storage, computed in the step block.
    fn per_thread(&self, slots: &[Slot<'ctx>]) -> BuildResult<()> {
        let i64t = self.ctx.i64_type();
        let i8t = self.ctx.i8_type();
        let ctx_ptr = param(self.team, 1).into_pointer_value();
        let size = built(self.builder.build_int_z_extend(
            param(self.team, 2).into_int_value(),
            i64t,
            "team.size",
        ))?;
        for slot in slots {
            drop_lifetime_markers(slot.alloca);
            let base = built(self.builder.build_int_mul(
                size,
                i64t.const_int(slot.offset, false),
                "",
            ))?;
            let own = built(self.builder.build_int_mul(
                self.t64,
                i64t.const_int(slot.stride, false),
                "",
            ))?;
            let offset = built(self.builder.build_int_add(base, own, ""))?;
            let at = built(gep::element(&self.builder, i8t, ctx_ptr, offset))?;
            let at = Value::from(at);
            at.set_name(&format!("{}.t", slot.alloca.name()));
            slot.alloca.replace_all_uses_with(at);
            erase::erase_instruction(slot.alloca);
        }
        Ok(())
    }

    /// Each meeting point ends the thread's step (`next[t] = k`, an
    /// exchange's offer into its lane's slot) and gets a resume block the
    /// dispatch jumps to in state `k`.
    fn rewrite_points(
        &self,
        points: &mut [Point<'ctx>],
        reachable: &HashSet<Block<'ctx>>,
    ) -> BuildResult<()> {
        let i32t = self.ctx.i32_type();
        let i64t = self.ctx.i64_type();
        let slots = param(self.team, 3).into_pointer_value();
        let mut cases = vec![(i32t.const_zero(), self.body)];
        for (k, point) in points.iter_mut().enumerate() {
            let state = i32t.const_int(k as u64 + 1, false);
            let call = point
                .call
                .as_instruction()
                .ok_or(Refusal::Internal("a call"))?;
            self.builder.position_before(&call);
            if point.kind == Kind::Exchange {
                let own = calls::arguments(point.call)[0]
                    .as_basic()
                    .ok_or(Refusal::Internal("an offer"))?;
                let offer = built(self.builder.build_load(
                    i64t,
                    own.into_pointer_value(),
                    "offer",
                ))?;
                let lane = built(gep::element(&self.builder, i64t, slots, self.t64))?;
                built(self.builder.build_store(lane, offer))?;
            }
            built(self.builder.build_store(self.next_t, state))?;
            let resume = self
                .ctx
                .insert_basic_block_after(self.dispatch, &format!("team.resume{}", k + 1));
            self.builder.position_at_end(resume);
            if let Some(result) = point.result.take() {
                let warp = built(self.builder.build_and(
                    self.t,
                    i32t.const_int(u64::from(!(CPU_WARP_SIZE - 1)), false),
                    "warp",
                ))?;
                let warp = built(self.builder.build_int_z_extend(warp, i64t, ""))?;
                let offers = built(gep::element(&self.builder, i64t, slots, warp))?;
                result.replace_all_uses_with(Value::from(offers));
                erase::erase_instruction(result);
            }
            built(
                self.builder
                    .build_unconditional_branch(point.cont.as_inkwell()),
            )?;
            let old = point
                .block
                .terminator()
                .ok_or(Refusal::Internal("a terminator"))?;
            erase::erase_instruction(old);
            erase::erase_instruction(point.call);
            self.builder.position_at_end(point.block.as_inkwell());
            built(self.builder.build_unconditional_branch(self.latch))?;
            // A point no thread reaches gets no case: its continuation
            // stays unreachable, as it was.
            if reachable.contains(&point.block) {
                cases.push((state, resume));
            }
        }
        self.builder.position_at_end(self.dispatch);
        built(
            self.builder
                .build_switch(param(self.team, 6).into_int_value(), self.latch, &cases),
        )?;
        Ok(())
    }

    /// The team's record, asked for once in the entry block: it does not
    /// change during the call.
    fn hoist_current(&self, blocks: &[inkwell::basic_block::BasicBlock<'ctx>]) -> BuildResult<()> {
        let calls: Vec<Value<'ctx>> = blocks
            .iter()
            .flat_map(|&b| Block::from(b).instructions())
            .filter(|&i| {
                i.opcode() == Some(Opcode::LLVMCall)
                    && calls::called_function(i).is_some_and(|c| c.name() == super::CURRENT)
                    && calls::arg_count(i) == 0
            })
            .collect();
        let Some(&first) = calls.first() else {
            return Ok(());
        };
        let entry = self
            .team
            .get_first_basic_block()
            .ok_or(Refusal::Internal("an entry"))?;
        let inst = first.as_instruction().ok_or(Refusal::Internal("a call"))?;
        inst.remove_from_basic_block();
        let term = entry
            .get_terminator()
            .ok_or(Refusal::Internal("a terminator"))?;
        self.builder.position_before(&term);
        self.builder.insert_instruction(&inst, None);
        for &other in &calls[1..] {
            other.replace_all_uses_with(first);
            erase::erase_instruction(other);
        }
        Ok(())
    }

    /// Each return ends the thread (`next[t] = EXIT`); each rank query is
    /// the loop index.
    fn rewrite_exits_and_ranks(
        &self,
        blocks: &[inkwell::basic_block::BasicBlock<'ctx>],
    ) -> BuildResult<()> {
        let exit = self.ctx.i32_type().const_int(u64::from(EXIT), false);
        for &block in blocks {
            for inst in Block::from(block).instructions() {
                match inst.opcode() {
                    Some(Opcode::LLVMRet) => {
                        let ret = inst.as_instruction().ok_or(Refusal::Internal("a return"))?;
                        self.builder.position_before(&ret);
                        built(self.builder.build_store(self.next_t, exit))?;
                        built(self.builder.build_unconditional_branch(self.latch))?;
                        erase::erase_instruction(inst);
                    }
                    Some(Opcode::LLVMCall) if is_rank(inst) => {
                        if inst.ty() != Value::from(self.t).ty() || calls::arg_count(inst) != 0 {
                            return Err(Refusal::Hook(inst.text()));
                        }
                        inst.replace_all_uses_with(self.t.into());
                        erase::erase_instruction(inst);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Erases the lifetime markers of `alloca` (they take allocas only).
fn drop_lifetime_markers(alloca: Value<'_>) {
    for user in alloca.users() {
        if calls::called_function(user).is_some_and(|c| c.name().starts_with("llvm.lifetime.")) {
            erase::erase_instruction(user);
        }
    }
}
