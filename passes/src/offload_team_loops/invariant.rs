//! What a team body call holds fixed, so that the loop over the threads
//! reads it once instead of once per thread and step: the team's record
//! (`__offload_cpu_current`), the team's barrier count
//! (`__offload_cpu_barriers`) and each static shared array's address
//! (`__offload_cpu_static_shared` with constant arguments: one array per
//! declaration site and team).
//!
//! The record's fields a kernel reads stay the same for a whole team (the
//! shape, the team ids, the shared memory's address; the contract of
//! `__offload_cpu_current`), so a value computed from them is also computed
//! again after a barrier (`remat`). The barrier count, which changes at
//! every barrier, is read through `__offload_cpu_barriers`: fixed within a
//! call only, its loads are invariant there but never recomputed in a later
//! step.
//!
//! The record: each call gets `nonnull` (the runtime sets the record before
//! it calls a team body), then, once the kernel's null tests have folded,
//! `noundef align A dereferenceable(N)`
//! on its result, with `N` and `A` from the kernel's own loads of it (a load
//! of `n` bytes at constant offset `o` reads a field, so the record has at
//! least `o + n` bytes; one aligned to `a` at `o` makes the record aligned
//! to the largest power of two dividing both), and each of those loads
//! `!invariant.load`. Only loads at constant offsets from the call itself
//! are marked, not loads through the pointers they read (the shared memory
//! a field addresses changes at every step). When the record's address
//! reaches anything else (a store, a call, a comparison other than with
//! null) from any call, nothing is marked.

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use super::{BARRIERS, CURRENT, STATIC_SHARED};
use crate::ir::{Opcode, Value, attributes, calls, metadata, types};

/// The metadata that makes a load invariant (`!invariant.load !{}`).
const INVARIANT_LOAD: &str = "invariant.load";

/// A call of the hook `name` (by name, with `args` arguments).
fn is_call_of(value: Value<'_>, name: &str, args: u32) -> bool {
    value.opcode() == Some(Opcode::LLVMCall)
        && calls::arg_count(value) == args
        && calls::called_function(value).is_some_and(|c| c.name() == name)
}

/// A call of `__offload_cpu_current`.
pub fn is_current(value: Value<'_>) -> bool {
    is_call_of(value, CURRENT, 0)
}

/// A call of `__offload_cpu_barriers`.
pub fn is_barriers(value: Value<'_>) -> bool {
    is_call_of(value, BARRIERS, 0)
}

/// A call of `__offload_cpu_static_shared` whose arguments are constants:
/// the same address wherever and however often the team body makes it.
pub fn is_fixed_static_shared(value: Value<'_>) -> bool {
    is_call_of(value, STATIC_SHARED, 3) && calls::arguments(value).iter().all(|a| a.is_constant())
}

/// A load of the record marked invariant by [`mark_record`].
pub fn is_record_load<'ctx>(module: &Module<'ctx>, value: Value<'ctx>) -> bool {
    value.opcode() == Some(Opcode::LLVMLoad)
        && metadata::instruction_attachment(module, value, INVARIANT_LOAD).is_some()
        && value
            .operand(0)
            .and_then(Value::strip_constant_offset)
            .is_some_and(|(base, _)| is_current(base))
}

/// The loads at constant offsets from `call`'s result (load, offset), or
/// `None` when the address reaches anything but those, their addresses and
/// null tests.
fn record_loads<'ctx>(call: Value<'ctx>) -> Option<Vec<(Value<'ctx>, u64)>> {
    let mut loads = Vec::new();
    let mut addresses = vec![call];
    while let Some(address) = addresses.pop() {
        for user in address.users() {
            match user.opcode()? {
                Opcode::LLVMGetElementPtr if user.operand(0) == Some(address) => {
                    let (base, _) = user.strip_constant_offset()?;
                    if base != call {
                        return None;
                    }
                    addresses.push(user);
                }
                Opcode::LLVMLoad if user.operand(0) == Some(address) => {
                    let (_, offset) = address.strip_constant_offset()?;
                    loads.push((user, u64::try_from(offset).ok()?));
                }
                Opcode::LLVMICmp
                    if (0..2).any(|i| user.operand(i).is_some_and(Value::is_null_pointer)) => {}
                _ => return None,
            }
        }
    }
    Some(loads)
}

/// The calls in `team` that `is` picks.
fn calls_of<'ctx>(team: FunctionValue<'ctx>, is: fn(Value<'_>) -> bool) -> Vec<Value<'ctx>> {
    team.get_basic_block_iter()
        .flat_map(|b| crate::ir::Block::from(b).instructions())
        .filter(|&i| is(i))
        .collect()
}

/// Marks the calls of the record and of the barrier count `nonnull` (in a
/// team body both exist: the runtime sets them before the call), so that
/// the kernel's null tests of them fold before [`mark_record`] and
/// [`mark_barriers`] look at their uses.
pub fn mark_nonnull(team: FunctionValue<'_>) {
    for call in calls_of(team, is_current)
        .into_iter()
        .chain(calls_of(team, is_barriers))
    {
        attributes::add_call_return(call, "nonnull", 0);
    }
}

/// Marks the loads of the barrier count `!invariant.load` (the count is
/// the same for a whole team body call; only across its steps does it
/// change, which `remat` leaves alone: a value computed from it before a
/// barrier keeps a per-thread slot), and its calls `align 4
/// dereferenceable(4)`: the count is a `u32`.
pub fn mark_barriers(module: &Module<'_>, team: FunctionValue<'_>) {
    for call in calls_of(team, is_barriers) {
        let Some(loads) = record_loads(call) else {
            continue;
        };
        if loads.iter().any(|&(load, offset)| {
            offset != 0 || load.ty().as_basic().is_none_or(|t| !t.is_int_type())
        }) {
            continue;
        }
        for (load, _) in loads {
            if !load.is_atomic_or_volatile_access() {
                metadata::set_instruction_marker(module, load, INVARIANT_LOAD);
            }
        }
        attributes::add_call_return(call, "noundef", 0);
        attributes::add_call_return(call, "align", 4);
        attributes::add_call_return(call, "dereferenceable", 4);
    }
}

/// Marks the record's calls and loads in `team` (see the module docs).
/// Every call returns the same record, so the sizes and alignments that
/// all their loads show hold for each of them.
pub fn mark_record(module: &Module<'_>, team: FunctionValue<'_>) {
    let calls = calls_of(team, is_current);
    let mut loads = Vec::new();
    for &call in &calls {
        match record_loads(call) {
            Some(mut of_call) => loads.append(&mut of_call),
            None => return,
        }
    }
    let data = types::target_data(module);
    let (mut bytes, mut align) = (0u64, 1u64);
    for &(load, offset) in &loads {
        let size = load
            .ty()
            .as_basic()
            .map_or(0, |ty| data.get_store_size(&ty));
        bytes = bytes.max(offset.saturating_add(size));
        let load_align = load.as_instruction().and_then(|i| i.get_alignment().ok());
        align = align.max(types::common_alignment(
            u64::from(load_align.unwrap_or(1)),
            offset,
        ));
        if !load.is_atomic_or_volatile_access() {
            metadata::set_instruction_marker(module, load, INVARIANT_LOAD);
        }
    }
    for call in calls {
        attributes::add_call_return(call, "noundef", 0);
        attributes::add_call_return(call, "align", align);
        if bytes > 0 {
            attributes::add_call_return(call, "dereferenceable", bytes);
        }
    }
}
