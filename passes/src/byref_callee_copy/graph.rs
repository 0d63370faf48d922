//! Collect: the parameter and every pointer derived from it, with their
//! other uses (the leaves).

use std::collections::HashSet;

use super::classify::{Access, classify};
use crate::ir::{Opcode as Op, Value};

/// A use of a derived pointer that is not itself a derived pointer.
#[derive(Clone, Copy)]
pub struct Leaf<'ctx> {
    pub user: Value<'ctx>,
    pub index: u32,
    pub node: Value<'ctx>,
}

/// The parameter and every pointer derived from it, with their other uses.
pub struct Graph<'ctx> {
    /// The parameter first, then derived instructions in discovery order.
    pub nodes: Vec<Value<'ctx>>,
    pub members: HashSet<Value<'ctx>>,
    pub leaves: Vec<Leaf<'ctx>>,
    /// The first use found that may write: why, and the user (printed only
    /// for the debug log: printing numbers the whole function).
    pub first_write: Option<(&'static str, Value<'ctx>)>,
}

impl<'ctx> Graph<'ctx> {
    /// Walks uses from `root` through derived pointers; `members` stops the
    /// walk on phi cycles.
    pub fn trace(root: Value<'ctx>) -> Graph<'ctx> {
        let mut graph = Graph {
            nodes: vec![root],
            members: HashSet::from([root]),
            leaves: Vec::new(),
            first_write: None,
        };
        let mut next = 0;
        while next < graph.nodes.len() {
            let node = graph.nodes[next];
            next += 1;
            for user in node.users() {
                for index in user.operand_indices(node) {
                    match classify(user, index) {
                        Access::Derive => {
                            if graph.members.insert(user) {
                                graph.nodes.push(user);
                            }
                        }
                        Access::Read => graph.leaves.push(Leaf { user, index, node }),
                        Access::Write(why) => {
                            graph.first_write.get_or_insert((why, user));
                            graph.leaves.push(Leaf { user, index, node });
                        }
                    }
                }
            }
        }
        graph
    }

    /// The first use that may write, as [`Graph::trace`] finds it, without
    /// collecting the graph (`amdgpu-kernel-abi` asks this of every byref
    /// parameter it makes): no leaf list, no user or operand lists, and the
    /// member set only once a derived pointer appears.
    pub fn first_write(root: Value<'ctx>) -> Option<(&'static str, Value<'ctx>)> {
        let mut nodes = vec![root];
        let mut members: HashSet<Value<'ctx>> = HashSet::new();
        let mut next = 0;
        while next < nodes.len() {
            let node = nodes[next];
            next += 1;
            // A user appears once per use: visiting it again finds nothing new.
            for user in node.user_iter() {
                for index in 0..user.operand_count() {
                    if user.operand(index) != Some(node) {
                        continue;
                    }
                    match classify(user, index) {
                        Access::Derive => {
                            if user != root && members.insert(user) {
                                nodes.push(user);
                            }
                        }
                        Access::Read => {}
                        Access::Write(why) => return Some((why, user)),
                    }
                }
            }
        }
        None
    }

    pub fn root(&self) -> Value<'ctx> {
        self.nodes[0]
    }

    /// The pointer operands of a derived instruction (the root has none).
    pub fn inputs(node: Value<'ctx>) -> Vec<Value<'ctx>> {
        match node.opcode() {
            Some(Op::LLVMSelect) => [1, 2].into_iter().filter_map(|i| node.operand(i)).collect(),
            Some(Op::LLVMPHI) => node.incoming().into_iter().map(|(v, _)| v).collect(),
            Some(_) => node.operand(0).into_iter().collect(),
            None => Vec::new(),
        }
    }

    /// The nodes that point into the parameter's memory only: they can live
    /// in address space 5. A node that may also point elsewhere (a select or
    /// phi with an outside input, or anything derived from one) must be a
    /// generic pointer.
    pub fn private_nodes(&self) -> HashSet<Value<'ctx>> {
        let mut mixed: Vec<Value<'ctx>> = self
            .nodes
            .iter()
            .copied()
            .filter(|&n| Self::inputs(n).iter().any(|i| !self.members.contains(i)))
            .collect();
        let mut is_mixed: HashSet<Value<'ctx>> = mixed.iter().copied().collect();
        while let Some(node) = mixed.pop() {
            for user in node.users() {
                if self.members.contains(&user) && is_mixed.insert(user) {
                    mixed.push(user);
                }
            }
        }
        self.nodes
            .iter()
            .copied()
            .filter(|n| !is_mixed.contains(n))
            .collect()
    }
}
