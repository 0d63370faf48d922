//! `byref-callee-copy`: gives every `byref` parameter of an `amdgpu_kernel`
//! that the kernel may write through a private copy, and marks the others
//! `readonly`.
//!
//! Input: any module. Every defined `amdgpu_kernel` (calling convention 91)
//! parameter with a `byref(T)` attribute is considered, whoever produced it
//! (`amdgpu-kernel-abi`, clang, a fixed rustc). Making a copy needs a data
//! layout that puts `alloca`s in address space 5 (`A5`, as every amdgcn
//! layout does); without one, a parameter that needs a copy is an error
//! (one that is only read is marked `readonly` all the same).
//!
//! Why: `byref` memory is the kernarg segment (address space 4, constant).
//! LangRef does not allow writes through it, AMDGPU alias analysis treats it
//! as never modified (a store through an `addrspacecast` of it is deleted at
//! -O2) and `-passes=lint` reports such stores. Frontends that assume a
//! by-value argument is theirs to modify (rustc) therefore need a copy.
//!
//! Guarantees, per parameter:
//! - if some use may write through it (store, atomicrmw, cmpxchg, a
//!   `memset`/`memcpy`/`memmove` destination, a call that is not known to
//!   only read it without capturing it), or lets it escape (`ptrtoint`, stored
//!   as a value, returned, ...), through any chain of `getelementptr`,
//!   `addrspacecast`, `bitcast`, `select`, `phi` and `freeze`: the entry block
//!   gets `%x.copy = alloca T, align A, addrspace(5)` and
//!   `llvm.memcpy(%x.copy, %x, alloc size of T)`, every use is retargeted to the
//!   copy (chains rebuilt in address space 5, or in the generic one where they
//!   meet pointers from elsewhere; `!amdgpu.noclobber` and `!invariant.load`
//!   dropped from retargeted loads) and the parameter, now only the memcpy
//!   source, is marked `readonly`;
//! - otherwise nothing is inserted and the parameter gets `readonly` (unless it
//!   already has `readonly` or `readnone`).
//!
//! `#dbg_declare`s of a generic pointer of a rewritten chain (rustc -O0
//! declares a by-value argument at its address) are moved to the copy.
//!
//! A use that cannot be retargeted (one that needs the old non-generic pointer
//! type, e.g. a call taking `ptr addrspace(1)`) is an error naming the kernel
//! and parameter, found before anything in the module is touched. Running the pass
//! twice changes nothing the second time.
//!
//! Run: `opt-22 -load-pass-plugin=target/release/liboffload_passes.so
//! -passes=byref-callee-copy in.ll -S`; `RUST_LOG=offload_passes=debug` logs
//! each decision with the first writing use found.

use std::collections::{HashMap, HashSet};

use inkwell::attributes::AttributeLoc;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::LLVMOpcode as Op;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};

use crate::ir;

pub const PASS_NAME: &str = "byref-callee-copy";

pub fn check_params(params: &str) -> Result<(), String> {
    crate::params::parse(params, &[]).map(drop)
}

pub fn run(module: &Module<'_>, params: &str) -> Result<bool, String> {
    check_params(params)?;
    let layout = ir::target_data(module);
    ir::log_skipped_declarations(module, PASS_NAME);
    let kernels = ir::amdgpu_kernels(module);
    // Check every parameter before changing any, so an error leaves the
    // module untouched (rewriting one parameter never changes whether
    // another's uses can be retargeted).
    for kernel in &kernels {
        for param in byref_params(*kernel) {
            param.check(module)?;
        }
    }
    let mut changed = false;
    for kernel in kernels {
        let mut entry_copies = HashSet::new();
        for param in byref_params(kernel) {
            changed |= param.process(module, &layout, &mut entry_copies)?;
        }
    }
    Ok(changed)
}

/// The `byref` parameters of a kernel, in order.
fn byref_params(kernel: FunctionValue<'_>) -> Vec<Param<'_>> {
    (0..kernel.count_params())
        .filter_map(|index| {
            ir::param_type_attr(kernel, index, "byref").map(|ty| Param { kernel, index, ty })
        })
        .collect()
}

/// One `byref` parameter of a kernel.
struct Param<'ctx> {
    kernel: FunctionValue<'ctx>,
    index: u32,
    /// The byref type (raw: it may be one inkwell cannot wrap).
    ty: LLVMTypeRef,
}

impl Param<'_> {
    fn value(&self) -> LLVMValueRef {
        // Not inkwell's get_nth_param: it panics on parameter types it cannot
        // wrap (`target(...)`), and `index` comes from the kernel's own list.
        // SAFETY: `index` is below the kernel's parameter count.
        unsafe { llvm_sys::core::LLVMGetParam(self.kernel.as_value_ref(), self.index) }
    }

    /// `kernel 'k', parameter #0 (%s)` for messages.
    fn describe(&self) -> String {
        ir::describe_param(self.kernel, self.index)
    }

    /// The errors [`Param::process`] would meet, found without changing anything.
    fn check(&self, module: &Module<'_>) -> Result<(), String> {
        let graph = Graph::trace(self.value());
        if graph.first_write.is_some() {
            self.copy_type()?;
            Plan::new(module, self, graph)?;
        }
        Ok(())
    }

    /// The byref type, which the copy needs to have a fixed size.
    fn copy_type(&self) -> Result<inkwell::types::BasicTypeEnum<'_>, String> {
        ir::fixed_size_type(self.ty).ok_or_else(|| {
            format!(
                "{}: byref type '{}' has no fixed size; cannot copy it",
                self.describe(),
                ir::type_text_raw(self.ty)
            )
        })
    }

    /// Decides and applies copy-or-readonly; `Ok(true)` when the IR changed.
    /// `entry_copies` holds the instructions earlier parameters of this kernel
    /// inserted at entry, so copies stay in parameter order.
    fn process(
        &self,
        module: &Module<'_>,
        layout: &TargetData,
        entry_copies: &mut HashSet<LLVMValueRef>,
    ) -> Result<bool, String> {
        let graph = Graph::trace(self.value());
        match &graph.first_write {
            None => {
                let changed = self.mark_readonly();
                log::debug!(
                    "{PASS_NAME}: {}: only read, no copy{}",
                    self.describe(),
                    if changed { "; marked readonly" } else { "" }
                );
                Ok(changed)
            }
            &Some((why, user)) => {
                // The user is printed only when debug logging is on: printing
                // an instruction numbers the whole module (LLVM builds a
                // module slot tracker per print), which made the pass
                // quadratic in the number of kernels when done eagerly.
                log::debug!(
                    "{PASS_NAME}: {}: may be written ({why}: `{}`); copying to private memory",
                    self.describe(),
                    ir::value_text(user)
                );
                let plan = Plan::new(module, self, graph)?;
                let (copy, memcpy) = self.insert_copy(module, layout, entry_copies)?;
                entry_copies.extend(plan.apply(module, copy, memcpy));
                self.check_only_memcpy_left()?;
                self.mark_readonly();
                Ok(true)
            }
        }
    }

    /// Adds `readonly` unless `readonly` or `readnone` is there; drops a
    /// `writeonly` that would contradict it. True when attributes changed.
    fn mark_readonly(&self) -> bool {
        let loc = AttributeLoc::Param(self.index);
        let has = |name| ir::has_param_attr(self.kernel, self.index, name);
        if has("readonly") || has("readnone") {
            return false;
        }
        if has("writeonly") {
            self.kernel
                .remove_enum_attribute(loc, ir::attr_kind("writeonly"));
        }
        let context = self.kernel.get_type().get_context();
        let readonly = context.create_enum_attribute(ir::attr_kind("readonly"), 0);
        self.kernel.add_attribute(loc, readonly);
        true
    }

    /// Inserts `%x.copy = alloca T, align A, addrspace(5)` and the memcpy from
    /// the parameter at entry, after allocas and earlier parameters' copies.
    fn insert_copy(
        &self,
        module: &Module<'_>,
        layout: &TargetData,
        entry_copies: &mut HashSet<LLVMValueRef>,
    ) -> Result<(LLVMValueRef, LLVMValueRef), String> {
        let ty = self.copy_type()?;
        let entry = self
            .kernel
            .get_first_basic_block()
            .ok_or_else(|| format!("{}: kernel has no body", self.describe()))?;
        // Insert after leading phis (an entry block without predecessors may
        // have empty ones), allocas and the copies of earlier parameters.
        let at = ir::block_instructions(entry.as_mut_ptr())
            .into_iter()
            .find(|&i| {
                !matches!(
                    ir::instruction_opcode(i),
                    Some(Op::LLVMAlloca | Op::LLVMPHI)
                ) && !entry_copies.contains(&i)
            })
            .ok_or_else(|| format!("{}: entry block has no terminator", self.describe()))?;
        // Byref without `align` means 1 for the source; the copy also honours
        // the type's ABI alignment, which the body's accesses may assume.
        let src_align = ir::align_u32(ir::param_align(self.kernel, self.index).unwrap_or(1));
        let copy_align = src_align.max(layout.get_abi_alignment(&ty));
        let size = layout.get_abi_size(&ty); // LLVMABISizeOfType is the alloc size
        let builder = ir::RawBuilder::new(module);
        builder.position_before(at);
        let copy = builder.build_alloca(ty.as_type_ref(), copy_align);
        let name = ir::raw_value_name(self.value());
        ir::set_raw_value_name(
            copy,
            &if name.is_empty() {
                "byref.copy".to_owned()
            } else {
                format!("{name}.copy")
            },
        );
        let size = module
            .get_context()
            .i64_type()
            .const_int(size, false)
            .as_value_ref();
        let memcpy = builder.build_memcpy(copy, copy_align, self.value(), src_align, size);
        entry_copies.extend([copy, memcpy]);
        Ok((copy, memcpy))
    }

    /// After the rewrite the memcpy source must be the parameter's only use;
    /// anything else is a bug in this pass, reported rather than left behind.
    fn check_only_memcpy_left(&self) -> Result<(), String> {
        let users = ir::users(self.value());
        match users.as_slice() {
            [only] if ir::is_intrinsic_call(*only, "llvm.memcpy") => Ok(()),
            _ => Err(format!(
                "{}: internal error: uses other than the copy remain: {}",
                self.describe(),
                users
                    .iter()
                    .map(|&u| format!("`{}`", ir::value_text(u)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

// ---------------------------------------------------------------------------
// Analysis: the pointers derived from the parameter and how each is used.

/// How one use of a pointer derived from the parameter touches its memory.
#[derive(Debug, PartialEq, Eq)]
enum Access {
    /// The user is itself a pointer derived from the parameter: follow it.
    Derive,
    /// Reads the memory, or does not touch it (a comparison).
    Read,
    /// May write the memory, or lets the pointer escape where a write can
    /// not be ruled out. The text says which.
    Write(&'static str),
}

/// The intrinsics whose pointer operands are rebuilt with new overload
/// types, and how many leading arguments are pointers.
const MEM_INTRINSICS: &[(&str, u32)] = &[
    ("llvm.memcpy", 2),
    ("llvm.memcpy.inline", 2),
    ("llvm.memmove", 2),
    ("llvm.memset", 1),
    ("llvm.memset.inline", 1),
];

fn mem_intrinsic(call: LLVMValueRef) -> Option<(&'static str, u32)> {
    MEM_INTRINSICS
        .iter()
        .copied()
        .find(|(name, _)| ir::is_intrinsic_call(call, name))
}

fn is_call(op: Op) -> bool {
    matches!(op, Op::LLVMCall | Op::LLVMInvoke | Op::LLVMCallBr)
}

/// True for a scalar pointer result (vectors of pointers are not followed).
fn yields_pointer(inst: LLVMValueRef) -> bool {
    ir::pointer_address_space(ir::type_of(inst)).is_some()
}

/// How `user` uses a derived pointer at operand `index`.
fn classify(user: LLVMValueRef, index: u32) -> Access {
    let Some(op) = ir::instruction_opcode(user) else {
        return Access::Write("used by a non-instruction");
    };
    match op {
        Op::LLVMLoad => Access::Read,
        Op::LLVMStore if index == 1 => Access::Write("store through it"),
        Op::LLVMStore => Access::Write("the pointer itself is stored (escapes)"),
        Op::LLVMAtomicRMW if index == 0 => Access::Write("atomicrmw through it"),
        Op::LLVMAtomicCmpXchg if index == 0 => Access::Write("cmpxchg through it"),
        Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg => {
            Access::Write("the pointer itself is stored atomically (escapes)")
        }
        Op::LLVMGetElementPtr | Op::LLVMAddrSpaceCast | Op::LLVMBitCast | Op::LLVMFreeze
            if index == 0 && yields_pointer(user) =>
        {
            Access::Derive
        }
        Op::LLVMSelect if index > 0 && yields_pointer(user) => Access::Derive,
        Op::LLVMPHI if yields_pointer(user) => Access::Derive,
        Op::LLVMICmp => Access::Read,
        // The address alone carries no provenance to write through.
        Op::LLVMPtrToAddr => Access::Read,
        Op::LLVMPtrToInt => Access::Write("ptrtoint (the address escapes)"),
        op if is_call(op) => classify_call(user, index),
        Op::LLVMRet => Access::Write("returned (escapes)"),
        _ => Access::Write("used by an instruction this pass does not follow (escapes)"),
    }
}

/// A call argument only reads when the call reads it (`readonly`/`readnone`
/// on the argument, or a call that writes no memory at all) and keeps no
/// writable copy of it (`captures` without full provenance, return included).
fn classify_call(call: LLVMValueRef, index: u32) -> Access {
    if index == ir::callee_operand_index(call) {
        return Access::Write("called as a function");
    }
    if index >= ir::call_arg_count(call) {
        // Bundle operands of llvm.assume only state facts about the pointer.
        return if ir::is_intrinsic_call(call, "llvm.assume") {
            Access::Read
        } else {
            Access::Write("operand bundle of a call")
        };
    }
    if index == 0 && mem_intrinsic(call).is_some() {
        return Access::Write("memset/memcpy/memmove destination");
    }
    let reads_only = ir::call_param_attr(call, index, "readonly").is_some()
        || ir::call_param_attr(call, index, "readnone").is_some()
        || ir::call_function_attr(call, "memory").is_some_and(ir::memory_effects_read_only);
    let captured =
        ir::call_param_attr(call, index, "captures").is_none_or(ir::captures_writable_provenance);
    match (reads_only, captured) {
        (true, false) => Access::Read,
        (false, _) => Access::Write("passed to a call that may write through it"),
        (true, true) => Access::Write("passed to a call that may capture it"),
    }
}

/// A use of a derived pointer that is not itself a derived pointer.
#[derive(Clone, Copy)]
struct Leaf {
    user: LLVMValueRef,
    index: u32,
    node: LLVMValueRef,
}

/// The parameter and every pointer derived from it, with their other uses.
struct Graph {
    /// The parameter first, then derived instructions in discovery order.
    nodes: Vec<LLVMValueRef>,
    members: HashSet<LLVMValueRef>,
    leaves: Vec<Leaf>,
    /// The first use found that may write: why, and the user (printed
    /// only for the debug log; see `Param::process`).
    first_write: Option<(&'static str, LLVMValueRef)>,
}

impl Graph {
    /// Walks uses from `param` through derived pointers; `members` stops the
    /// walk on phi cycles.
    fn trace(param: LLVMValueRef) -> Graph {
        let mut graph = Graph {
            nodes: vec![param],
            members: HashSet::from([param]),
            leaves: Vec::new(),
            first_write: None,
        };
        let mut next = 0;
        while next < graph.nodes.len() {
            let node = graph.nodes[next];
            next += 1;
            for user in ir::users(node) {
                for index in ir::operand_indices(user, node) {
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

    /// The pointer operands of a derived instruction (the parameter has none).
    fn inputs(node: LLVMValueRef) -> Vec<LLVMValueRef> {
        match ir::instruction_opcode(node) {
            Some(Op::LLVMSelect) => vec![ir::operand(node, 1), ir::operand(node, 2)],
            Some(Op::LLVMPHI) => ir::phi_incoming(node).into_iter().map(|(v, _)| v).collect(),
            Some(_) => vec![ir::operand(node, 0)],
            None => Vec::new(),
        }
    }

    /// The nodes that point into the parameter's memory only: they can live
    /// in address space 5. A node that may also point elsewhere (a select or
    /// phi with an outside input, or anything derived from one) must be a
    /// generic pointer.
    fn private_nodes(&self) -> HashSet<LLVMValueRef> {
        let mut mixed: Vec<LLVMValueRef> = self
            .nodes
            .iter()
            .copied()
            .filter(|&n| Self::inputs(n).iter().any(|i| !self.members.contains(i)))
            .collect();
        let mut is_mixed: HashSet<LLVMValueRef> = mixed.iter().copied().collect();
        while let Some(node) = mixed.pop() {
            for user in ir::users(node) {
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

// ---------------------------------------------------------------------------
// Rewrite: rebuild the derived pointers on the copy, then retarget the leaves.

/// Where a rebuilt pointer lives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Space {
    Private,
    Generic,
}

/// How a leaf's user is retargeted.
#[derive(Clone, Copy)]
enum LeafAction {
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

fn leaf_action(leaf: &Leaf) -> LeafAction {
    let op = ir::instruction_opcode(leaf.user);
    match op {
        Some(Op::LLVMLoad) => LeafAction::AnyPointer,
        Some(Op::LLVMStore) if leaf.index == 1 => LeafAction::AnyPointer,
        Some(Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg) if leaf.index == 0 => {
            LeafAction::AnyPointer
        }
        Some(Op::LLVMICmp) => LeafAction::Compare,
        Some(op) if is_call(op) => {
            let args = ir::call_arg_count(leaf.user);
            if leaf.index < args {
                match mem_intrinsic(leaf.user) {
                    Some((_, pointers)) if leaf.index < pointers => LeafAction::MemIntrinsic,
                    _ => LeafAction::SameType,
                }
            } else if leaf.index == ir::callee_operand_index(leaf.user) {
                LeafAction::SameType
            } else if ir::is_intrinsic_call(leaf.user, "llvm.assume") {
                LeafAction::DropAssume
            } else {
                LeafAction::AnyPointer
            }
        }
        _ => LeafAction::SameType,
    }
}

/// The checked rewrite of one parameter: built before the IR changes, so
/// an unsupported use fails without leaving a half-rewritten kernel.
struct Plan {
    graph: Graph,
    private: HashSet<LLVMValueRef>,
    /// Non-phi derived instructions, each after the derived inputs it needs.
    order: Vec<LLVMValueRef>,
    /// Leaf users, each once, with its leaves and their actions.
    users: Vec<(LLVMValueRef, Vec<(Leaf, LeafAction)>)>,
    private_ptr: LLVMTypeRef,
    generic_ptr: LLVMTypeRef,
}

impl Plan {
    fn new(module: &Module<'_>, param: &Param<'_>, graph: Graph) -> Result<Plan, String> {
        let alloca_as = ir::alloca_address_space(module);
        if alloca_as != ir::AMDGPU_PRIVATE_AS {
            return Err(format!(
                "{}: the data layout puts allocas in address space {alloca_as}, not {} (A5); \
                 is this an amdgcn module?",
                param.describe(),
                ir::AMDGPU_PRIVATE_AS
            ));
        }
        let private = graph.private_nodes();
        let order = build_order(&graph).map_err(|e| format!("{}: {e}", param.describe()))?;
        let generic_ptr = ir::pointer_type(module, 0);
        let mut users: Vec<(LLVMValueRef, Vec<(Leaf, LeafAction)>)> = Vec::new();
        for leaf in &graph.leaves {
            let action = leaf_action(leaf);
            if let LeafAction::SameType = action {
                let old = ir::type_of(leaf.node);
                if old != generic_ptr {
                    return Err(format!(
                        "{}: cannot retarget `{}` to the private copy: it needs a '{}' \
                         (only uses of a generic 'ptr' can be redirected to the copy)",
                        param.describe(),
                        ir::value_text(leaf.user),
                        ir::type_text_raw(old)
                    ));
                }
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
            private_ptr: ir::pointer_type(module, ir::AMDGPU_PRIVATE_AS),
            generic_ptr,
        })
    }

    /// Rewrites onto `copy` (filled by `memcpy`); returns the generic cast of
    /// the copy made at entry, if one was needed.
    fn apply(
        self,
        module: &Module<'_>,
        copy: LLVMValueRef,
        memcpy: LLVMValueRef,
    ) -> Option<LLVMValueRef> {
        let mut rewriter = Rewriter {
            module,
            builder: ir::RawBuilder::new(module),
            plan: &self,
            new: HashMap::from([(self.graph.nodes[0], copy)]),
            generic: HashMap::new(),
            copy,
            memcpy,
            outside: HashMap::new(),
        };
        rewriter.rebuild_nodes();
        for (user, leaves) in &self.users {
            rewriter.retarget(*user, leaves);
        }
        // `#dbg_declare`s of a generic pointer of the old chain (rustc -O0
        // declares a by-value argument at its address) follow it to the copy,
        // rather than becoming `ptr poison` when the chain goes.
        let function = ir::instruction_function(memcpy);
        let declared = ir::declared_addresses(function);
        for &node in &self.graph.nodes[1..] {
            if declared.contains(&node) && ir::type_of(node) == self.generic_ptr {
                let generic = rewriter.form(node, Space::Generic);
                ir::replace_all_uses_raw(node, generic);
            }
        }
        // The parameter stays (the memcpy reads it); the old chains go.
        ir::erase_instructions(&self.graph.nodes[1..]);
        rewriter.generic.get(&copy).copied()
    }

    fn space(&self, node: LLVMValueRef) -> Space {
        if self.private.contains(&node) {
            Space::Private
        } else {
            Space::Generic
        }
    }

    fn pointer(&self, space: Space) -> LLVMTypeRef {
        match space {
            Space::Private => self.private_ptr,
            Space::Generic => self.generic_ptr,
        }
    }
}

/// Orders the non-phi derived instructions so each comes after its derived
/// inputs. Cycles in SSA pass through phis, which are created empty first;
/// a cycle without one exists only in unreachable code and is refused.
fn build_order(graph: &Graph) -> Result<Vec<LLVMValueRef>, String> {
    #[derive(PartialEq)]
    enum State {
        Visiting,
        Done,
    }
    let is_phi = |n| ir::instruction_opcode(n) == Some(Op::LLVMPHI);
    let mut state: HashMap<LLVMValueRef, State> = HashMap::new();
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
                Some(State::Visiting) => {
                    return Err(format!(
                        "derived pointers form a cycle without a phi (unreachable code?) at `{}`",
                        ir::value_text(node)
                    ));
                }
                None => {}
            }
            state.insert(node, State::Visiting);
            stack.push((node, true));
            for input in Graph::inputs(node) {
                if graph.members.contains(&input) && input != graph.nodes[0] && !is_phi(input) {
                    if state.get(&input) == Some(&State::Visiting) {
                        return Err(format!(
                            "derived pointers form a cycle without a phi (unreachable code?) at `{}`",
                            ir::value_text(input)
                        ));
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

struct Rewriter<'a, 'ctx> {
    module: &'a Module<'ctx>,
    builder: ir::RawBuilder,
    plan: &'a Plan,
    /// Old derived pointer → its rebuilt value in its own space.
    new: HashMap<LLVMValueRef, LLVMValueRef>,
    /// Rebuilt private pointer → its `addrspacecast` to generic.
    generic: HashMap<LLVMValueRef, LLVMValueRef>,
    copy: LLVMValueRef,
    memcpy: LLVMValueRef,
    /// Outside pointer → its generic cast (right after its definition).
    outside: HashMap<LLVMValueRef, LLVMValueRef>,
}

impl Rewriter<'_, '_> {
    /// The rebuilt `node` in `space` (a generic cast of a private value is
    /// made once, right after the value's definition).
    fn form(&mut self, node: LLVMValueRef, space: Space) -> LLVMValueRef {
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
        let name = ir::raw_value_name(value);
        if !name.is_empty() {
            ir::set_raw_value_name(cast, &format!("{name}.generic"));
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
        value: LLVMValueRef,
        space: Space,
        before: Option<LLVMValueRef>,
        block: LLVMBasicBlockRef,
    ) -> LLVMValueRef {
        if self.plan.graph.members.contains(&value) {
            return self.form(value, space);
        }
        if let Some(&cast) = self.outside.get(&value) {
            return cast;
        }
        let cacheable = match ir::instruction_opcode(value) {
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
        let phis: Vec<LLVMValueRef> = self.plan.graph.nodes[1..]
            .iter()
            .copied()
            .filter(|&n| ir::instruction_opcode(n) == Some(Op::LLVMPHI))
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
                    let input = self.form(ir::operand(node, 0), self.plan.space(node));
                    self.new.insert(node, input);
                }
            }
        }
        for &phi in &phis {
            let space = self.plan.space(phi);
            for (value, block) in ir::phi_incoming(phi) {
                let value = self.input(value, space, None, block);
                self.builder.add_incoming(self.new[&phi], value, block);
            }
        }
    }

    /// A new instruction for one non-phi derived instruction; `None` for a
    /// cast, which stands for its rebuilt input.
    fn rebuild(&mut self, node: LLVMValueRef) -> Option<LLVMValueRef> {
        let op = ir::instruction_opcode(node);
        if matches!(op, Some(Op::LLVMAddrSpaceCast | Op::LLVMBitCast)) {
            return None;
        }
        let space = self.plan.space(node);
        let block = ir::instruction_block(node);
        let inputs: Vec<LLVMValueRef> = Graph::inputs(node)
            .into_iter()
            .map(|i| self.input(i, space, Some(node), block))
            .collect();
        self.builder.position_before(node);
        Some(match op {
            Some(Op::LLVMGetElementPtr) => self.builder.build_gep_like(node, inputs[0]),
            Some(Op::LLVMSelect) => {
                self.builder
                    .build_select(ir::operand(node, 0), inputs[0], inputs[1])
            }
            _ => self.builder.build_freeze(inputs[0]),
        })
    }

    /// Records new instruction `new` for `old`, moving name and metadata.
    fn finish_node(&mut self, old: LLVMValueRef, new: LLVMValueRef) {
        let name = ir::raw_value_name(old);
        ir::set_raw_value_name(old, "");
        ir::set_raw_value_name(new, &name);
        ir::copy_instruction_metadata(self.module, old, new);
        self.new.insert(old, new);
    }

    /// Points one leaf user at the rebuilt pointers: operand by operand
    /// first (`cmpxchg ptr %p, ptr %x, ptr %p` needs a private address and a
    /// generic value), then what concerns the whole instruction.
    fn retarget(&mut self, user: LLVMValueRef, leaves: &[(Leaf, LeafAction)]) {
        let mut whole = None;
        let mut mem_leaves = Vec::new();
        for &(leaf, action) in leaves {
            match action {
                LeafAction::AnyPointer => {
                    let value = self.form(leaf.node, self.plan.space(leaf.node));
                    ir::set_operand(user, leaf.index, value);
                }
                // Checked in Plan::new: the old type is generic.
                LeafAction::SameType => {
                    let value = self.form(leaf.node, Space::Generic);
                    ir::set_operand(user, leaf.index, value);
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
            Some(_) => ir::erase_instructions(&[user]),
        }
    }

    /// A load from the copy reads memory this kernel writes: the "never
    /// clobbered" and "invariant" facts about the kernarg no longer hold.
    fn drop_load_facts(&self, user: LLVMValueRef) {
        if ir::instruction_opcode(user) == Some(Op::LLVMLoad) {
            for kind in ["amdgpu.noclobber", "invariant.load"] {
                ir::drop_metadata(user, ir::md_kind(self.module, kind));
            }
        }
    }

    /// `icmp` of two private pointers stays private; anything else compares
    /// generic pointers.
    fn retarget_compare(&mut self, user: LLVMValueRef) {
        let operands = [ir::operand(user, 0), ir::operand(user, 1)];
        let members = &self.plan.graph.members;
        let all_private = operands
            .iter()
            .all(|o| members.contains(o) && self.plan.space(*o) == Space::Private);
        let space = if all_private {
            Space::Private
        } else {
            Space::Generic
        };
        let block = ir::instruction_block(user);
        for (index, value) in operands.into_iter().enumerate() {
            let value = self.input(value, space, Some(user), block);
            ir::set_operand(user, index as u32, value);
        }
    }

    /// Re-declares a mem intrinsic for the new pointer types of its
    /// destination/source and rebuilds the call (attributes and metadata kept).
    fn retarget_mem_intrinsic(&mut self, user: LLVMValueRef, leaves: &[Leaf]) {
        let Some((name, pointers)) = mem_intrinsic(user) else {
            return;
        };
        let mut args: Vec<LLVMValueRef> = (0..ir::call_arg_count(user))
            .map(|i| ir::operand(user, i))
            .collect();
        for leaf in leaves {
            args[leaf.index as usize] = self.form(leaf.node, self.plan.space(leaf.node));
        }
        // Overloads: each pointer operand, then the length type (argument 2).
        let mut overloads: Vec<LLVMTypeRef> = args[..pointers as usize]
            .iter()
            .map(|&a| ir::type_of(a))
            .collect();
        overloads.push(ir::type_of(args[2]));
        let old_decl = ir::called_function(user);
        if let Some((decl, fn_type)) = ir::intrinsic_declaration(self.module, name, &overloads) {
            self.builder
                .rebuild_call(self.module, user, decl, fn_type, &mut args);
            if let Some(old_decl) = old_decl {
                ir::delete_if_unused_declaration(old_decl);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::run_pass;

    const HEADER: &str = "target datalayout = \"e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n";

    fn kernel(body: &str) -> String {
        format!(
            "{HEADER}declare void @use(ptr)\ndeclare void @read(ptr readonly captures(none))\n\
             define amdgpu_kernel void @k(ptr addrspace(4) byref([12 x i8]) align 4 %s, i1 %c, ptr addrspace(1) %out) {{\n{body}\n  ret void\n}}\n"
        )
    }

    fn run_on(body: &str) -> (bool, String) {
        run_pass(run, "", &kernel(body)).unwrap_or_else(|e| panic!("pass failed: {e}"))
    }

    /// True when the pass copied `%s` (and then marked it readonly).
    fn copied(body: &str) -> bool {
        let (changed, out) = run_on(body);
        assert!(changed);
        out.contains("%s.copy = alloca [12 x i8], align 4, addrspace(5)")
    }

    #[test]
    fn load_only_marks_readonly_without_copy() {
        let (changed, out) = run_on("  %v = load i32, ptr addrspace(4) %s, align 4");
        assert!(changed);
        assert!(!out.contains("alloca"), "{out}");
        assert!(out.contains("readonly byref([12 x i8])"), "{out}");
    }

    #[test]
    fn writes_make_a_copy() {
        for body in [
            "  store i32 1, ptr addrspace(4) %s, align 4",
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  store i32 1, ptr %g, align 4",
            "  %o = atomicrmw add ptr addrspace(4) %s, i32 1 seq_cst",
            "  %o = cmpxchg ptr addrspace(4) %s, i32 0, i32 1 seq_cst seq_cst",
            "  call void @llvm.memset.p4.i64(ptr addrspace(4) align 4 %s, i8 0, i64 12, i1 false)",
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  call void @use(ptr %g)",
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  %i = ptrtoint ptr %g to i64",
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  store ptr %g, ptr addrspace(1) %out, align 8",
        ] {
            assert!(copied(body), "no copy for:\n{body}");
        }
    }

    #[test]
    fn reads_make_no_copy() {
        for body in [
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  call void @read(ptr %g)",
            "  call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) %out, ptr addrspace(4) %s, i64 12, i1 false)",
            "  %p = getelementptr i8, ptr addrspace(4) %s, i64 4\n  %q = select i1 %c, ptr addrspace(4) %s, ptr addrspace(4) %p\n  %v = load i32, ptr addrspace(4) %q, align 4",
            "  %e = icmp eq ptr addrspace(4) %s, null",
        ] {
            assert!(!copied(body), "copy for:\n{body}");
        }
    }

    #[test]
    fn readonly_call_that_captures_counts_as_write() {
        let ir = format!(
            "{HEADER}declare ptr @id(ptr readonly)\n\
             define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %s) {{\n\
               %g = addrspacecast ptr addrspace(4) %s to ptr\n  %r = call ptr @id(ptr %g)\n  ret void\n}}\n"
        );
        let (_, out) = run_pass(run, "", &ir).unwrap();
        assert!(out.contains("%s.copy = alloca i32"), "{out}");
        assert!(out.contains("call ptr @id(ptr %s.copy.generic)"), "{out}");
    }

    #[test]
    fn write_through_phi_cycle_is_found_and_rebuilt() {
        let ir = format!(
            "{HEADER}define amdgpu_kernel void @k(ptr addrspace(4) byref([4 x i32]) align 4 %s, i32 %n) {{\n\
             entry:\n  br label %loop\n\
             loop:\n  %p = phi ptr addrspace(4) [ %s, %entry ], [ %q, %loop ]\n  %i = phi i32 [ 0, %entry ], [ %j, %loop ]\n\
               %g = addrspacecast ptr addrspace(4) %p to ptr\n  store i32 %i, ptr %g, align 4\n\
               %q = getelementptr i32, ptr addrspace(4) %p, i64 1\n  %j = add i32 %i, 1\n\
               %d = icmp eq i32 %j, %n\n  br i1 %d, label %exit, label %loop\n\
             exit:\n  ret void\n}}\n"
        );
        let (changed, out) = run_pass(run, "", &ir).unwrap();
        assert!(changed);
        assert!(
            out.contains("%p = phi ptr addrspace(5) [ %s.copy, %entry ], [ %q, %loop ]"),
            "{out}"
        );
        assert!(
            out.contains("store i32 %i, ptr addrspace(5) %p, align 4"),
            "{out}"
        );
        assert!(
            out.contains("%q = getelementptr i32, ptr addrspace(5) %p, i64 1"),
            "{out}"
        );
    }

    #[test]
    fn select_with_outside_pointer_goes_generic() {
        let (_, out) = run_on(
            "  %g = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)\n  %p = select i1 %c, ptr addrspace(1) %g, ptr addrspace(1) %out\n  store i32 1, ptr addrspace(1) %p, align 4",
        );
        assert!(
            out.contains("%1 = addrspacecast ptr addrspace(1) %out to ptr"),
            "{out}"
        );
        assert!(
            out.contains("%p = select i1 %c, ptr %s.copy.generic, ptr %1"),
            "{out}"
        );
        assert!(out.contains("store i32 1, ptr %p, align 4"), "{out}");
    }

    #[test]
    fn use_needing_a_global_pointer_is_an_error() {
        let ir = format!(
            "{HEADER}declare void @g(ptr addrspace(1))\n\
             define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %s) {{\n\
               %p = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)\n  store i32 1, ptr addrspace(1) %p, align 4\n\
               call void @g(ptr addrspace(1) %p)\n  ret void\n}}\n"
        );
        let err = run_pass(run, "", &ir).unwrap_err();
        assert!(
            err.contains(
                "kernel 'k', parameter #0 (%s): cannot retarget `call void @g(ptr addrspace(1) %p)`"
            ),
            "{err}"
        );
    }

    #[test]
    fn an_error_on_a_later_parameter_leaves_earlier_ones_untouched() {
        let ir = format!(
            "{HEADER}declare void @g(ptr addrspace(1))\n\
             define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %a, ptr addrspace(4) byref(i32) align 4 %s) {{\n\
               %q = addrspacecast ptr addrspace(4) %a to ptr\n  store i32 2, ptr %q, align 4\n\
               %p = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)\n  store i32 1, ptr addrspace(1) %p, align 4\n\
               call void @g(ptr addrspace(1) %p)\n  ret void\n}}\n"
        );
        let context = inkwell::context::Context::create();
        let module = crate::test_support::parse(&context, &ir);
        let before = module.print_to_string().to_string();
        let err = run(&module, "").unwrap_err();
        assert!(
            err.contains("kernel 'k', parameter #1 (%s): cannot retarget"),
            "{err}"
        );
        assert_eq!(module.print_to_string().to_string(), before);
    }

    #[test]
    fn each_operand_of_one_user_gets_its_own_form() {
        let (_, out) = run_on(
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  %x = cmpxchg ptr %g, ptr null, ptr %g seq_cst seq_cst\n  store ptr %g, ptr %g, align 8",
        );
        assert!(
            out.contains(
                "cmpxchg ptr addrspace(5) %s.copy, ptr null, ptr %s.copy.generic seq_cst seq_cst"
            ),
            "{out}"
        );
        assert!(
            out.contains("store ptr %s.copy.generic, ptr addrspace(5) %s.copy, align 8"),
            "{out}"
        );
    }

    #[test]
    fn second_run_changes_nothing() {
        let ir = kernel(
            "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  store i32 1, ptr %g, align 4\n  %v = load i32, ptr addrspace(4) %s, align 4",
        );
        let (changed, once) = run_pass(run, "", &ir).unwrap();
        assert!(changed);
        let (changed, twice) = run_pass(run, "", &once).unwrap();
        assert!(!changed);
        assert_eq!(once, twice);
    }

    #[test]
    fn non_kernels_and_plain_pointers_are_left_alone() {
        let ir = format!(
            "{HEADER}define void @f(ptr addrspace(4) byref(i32) align 4 %s) {{\n  store i32 1, ptr addrspace(4) %s, align 4\n  ret void\n}}\n\
             define amdgpu_kernel void @k(ptr addrspace(1) %p) {{\n  store i32 1, ptr addrspace(1) %p, align 4\n  ret void\n}}\n"
        );
        let (changed, _) = run_pass(run, "", &ir).unwrap();
        assert!(!changed);
    }

    #[test]
    fn rejects_parameters() {
        assert!(check_params("x").is_err());
    }

    #[test]
    fn an_error_on_a_later_parameter_leaves_the_module_unchanged() {
        use crate::test_support::parse;
        use inkwell::context::Context;
        // %a alone would be copied; %b cannot be, so nothing may change.
        let ir = format!(
            "{HEADER}declare void @g(ptr addrspace(1))\n\
             define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %a, ptr addrspace(4) byref(i32) align 4 %b) {{\n\
               %pa = addrspacecast ptr addrspace(4) %a to ptr\n  store i32 1, ptr %pa, align 4\n\
               %p = addrspacecast ptr addrspace(4) %b to ptr addrspace(1)\n  store i32 1, ptr addrspace(1) %p, align 4\n\
               call void @g(ptr addrspace(1) %p)\n  ret void\n}}\n"
        );
        let context = Context::create();
        let module = parse(&context, &ir);
        let before = module.print_to_string().to_string();
        let err = run(&module, "").unwrap_err();
        assert!(err.contains("parameter #1 (%b): cannot retarget"), "{err}");
        assert_eq!(module.print_to_string().to_string(), before);
    }

    #[test]
    fn a_written_byref_of_a_type_without_fixed_size_is_an_error() {
        let ir = format!(
            "{HEADER}define amdgpu_kernel void @k(ptr addrspace(4) byref(target(\"amdgcn.named.barrier\", 0)) %s) {{\n\
               %p = addrspacecast ptr addrspace(4) %s to ptr\n  store i32 1, ptr %p, align 4\n  ret void\n}}\n"
        );
        let err = run_pass(run, "", &ir).unwrap_err();
        assert_eq!(
            err,
            "kernel 'k', parameter #0 (%s): byref type 'target(\"amdgcn.named.barrier\", 0)' has no fixed size; cannot copy it"
        );
    }
}
