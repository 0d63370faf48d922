//! The step loop around a team body: the loop over the team's threads, the
//! dispatch on the state at its top, the per-thread frame, and the rewrite
//! of each meeting point, exit and rank query into the loop's terms.

use std::collections::HashSet;

use inkwell::IntPredicate;
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use offload_contract::grid::CPU_WARP_SIZE;

use super::frame::Slot;
use super::invariant;
use super::point::{BuildResult, Point, built, is_rank, param};
use super::{EXIT, Kind, Refusal};
use crate::ir::{Block, Opcode, Value, calls, erase, gep};

/// The loop around the body: its blocks and the values every step uses.
pub(super) struct Skeleton<'ctx> {
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

impl<'ctx> Skeleton<'ctx> {
    pub(super) fn build(
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
    pub(super) fn per_thread(&self, slots: &[Slot<'ctx>]) -> BuildResult<()> {
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
    pub(super) fn rewrite_points(
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

    /// Calls whose result is fixed for the whole team body call (the
    /// record, the barrier count, each static shared array with constant
    /// arguments: see `invariant`) become one call each in the entry block.
    pub(super) fn hoist_invariant_calls(
        &self,
        blocks: &[inkwell::basic_block::BasicBlock<'ctx>],
    ) -> BuildResult<()> {
        let calls: Vec<Value<'ctx>> = blocks
            .iter()
            .flat_map(|&b| Block::from(b).instructions())
            .filter(|&i| {
                invariant::is_current(i)
                    || invariant::is_barriers(i)
                    || invariant::is_fixed_static_shared(i)
            })
            .collect();
        let entry = self
            .team
            .get_first_basic_block()
            .ok_or(Refusal::Internal("an entry"))?;
        let mut kept: Vec<Value<'ctx>> = Vec::new();
        for call in calls {
            let same = kept.iter().copied().find(|&k| {
                calls::called_function(k) == calls::called_function(call)
                    && calls::arguments(k) == calls::arguments(call)
            });
            if let Some(first) = same {
                call.replace_all_uses_with(first);
                erase::erase_instruction(call);
                continue;
            }
            let inst = call.as_instruction().ok_or(Refusal::Internal("a call"))?;
            inst.remove_from_basic_block();
            let term = entry
                .get_terminator()
                .ok_or(Refusal::Internal("a terminator"))?;
            self.builder.position_before(&term);
            self.builder.insert_instruction(&inst, None);
            kept.push(call);
        }
        Ok(())
    }

    /// Each return ends the thread (`next[t] = EXIT`); each rank query is
    /// the loop index.
    pub(super) fn rewrite_exits_and_ranks(
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
