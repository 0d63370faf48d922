//! Which functions may reach a meeting point or ask for the thread rank:
//! the functions a team body must inline (their calls run in one thread's
//! step, which cannot stop in the middle of a callee).

use std::collections::HashSet;

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use super::{EXCHANGE, RANK, RELEASE, SYNC};
use crate::ir::{Value, calls};

/// The functions that may call a hook, directly or through callees.
pub struct Meets<'ctx> {
    functions: HashSet<Value<'ctx>>,
    /// Some function that may meet has its address taken: an indirect call
    /// may reach it.
    pub indirect: bool,
}

/// What a function calls: its direct callees and whether it calls
/// indirectly.
struct Callees<'ctx> {
    function: Value<'ctx>,
    direct: Vec<Value<'ctx>>,
    indirect: bool,
}

fn callees<'ctx>(function: FunctionValue<'ctx>) -> Callees<'ctx> {
    let mut out = Callees {
        function: function.into(),
        direct: Vec::new(),
        indirect: false,
    };
    for block in function.get_basic_blocks() {
        for inst in crate::ir::Block::from(block).instructions() {
            if !calls::is_call_like(inst) {
                continue;
            }
            match calls::called_function(inst) {
                Some(callee) => out.direct.push(callee),
                None => out.indirect |= !is_inline_asm(inst),
            }
        }
    }
    out
}

fn is_inline_asm(call: Value<'_>) -> bool {
    calls::called_value(call).is_some_and(|v| v.text().contains(" asm "))
}

fn is_used_list(global: Value<'_>) -> bool {
    global.as_global_variable().is_some_and(|g| {
        matches!(
            g.get_name().to_bytes(),
            b"llvm.used" | b"llvm.compiler.used"
        )
    })
}

/// Whether a call hands `function` to the grid runner as a thread body
/// (which runs it, and only it, from there).
fn is_thread_body_use(user: Value<'_>, function: Value<'_>) -> bool {
    calls::called_function(user).is_some_and(|c| c.name() == super::RUN_GRID)
        && calls::arguments(user).get(2) == Some(&function)
}

/// Whether `function`'s address is used other than as a callee (and other
/// than in `llvm.used` / `llvm.compiler.used` and as a thread body).
fn address_taken(function: Value<'_>) -> bool {
    function.users().into_iter().any(|user| {
        if user.is_instruction() {
            if !calls::is_call_like(user) {
                return true;
            }
            calls::called_function(user) != Some(function) && !is_thread_body_use(user, function)
        } else if user.as_global_variable().is_some() {
            !is_used_list(user)
        } else {
            !user.users().into_iter().all(is_used_list)
        }
    })
}

impl<'ctx> Meets<'ctx> {
    pub fn of(module: &Module<'ctx>) -> Self {
        let mut functions: HashSet<Value<'ctx>> = [RANK, SYNC, EXCHANGE, RELEASE]
            .iter()
            .filter_map(|name| module.get_function(name))
            .map(Value::from)
            .collect();
        let graph: Vec<Callees<'ctx>> = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .map(callees)
            .collect();
        let mut indirect = false;
        loop {
            let before = (functions.len(), indirect);
            for node in &graph {
                if node.direct.iter().any(|c| functions.contains(c)) || (node.indirect && indirect)
                {
                    functions.insert(node.function);
                }
            }
            indirect = functions.iter().any(|&f| address_taken(f));
            if (functions.len(), indirect) == before {
                return Meets {
                    functions,
                    indirect,
                };
            }
        }
    }

    /// Whether a call of `callee` may reach a hook.
    pub fn may_meet(&self, callee: Value<'ctx>) -> bool {
        self.functions.contains(&callee)
    }
}
