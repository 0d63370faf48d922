//! Rewrite: rebuild the derived pointers on the copy, then retarget the
//! leaves, then erase the old chains.

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;

use super::graph::{Graph, Leaf};
use super::plan::{LeafAction, Plan, Space};
use crate::ir::builder::ValueBuilder;
use crate::ir::calls::mem_intrinsic;
use crate::ir::erase::{delete_if_unused_declaration, erase_instructions};
use crate::ir::{Block, Opcode as Op, Type, Value, calls, metadata};

/// Rewrites `plan`'s parameter onto `copy` (filled by `memcpy`). Returns
/// the instructions this added at the top of the entry block (the copy's
/// generic cast, if one was made), so later parameters' copies go after.
/// `Err` (an internal error: the text of a use left on the old chain) when
/// a use was not retargeted; it is never silently given `poison`.
pub fn apply<'ctx>(
    module: &Module<'ctx>,
    plan: Plan<'ctx>,
    copy: Value<'ctx>,
    memcpy: Value<'ctx>,
) -> Result<Vec<Value<'ctx>>, String> {
    let mut rewriter = Rewriter {
        module,
        builder: ValueBuilder::new(module),
        plan: &plan,
        new: HashMap::from([(plan.graph.root(), copy)]),
        generic: HashMap::new(),
        copy,
        memcpy,
        outside: HashMap::new(),
    };
    rewriter.rebuild_nodes();
    for (user, leaves) in &plan.users {
        rewriter.retarget(*user, leaves);
    }
    // `#dbg_declare`s of a generic pointer of the old chain (rustc -O0
    // declares a by-value argument at its address) follow it to the copy,
    // rather than becoming `ptr poison` when the chain goes.
    let declared = declared_addresses(memcpy.block().expect("memcpy is placed").function());
    for &node in &plan.graph.nodes[1..] {
        if declared.contains(&node) && node.ty() == plan.generic_ptr {
            let generic = rewriter.form(node, Space::Generic);
            node.replace_all_uses_with(generic);
        }
    }
    let added: Vec<Value<'ctx>> = rewriter.generic.get(&copy).copied().into_iter().collect();
    drop(rewriter);
    // The parameter stays (the memcpy reads it); the old chains go, used
    // only by each other by now.
    let chain = &plan.graph.nodes[1..];
    let missed = chain
        .iter()
        .flat_map(|node| node.users())
        .find(|user| !plan.graph.members.contains(user))
        .map(|user| user.text());
    erase_instructions(chain);
    match missed {
        Some(user) => Err(format!("a use was not retargeted to the copy: `{user}`")),
        None => Ok(added),
    }
}

struct Rewriter<'a, 'ctx> {
    module: &'a Module<'ctx>,
    builder: ValueBuilder<'a, 'ctx>,
    plan: &'a Plan<'ctx>,
    /// Old derived pointer → its rebuilt value in its own space.
    new: HashMap<Value<'ctx>, Value<'ctx>>,
    /// Rebuilt private pointer → its `addrspacecast` to generic.
    generic: HashMap<Value<'ctx>, Value<'ctx>>,
    copy: Value<'ctx>,
    memcpy: Value<'ctx>,
    /// Outside pointer → its generic cast (right after its definition).
    outside: HashMap<Value<'ctx>, Value<'ctx>>,
}

impl<'ctx> Rewriter<'_, 'ctx> {
    /// The rebuilt `node` in `space` (a generic cast of a private value is
    /// made once, right after the value's definition).
    fn form(&mut self, node: Value<'ctx>, space: Space) -> Value<'ctx> {
        let value = self.new[&node];
        if space == Space::Private || self.plan.space(node) == Space::Generic {
            return value;
        }
        if let Some(&cast) = self.generic.get(&value) {
            return cast;
        }
        // The copy is only complete after its memcpy.
        let after = if value == self.copy {
            self.memcpy
        } else {
            value
        };
        self.builder.position_after(after);
        let cast = self
            .builder
            .build_addrspacecast(value, self.plan.generic_ptr);
        let name = value.name();
        if !name.is_empty() {
            cast.set_name(&format!("{name}.generic"));
        }
        self.generic.insert(value, cast);
        cast
    }

    /// Operand `value` of a rebuilt instruction in `space`: a derived
    /// pointer's rebuilt form, or an outside pointer cast to generic (only
    /// generic instructions have outside inputs). The cast is made once per
    /// value, right after its definition, so it dominates every use of the
    /// value whatever order users are rebuilt in; `before`/`block` place it
    /// only where there is no such point (an `invoke` result).
    fn input(
        &mut self,
        value: Value<'ctx>,
        space: Space,
        before: Option<Value<'ctx>>,
        block: Block<'ctx>,
    ) -> Value<'ctx> {
        if self.plan.graph.members.contains(&value) {
            return self.form(value, space);
        }
        if let Some(&cast) = self.outside.get(&value) {
            return cast;
        }
        let cacheable = match value.opcode() {
            // Defined by a terminator: cast at this use, not shared.
            Some(Op::LLVMInvoke | Op::LLVMCallBr) => {
                match before {
                    Some(inst) => self.builder.position_before(inst),
                    None => self.builder.position_before_terminator(block),
                }
                false
            }
            Some(_) => {
                self.builder.position_after(value);
                true
            }
            // Arguments and constants: at the top of the entry block.
            None => {
                self.builder.position_after(self.memcpy);
                true
            }
        };
        let cast = self
            .builder
            .build_addrspacecast(value, self.plan.generic_ptr);
        if cacheable {
            self.outside.insert(value, cast);
        }
        cast
    }

    /// Creates every derived instruction anew on the copy: empty phis first
    /// (they may close cycles), then the others in input order, then the
    /// phis' incoming values.
    fn rebuild_nodes(&mut self) {
        let phis: Vec<Value<'ctx>> = self.plan.graph.nodes[1..]
            .iter()
            .copied()
            .filter(|n| n.opcode() == Some(Op::LLVMPHI))
            .collect();
        for &phi in &phis {
            self.builder.position_before(phi);
            let new = self
                .builder
                .build_phi(self.plan.pointer(self.plan.space(phi)));
            self.finish_node(phi, new);
        }
        for &node in &self.plan.order {
            match self.rebuild(node) {
                Some(new) => self.finish_node(node, new),
                // A cast only changed the address space; the copy has its own.
                // (Its one input is derived: outside inputs make no graph node.)
                None => {
                    let input = node.operand(0).expect("a cast has an operand");
                    let input = self.form(input, self.plan.space(node));
                    self.new.insert(node, input);
                }
            }
        }
        for &phi in &phis {
            let space = self.plan.space(phi);
            for (value, block) in phi.incoming() {
                let value = self.input(value, space, None, block);
                self.builder.add_incoming(self.new[&phi], value, block);
            }
        }
    }

    /// A new instruction for one non-phi derived instruction; `None` for a
    /// cast, which stands for its rebuilt input.
    fn rebuild(&mut self, node: Value<'ctx>) -> Option<Value<'ctx>> {
        let op = node.opcode();
        if matches!(op, Some(Op::LLVMAddrSpaceCast | Op::LLVMBitCast)) {
            return None;
        }
        let space = self.plan.space(node);
        let block = node.block().expect("a derived instruction is in a block");
        let inputs: Vec<Value<'ctx>> = Graph::inputs(node)
            .into_iter()
            .map(|i| self.input(i, space, Some(node), block))
            .collect();
        self.builder.position_before(node);
        Some(match op {
            Some(Op::LLVMGetElementPtr) => self.builder.build_gep_like(node, inputs[0]),
            Some(Op::LLVMSelect) => {
                let condition = node.operand(0).expect("a select has a condition");
                self.builder.build_select(condition, inputs[0], inputs[1])
            }
            _ => self.builder.build_freeze(inputs[0]),
        })
    }

    /// Records new instruction `new` for `old`, moving name and metadata.
    fn finish_node(&mut self, old: Value<'ctx>, new: Value<'ctx>) {
        let name = old.name();
        old.set_name("");
        new.set_name(&name);
        metadata::copy_instruction_attachments(self.module, old, new);
        self.new.insert(old, new);
    }

    /// Points one leaf user at the rebuilt pointers: operand by operand
    /// first (`cmpxchg ptr %p, ptr %x, ptr %p` needs a private address and a
    /// generic value), then what concerns the whole instruction.
    fn retarget(&mut self, user: Value<'ctx>, leaves: &[(Leaf<'ctx>, LeafAction)]) {
        let mut whole = None;
        let mut mem_leaves = Vec::new();
        for &(leaf, action) in leaves {
            match action {
                LeafAction::AnyPointer => {
                    let value = self.form(leaf.node, self.plan.space(leaf.node));
                    user.set_operand(leaf.index, value);
                }
                // Checked in Plan::new: the old type is generic.
                LeafAction::SameType => {
                    let value = self.form(leaf.node, Space::Generic);
                    user.set_operand(leaf.index, value);
                }
                LeafAction::MemIntrinsic => {
                    mem_leaves.push(leaf);
                    whole = Some(action);
                }
                LeafAction::Compare | LeafAction::DropAssume => whole = Some(action),
            }
        }
        match whole {
            None => self.drop_load_facts(user),
            Some(LeafAction::Compare) => self.retarget_compare(user),
            Some(LeafAction::MemIntrinsic) => self.retarget_mem_intrinsic(user, &mem_leaves),
            Some(_) => erase_instructions(&[user]),
        }
    }

    /// A load from the copy reads memory this kernel writes: the "never
    /// clobbered" and "invariant" facts about the kernarg no longer hold.
    fn drop_load_facts(&self, user: Value<'ctx>) {
        if user.opcode() == Some(Op::LLVMLoad) {
            for kind in ["amdgpu.noclobber", "invariant.load"] {
                metadata::drop_instruction_attachment(self.module, user, kind);
            }
        }
    }

    /// `icmp` of two private pointers stays private; anything else compares
    /// generic pointers.
    fn retarget_compare(&mut self, user: Value<'ctx>) {
        let operands: Vec<Value<'ctx>> = (0..2).filter_map(|i| user.operand(i)).collect();
        let members = &self.plan.graph.members;
        let all_private = operands
            .iter()
            .all(|o| members.contains(o) && self.plan.space(*o) == Space::Private);
        let space = if all_private {
            Space::Private
        } else {
            Space::Generic
        };
        let block = user.block().expect("an icmp is in a block");
        for (index, value) in operands.into_iter().enumerate() {
            let value = self.input(value, space, Some(user), block);
            user.set_operand(index as u32, value);
        }
    }

    /// Re-declares a mem intrinsic for the new pointer types of its
    /// destination/source and rebuilds the call (attributes and metadata kept).
    fn retarget_mem_intrinsic(&mut self, user: Value<'ctx>, leaves: &[Leaf<'ctx>]) {
        let Some(intrinsic) = mem_intrinsic(user) else {
            return;
        };
        let mut args = calls::arguments(user);
        for leaf in leaves {
            args[leaf.index as usize] = self.form(leaf.node, self.plan.space(leaf.node));
        }
        // Overloads: each pointer operand, then the length type (argument 2).
        let pointers: Vec<Type<'ctx>> = args[..intrinsic.pointers() as usize]
            .iter()
            .map(|a| a.ty())
            .collect();
        let old_decl = calls::called_function(user);
        if let Some((decl, fn_type)) = intrinsic.declaration(self.module, &pointers, args[2].ty()) {
            self.builder.rebuild_call(user, decl, fn_type, &args);
            if let Some(old_decl) = old_decl {
                delete_if_unused_declaration(old_decl);
            }
        }
    }
}

/// The addresses `#dbg_declare` records of `function` describe (a declare's
/// location is one value, never a list).
fn declared_addresses(function: Value<'_>) -> HashSet<Value<'_>> {
    let blocks = function
        .as_function()
        .map(|f| f.get_basic_blocks())
        .unwrap_or_default();
    blocks
        .into_iter()
        .flat_map(|block| Block::from(block).instructions())
        .flat_map(|inst| inst.dbg_declare_addresses())
        .collect()
}
