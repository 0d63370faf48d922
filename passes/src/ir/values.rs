//! What any [`Value`] can be asked: its type, name, text, operands and
//! users, and the inkwell view of it where inkwell can wrap it.

use std::ffi::CStr;

use inkwell::basic_block::BasicBlock;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;

/// An instruction's opcode, as LLVM's C API numbers them.
pub use llvm_sys::LLVMOpcode as Opcode;

use super::handles::{Block, Type, Value};

impl<'ctx> Value<'ctx> {
    pub fn ty(self) -> Type<'ctx> {
        // SAFETY: every live value has a type of its context.
        unsafe { Type::from_raw(llvm::LLVMTypeOf(self.as_raw())) }
    }

    /// The value's name (empty when unnamed), invalid UTF-8 replaced (for
    /// lookups and messages; [`name_bytes`](Self::name_bytes) has it exact).
    pub fn name(self) -> String {
        String::from_utf8_lossy(&self.name_bytes()).into_owned()
    }

    /// The value's name as LLVM has it: any bytes (empty when unnamed).
    pub fn name_bytes(self) -> Vec<u8> {
        // SAFETY: the returned pointer is valid for `len` bytes while the
        // value lives; it is copied out at once.
        unsafe {
            let mut len = 0usize;
            let ptr = llvm::LLVMGetValueName2(self.as_raw(), &mut len);
            if ptr.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts(ptr.cast::<u8>(), len).to_vec()
        }
    }

    /// Renames the value (an empty name makes it unnamed).
    pub fn set_name(self, name: &str) {
        // SAFETY: the name is passed with its length; LLVM copies it.
        unsafe { llvm::LLVMSetValueName2(self.as_raw(), name.as_ptr().cast(), name.len()) }
    }

    /// The value printed as IR, trimmed (for messages and logs only:
    /// printing an instruction numbers its whole function).
    pub fn text(self) -> String {
        // SAFETY: LLVMPrintValueToString returns an owned C string we free.
        unsafe {
            let raw = llvm::LLVMPrintValueToString(self.as_raw());
            let text = CStr::from_ptr(raw).to_string_lossy().trim().to_owned();
            llvm::LLVMDisposeMessage(raw);
            text
        }
    }

    /// Makes every use of `self` (instructions, constants, metadata) use
    /// `new`, which has the same type.
    pub fn replace_all_uses_with(self, new: Value<'ctx>) {
        debug_assert!(self.ty() == new.ty(), "RAUW needs equal types");
        // SAFETY: both are live values of one context with the same type.
        unsafe { llvm::LLVMReplaceAllUsesWith(self.as_raw(), new.as_raw()) }
    }

    /// The opcode of an instruction; `None` for arguments, constants and others.
    pub fn opcode(self) -> Option<Opcode> {
        // SAFETY: LLVMIsAInstruction accepts any value.
        unsafe {
            (!llvm::LLVMIsAInstruction(self.as_raw()).is_null())
                .then(|| llvm::LLVMGetInstructionOpcode(self.as_raw()))
        }
    }

    /// True for a `load` or `store` that is atomic or volatile.
    pub fn is_atomic_or_volatile_access(self) -> bool {
        if !matches!(self.opcode(), Some(Opcode::LLVMLoad | Opcode::LLVMStore)) {
            return false;
        }
        // SAFETY: a load or store, which both accessors take.
        unsafe {
            llvm::LLVMGetVolatile(self.as_raw()) != 0
                || llvm::LLVMGetOrdering(self.as_raw())
                    != llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
        }
    }

    pub fn is_instruction(self) -> bool {
        self.opcode().is_some()
    }

    pub fn is_function(self) -> bool {
        // SAFETY: LLVMIsAFunction accepts any value.
        unsafe { !llvm::LLVMIsAFunction(self.as_raw()).is_null() }
    }

    /// The number of operands of a user (for calls: arguments, bundle
    /// operands, callee); 0 for values that use nothing.
    pub fn operand_count(self) -> u32 {
        // SAFETY: LLVMIsAUser accepts any value; only users have operands.
        unsafe {
            if llvm::LLVMIsAUser(self.as_raw()).is_null() {
                return 0;
            }
            llvm::LLVMGetNumOperands(self.as_raw()).max(0) as u32
        }
    }

    /// Operand `index`, `None` past the end (or for a null operand).
    pub fn operand(self, index: u32) -> Option<Value<'ctx>> {
        if index >= self.operand_count() {
            return None;
        }
        // SAFETY: `index` is below the user's operand count.
        unsafe { Value::from_raw_opt(llvm::LLVMGetOperand(self.as_raw(), index)) }
    }

    /// Sets operand `index` (`index` below [`Self::operand_count`]); the
    /// caller keeps the IR well typed.
    pub fn set_operand(self, index: u32, value: Value<'ctx>) {
        assert!(index < self.operand_count(), "operand index out of range");
        // SAFETY: the index is in range and both values are live.
        unsafe { llvm::LLVMSetOperand(self.as_raw(), index, value.as_raw()) }
    }

    /// The operand numbers at which `self` uses `value` (`store ptr %p,
    /// ptr %p` has two).
    pub fn operand_indices(self, value: Value<'ctx>) -> Vec<u32> {
        (0..self.operand_count())
            .filter(|&i| self.operand(i) == Some(value))
            .collect()
    }

    /// The distinct users of `self`, in use-list order.
    pub fn users(self) -> Vec<Value<'ctx>> {
        let mut out: Vec<Value<'ctx>> = Vec::new();
        // Few users: a linear search; many (a kernel launched from 10,000
        // sites): a set, or collecting them would be quadratic.
        let mut seen: Option<std::collections::HashSet<Value<'ctx>>> = None;
        for user in self.user_iter() {
            let new = match &mut seen {
                Some(set) => set.insert(user),
                None if out.len() < 32 => !out.contains(&user),
                None => {
                    let mut set: std::collections::HashSet<Value<'ctx>> =
                        out.iter().copied().collect();
                    let new = set.insert(user);
                    seen = Some(set);
                    new
                }
            };
            if new {
                out.push(user);
            }
        }
        out
    }

    /// The user of each use of `self`, in use-list order, without
    /// collecting them (a user appears once per use). Uses of `self` must
    /// not change while the iterator lives.
    pub fn user_iter(self) -> impl Iterator<Item = Value<'ctx>> {
        // SAFETY: the first use of a live value (null when unused).
        let mut use_ = unsafe { llvm::LLVMGetFirstUse(self.as_raw()) };
        std::iter::from_fn(move || {
            if use_.is_null() {
                return None;
            }
            // SAFETY: a live use of a live value; its user is live.
            unsafe {
                let user = Value::from_raw(llvm::LLVMGetUser(use_));
                use_ = llvm::LLVMGetNextUse(use_);
                Some(user)
            }
        })
    }

    pub fn has_uses(self) -> bool {
        // SAFETY: reads the first use of a live value.
        unsafe { !llvm::LLVMGetFirstUse(self.as_raw()).is_null() }
    }

    /// The block holding an instruction (`None` for other values).
    pub fn block(self) -> Option<Block<'ctx>> {
        self.opcode()?;
        // SAFETY: an instruction's parent block, null when detached.
        unsafe { Block::from_raw_opt(llvm::LLVMGetInstructionParent(self.as_raw())) }
    }

    /// The instruction after this one in its block.
    pub fn next_instruction(self) -> Option<Value<'ctx>> {
        self.opcode()?;
        // SAFETY: the next instruction of a live instruction, null at the end.
        unsafe { Value::from_raw_opt(llvm::LLVMGetNextInstruction(self.as_raw())) }
    }

    /// The instruction before this one in its block.
    pub fn previous_instruction(self) -> Option<Value<'ctx>> {
        self.opcode()?;
        // SAFETY: the previous instruction of a live instruction, null at the start.
        unsafe { Value::from_raw_opt(llvm::LLVMGetPreviousInstruction(self.as_raw())) }
    }

    pub fn as_function(self) -> Option<FunctionValue<'ctx>> {
        // SAFETY: FunctionValue::new checks for a function and wraps it.
        unsafe { FunctionValue::new(self.as_raw()) }
    }

    /// The inkwell view of a global variable (not a function or alias).
    pub fn as_global_variable(self) -> Option<inkwell::values::GlobalValue<'ctx>> {
        // SAFETY: LLVMIsAGlobalVariable accepts any value; a global variable
        // is what GlobalValue wraps.
        unsafe {
            (!llvm::LLVMIsAGlobalVariable(self.as_raw()).is_null())
                .then(|| inkwell::values::GlobalValue::new(self.as_raw()))
        }
    }

    /// The value under constant-expression address-space casts and GEPs
    /// whose indices are all zero (what a pointer to a global's start may be
    /// wrapped in).
    pub fn strip_pointer_casts(self) -> Value<'ctx> {
        use llvm_sys::LLVMOpcode::{LLVMAddrSpaceCast, LLVMBitCast, LLVMGetElementPtr};
        let mut value = self;
        loop {
            // SAFETY: LLVMIsAConstantExpr accepts any value; a constant
            // expression has an opcode and operands.
            let opcode = unsafe {
                if llvm::LLVMIsAConstantExpr(value.as_raw()).is_null() {
                    return value;
                }
                llvm::LLVMGetConstOpcode(value.as_raw())
            };
            let zero_offset = (1..value.operand_count())
                .filter_map(|i| value.operand(i))
                .all(Value::is_zero_int);
            match opcode {
                LLVMAddrSpaceCast | LLVMBitCast => {}
                LLVMGetElementPtr if zero_offset => {}
                _ => return value,
            }
            match value.operand(0) {
                Some(inner) => value = inner,
                None => return value,
            }
        }
    }

    /// The value this pointer instruction is based on through
    /// getelementptrs of constant indices and casts, and the constant byte
    /// offset from it (`(self, 0)` for an instruction that is no such
    /// address); `None` for a non-instruction or an offset beyond 64 bits.
    pub fn strip_constant_offset(self) -> Option<(Value<'ctx>, i64)> {
        let mut offset = 0i64;
        // SAFETY: the function checks the value's kind and writes `offset`
        // only when it returns a base.
        let base =
            unsafe { super::ffi::offload_ir_strip_constant_offset(self.as_raw(), &mut offset) };
        // SAFETY: a value of the same context, or null.
        unsafe { Value::from_raw_opt(base) }.map(|b| (b, offset))
    }

    /// The incoming (value, block) pairs of a phi; empty for other values.
    pub fn incoming(self) -> Vec<(Value<'ctx>, Block<'ctx>)> {
        if self.opcode() != Some(Opcode::LLVMPHI) {
            return Vec::new();
        }
        // SAFETY: `self` is a live phi; the index is below its count of
        // incoming pairs, whose values and blocks are live.
        unsafe {
            let raw = self.as_raw();
            (0..llvm::LLVMCountIncoming(raw))
                .map(|i| {
                    (
                        Value::from_raw(llvm::LLVMGetIncomingValue(raw, i)),
                        Block::from_raw(llvm::LLVMGetIncomingBlock(raw, i)),
                    )
                })
                .collect()
        }
    }

    /// True for a constant integer zero (of any width).
    pub fn is_zero_int(self) -> bool {
        // SAFETY: LLVMIsAConstantInt accepts any value; its value is read
        // only from a constant integer.
        unsafe {
            !llvm::LLVMIsAConstantInt(self.as_raw()).is_null()
                && llvm::LLVMConstIntGetZExtValue(self.as_raw()) == 0
        }
    }

    /// True for a constant integer other than zero (of any width up to 64
    /// bits).
    pub fn is_nonzero_int(self) -> bool {
        // SAFETY: as in `is_zero_int`; the width is checked before the
        // value is read as 64 bits.
        unsafe {
            let raw = self.as_raw();
            !llvm::LLVMIsAConstantInt(raw).is_null()
                && llvm::LLVMGetIntTypeWidth(llvm::LLVMTypeOf(raw)) <= 64
                && llvm::LLVMConstIntGetZExtValue(raw) != 0
        }
    }

    /// Whether the value is a constant (globals and constant expressions
    /// included).
    pub fn is_constant(self) -> bool {
        // SAFETY: LLVMIsAConstant accepts any value and returns null otherwise.
        unsafe { !llvm::LLVMIsAConstant(self.as_raw()).is_null() }
    }

    /// Whether the value is a null pointer constant.
    pub fn is_null_pointer(self) -> bool {
        // SAFETY: queries of a live value.
        unsafe {
            llvm::LLVMGetTypeKind(llvm::LLVMTypeOf(self.as_raw()))
                == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
                && llvm::LLVMIsNull(self.as_raw()) != 0
                && !llvm::LLVMIsAConstant(self.as_raw()).is_null()
        }
    }

    /// The inkwell view of an instruction (void ones too).
    pub fn as_instruction(self) -> Option<InstructionValue<'ctx>> {
        self.is_instruction().then(|| {
            // SAFETY: checked to be a live instruction.
            unsafe { InstructionValue::new(self.as_raw()) }
        })
    }

    /// The inkwell view of a value whose type inkwell wraps as basic.
    pub fn as_basic(self) -> Option<BasicValueEnum<'ctx>> {
        self.ty().as_basic()?;
        // SAFETY: the type kind was checked to be one BasicValueEnum wraps.
        Some(unsafe { BasicValueEnum::new(self.as_raw()) })
    }
}

impl<'ctx> Block<'ctx> {
    /// The instructions of the block, in order.
    pub fn instructions(self) -> Vec<Value<'ctx>> {
        let mut out = Vec::new();
        // SAFETY: walks a live block.
        unsafe {
            let mut inst = llvm::LLVMGetFirstInstruction(self.as_raw());
            while let Some(value) = Value::from_raw_opt(inst) {
                out.push(value);
                inst = llvm::LLVMGetNextInstruction(inst);
            }
        }
        out
    }

    /// The block's terminator, if it has one.
    pub fn terminator(self) -> Option<Value<'ctx>> {
        // SAFETY: a live block; null without a terminator.
        unsafe { Value::from_raw_opt(llvm::LLVMGetBasicBlockTerminator(self.as_raw())) }
    }

    /// The inkwell view of the block.
    pub fn as_inkwell(self) -> BasicBlock<'ctx> {
        // SAFETY: a live block (never null).
        unsafe { BasicBlock::new(self.as_raw()) }.expect("a block handle is never null")
    }

    /// The function holding the block.
    pub fn function(self) -> Value<'ctx> {
        // SAFETY: a block of a live function.
        unsafe { Value::from_raw(llvm::LLVMGetBasicBlockParent(self.as_raw())) }
    }
}
