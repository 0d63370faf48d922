//! Compiling one thread body into a team body: inline what meets, split at
//! the meeting points, demote what crosses blocks to the stack, give the
//! allocas live across a meeting point one copy per thread, and wrap the
//! body in the loop over the threads with its dispatch on the state.

use inkwell::AddressSpace;
use inkwell::module::Module;
use inkwell::values::FunctionValue;

use super::demote::demote;
use super::frame::{self, Span};
use super::invariant;
use super::meets::Meets;
use super::point::{Point, instructions, param};
use super::skeleton::Skeleton;
use super::{EXCHANGE, Kind, RANK, RELEASE, Refusal, SYNC};
use crate::ir::builder::ValueBuilder;
use crate::ir::transform_utils::{self as utils, split_block_after};
use crate::ir::{Block, Opcode, Value, attributes, calls, erase, types};

/// The most calls inlined into one team body.
const MAX_INLINED: usize = 256;

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
    // The environment (the kernel's arguments, which nothing writes during
    // a launch), the context storage, the lanes' slots and the states are
    // reached through these pointers alone: their loads move out of the
    // loops over the threads and the kernel's loops, and values kept in the
    // context across iterations can stay in registers.
    for index in [0, 1, 3, 7] {
        attributes::add_param(team, index, "noalias", 0);
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
    // The record and the barrier count fixed for the call: their null
    // tests fold, and what is computed from the record is computed again
    // after a meeting point instead of taking context storage (`remat`).
    invariant::mark_nonnull(team);
    utils::run_function_pipeline(team, "instsimplify,simplifycfg");
    invariant::mark_record(module, team);
    invariant::mark_barriers(module, team);
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
    skeleton.hoist_invariant_calls(&body_blocks)?;
    if !utils::function_is_valid(team) {
        return Err(Refusal::Internal("a valid team body"));
    }
    // Private allocas and the loop index back into registers; the cleanup
    // the full pipeline would have done (the team body is made late).
    utils::run_function_pipeline(
        team,
        "sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa(licm<allowspeculation>,simple-loop-unswitch<nontrivial>),gvn,instcombine<no-verify-fixpoint>,simplifycfg,loop-simplify,lcssa,loop(loop-rotate,loop-deletion),loop-mssa(licm),loop-vectorize,instcombine<no-verify-fixpoint>,simplifycfg",
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
