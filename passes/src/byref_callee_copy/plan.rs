//! Plan: how each derived pointer and each leaf will be rebuilt on the
//! private copy, checked before the IR changes, so an unsupported use fails
//! without leaving a half-rewritten kernel.

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;

use super::error::Error;
use super::graph::{Graph, Leaf};
use crate::ir::calls::mem_intrinsic;
use crate::ir::kernels::AMDGPU_PRIVATE_AS;
use crate::ir::naming::ParamRef;
use crate::ir::{Opcode as Op, Type, Value, calls, types};

/// Where a rebuilt pointer lives.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Private,
    Generic,
}

/// How a leaf's user is retargeted.
#[derive(Clone, Copy)]
pub enum LeafAction {
    /// Any pointer type fits (load/store/atomic address, bundle operand).
    AnyPointer,
    /// The operand keeps its old type: only a generic use can be redirected.
    SameType,
    /// An `icmp`: both operands move to one common type.
    Compare,
    /// A memcpy/memmove/memset: re-declared for the new pointer types.
    MemIntrinsic,
    /// `llvm.assume` bundles only state facts; dropping the assume is sound.
    DropAssume,
}

fn leaf_action(leaf: &Leaf<'_>) -> LeafAction {
    match leaf.user.opcode() {
        Some(Op::LLVMLoad) => LeafAction::AnyPointer,
        Some(Op::LLVMStore) if leaf.index == 1 => LeafAction::AnyPointer,
        Some(Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg) if leaf.index == 0 => {
            LeafAction::AnyPointer
        }
        Some(Op::LLVMICmp) => LeafAction::Compare,
        Some(_) if calls::is_call_like(leaf.user) => {
            if leaf.index < calls::arg_count(leaf.user) {
                match mem_intrinsic(leaf.user) {
                    Some(intrinsic) if leaf.index < intrinsic.pointers() => {
                        LeafAction::MemIntrinsic
                    }
                    _ => LeafAction::SameType,
                }
            } else if leaf.index == calls::callee_operand_index(leaf.user) {
                LeafAction::SameType
            } else if calls::is_intrinsic_call(leaf.user, "llvm.assume") {
                LeafAction::DropAssume
            } else {
                LeafAction::AnyPointer
            }
        }
        _ => LeafAction::SameType,
    }
}

/// The checked rewrite of one parameter.
pub struct Plan<'ctx> {
    pub graph: Graph<'ctx>,
    pub private: HashSet<Value<'ctx>>,
    /// Non-phi derived instructions, each after the derived inputs it needs.
    pub order: Vec<Value<'ctx>>,
    /// Leaf users, each once, with its leaves and their actions.
    pub users: Vec<(Value<'ctx>, Vec<(Leaf<'ctx>, LeafAction)>)>,
    pub private_ptr: Type<'ctx>,
    pub generic_ptr: Type<'ctx>,
}

impl<'ctx> Plan<'ctx> {
    pub fn new(
        module: &Module<'ctx>,
        param: &ParamRef,
        graph: Graph<'ctx>,
    ) -> Result<Plan<'ctx>, Error> {
        let alloca_as = types::alloca_address_space(module);
        if alloca_as != AMDGPU_PRIVATE_AS {
            return Err(Error::AllocaAddressSpace {
                param: param.clone(),
                address_space: alloca_as,
            });
        }
        let private = graph.private_nodes();
        let order = build_order(&graph).map_err(|at| Error::CycleWithoutPhi {
            param: param.clone(),
            at,
        })?;
        let generic_ptr = types::pointer(module, 0);
        let mut users: Vec<(Value<'ctx>, Vec<(Leaf<'ctx>, LeafAction)>)> = Vec::new();
        for leaf in &graph.leaves {
            let action = leaf_action(leaf);
            if let LeafAction::SameType = action
                && leaf.node.ty() != generic_ptr
            {
                return Err(Error::Unretargetable {
                    param: param.clone(),
                    user: leaf.user.text(),
                    needs: leaf.node.ty().text(),
                });
            }
            match users.iter_mut().find(|(u, _)| *u == leaf.user) {
                Some((_, leaves)) => leaves.push((*leaf, action)),
                None => users.push((leaf.user, vec![(*leaf, action)])),
            }
        }
        Ok(Plan {
            graph,
            private,
            order,
            users,
            private_ptr: types::pointer(module, AMDGPU_PRIVATE_AS),
            generic_ptr,
        })
    }

    pub fn space(&self, node: Value<'ctx>) -> Space {
        if self.private.contains(&node) {
            Space::Private
        } else {
            Space::Generic
        }
    }

    pub fn pointer(&self, space: Space) -> Type<'ctx> {
        match space {
            Space::Private => self.private_ptr,
            Space::Generic => self.generic_ptr,
        }
    }
}

/// Orders the non-phi derived instructions so each comes after its derived
/// inputs. Cycles in SSA pass through phis, which are created empty first; a
/// cycle without one exists only in unreachable code and is refused (the
/// error is the instruction where it was found, as text).
fn build_order<'ctx>(graph: &Graph<'ctx>) -> Result<Vec<Value<'ctx>>, String> {
    #[derive(PartialEq)]
    enum State {
        Visiting,
        Done,
    }
    let is_phi = |n: Value<'_>| n.opcode() == Some(Op::LLVMPHI);
    let mut state: HashMap<Value<'ctx>, State> = HashMap::new();
    let mut order = Vec::new();
    for &start in &graph.nodes[1..] {
        if is_phi(start) || state.contains_key(&start) {
            continue;
        }
        // Iterative DFS: (node, inputs pushed yet).
        let mut stack = vec![(start, false)];
        while let Some((node, expanded)) = stack.pop() {
            if expanded {
                state.insert(node, State::Done);
                order.push(node);
                continue;
            }
            match state.get(&node) {
                Some(State::Done) => continue,
                Some(State::Visiting) => return Err(node.text()),
                None => {}
            }
            state.insert(node, State::Visiting);
            stack.push((node, true));
            for input in Graph::inputs(node) {
                if graph.members.contains(&input) && input != graph.root() && !is_phi(input) {
                    if state.get(&input) == Some(&State::Visiting) {
                        return Err(input.text());
                    }
                    if !state.contains_key(&input) {
                        stack.push((input, false));
                    }
                }
            }
        }
    }
    Ok(order)
}
