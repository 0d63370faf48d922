//! Where new instructions go, and [`ValueBuilder`], which builds on the
//! project's [`Value`] handles where inkwell's builder cannot.

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::Module;
use inkwell::values::{FunctionValue, InstructionOpcode, PointerValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBuilderRef, LLVMValueRef};

use super::handles::{Block, Type, Value};
use super::types::TypeKind;
use super::values::Opcode;
use super::{calls, metadata};

/// A builder at the top of `function`'s entry block, where allocas and
/// parameter replacements belong (static allocas, not repeated in loops):
/// after any phis an entry block may start with, and in front of the first
/// instruction's debug records, so a `#dbg_declare` of a replaced value
/// follows its replacement.
pub fn entry_builder<'ctx>(function: FunctionValue<'ctx>) -> Builder<'ctx> {
    let builder = function.get_type().get_context().create_builder();
    let Some(entry) = function.get_first_basic_block() else {
        return builder;
    };
    let first_non_phi = entry
        .get_instructions()
        .find(|i| i.get_opcode() != InstructionOpcode::Phi);
    match first_non_phi {
        Some(first) => {
            // (inkwell's own call first: it records that the builder is placed.)
            builder.position_before(&first);
            // SAFETY: positions a live builder before a live instruction.
            unsafe {
                llvm::LLVMPositionBuilderBeforeInstrAndDbgRecords(
                    builder.as_mut_ptr(),
                    Value::from(first).as_raw(),
                )
            }
        }
        None => builder.position_at_end(entry),
    }
    builder
}

/// An instruction builder on [`Value`]s, for rebuilding instructions with
/// operands of another pointer type (inkwell's builder wants typed inkwell
/// values, which it cannot make of every operand, and has no GEP no-wrap
/// flags or calls with operand bundles). Every `build_*` leaves the result
/// unnamed.
pub struct ValueBuilder<'m, 'ctx> {
    raw: LLVMBuilderRef,
    module: &'m Module<'ctx>,
}

impl Drop for ValueBuilder<'_, '_> {
    fn drop(&mut self) {
        // SAFETY: the builder is ours.
        unsafe { llvm::LLVMDisposeBuilder(self.raw) }
    }
}

impl<'m, 'ctx> ValueBuilder<'m, 'ctx> {
    pub fn new(module: &'m Module<'ctx>) -> Self {
        // SAFETY: a builder in the module's live context.
        let raw = unsafe {
            llvm::LLVMCreateBuilderInContext(llvm::LLVMGetModuleContext(module.as_mut_ptr()))
        };
        ValueBuilder { raw, module }
    }

    /// Inserts before `inst`.
    pub fn position_before(&self, inst: Value<'ctx>) {
        debug_assert!(inst.is_instruction());
        // SAFETY: both are live.
        unsafe { llvm::LLVMPositionBuilderBefore(self.raw, inst.as_raw()) }
    }

    /// Inserts right after `inst`; after the last phi when `inst` is a phi
    /// (phis stay grouped at the top of their block).
    pub fn position_after(&self, inst: Value<'ctx>) {
        let Some(block) = inst.block() else {
            return;
        };
        let next = if inst.opcode() == Some(Opcode::LLVMPHI) {
            block
                .instructions()
                .into_iter()
                .find(|i| i.opcode() != Some(Opcode::LLVMPHI))
        } else {
            inst.next_instruction()
        };
        match next {
            Some(next) => self.position_before(next),
            None => self.position_at_end(block),
        }
    }

    fn position_at_end(&self, block: Block<'ctx>) {
        // SAFETY: the block is live.
        unsafe { llvm::LLVMPositionBuilderAtEnd(self.raw, block.as_raw()) }
    }

    /// Inserts before the terminator of `block` (at its end without one).
    pub fn position_before_terminator(&self, block: Block<'ctx>) {
        match block.terminator() {
            Some(term) => self.position_before(term),
            None => self.position_at_end(block),
        }
    }

    fn wrap(&self, raw: LLVMValueRef) -> Value<'ctx> {
        // SAFETY: LLVM's builders return a live, non-null instruction or constant.
        unsafe { Value::from_raw(raw) }
    }

    /// `store value, ptr pointer`.
    pub fn build_store_value(&self, value: Value<'ctx>, pointer: Value<'ctx>) -> Value<'ctx> {
        // SAFETY: live values of a live builder's context.
        self.wrap(unsafe { llvm::LLVMBuildStore(self.raw, value.as_raw(), pointer.as_raw()) })
    }

    /// `load ty, ptr pointer`.
    pub fn build_load_value(&self, ty: Type<'ctx>, pointer: Value<'ctx>) -> Value<'ctx> {
        // SAFETY: live values of a live builder's context; an empty name.
        self.wrap(unsafe {
            llvm::LLVMBuildLoad2(self.raw, ty.as_raw(), pointer.as_raw(), c"".as_ptr())
        })
    }

    /// `addrspacecast` of `value` to `ty` (folded for constants; `value`
    /// itself when the types already agree).
    pub fn build_addrspacecast(&self, value: Value<'ctx>, ty: Type<'ctx>) -> Value<'ctx> {
        if value.ty() == ty {
            return value;
        }
        // SAFETY: a pointer cast between address spaces at the builder's position.
        self.wrap(unsafe {
            llvm::LLVMBuildAddrSpaceCast(self.raw, value.as_raw(), ty.as_raw(), c"".as_ptr())
        })
    }

    /// A copy of GEP `gep` (source element type, indices, no-wrap flags) on `base`.
    pub fn build_gep_like(&self, gep: Value<'ctx>, base: Value<'ctx>) -> Value<'ctx> {
        let mut indices: Vec<_> = (1..gep.operand_count())
            .filter_map(|i| gep.operand(i))
            .map(Value::as_raw)
            .collect();
        // SAFETY: `gep` is a live GEP; its index operands are reused as they are.
        self.wrap(unsafe {
            llvm::LLVMBuildGEPWithNoWrapFlags(
                self.raw,
                llvm::LLVMGetGEPSourceElementType(gep.as_raw()),
                base.as_raw(),
                indices.as_mut_ptr(),
                indices.len() as u32,
                c"".as_ptr(),
                llvm::LLVMGEPGetNoWrapFlags(gep.as_raw()),
            )
        })
    }

    pub fn build_select(
        &self,
        condition: Value<'ctx>,
        then: Value<'ctx>,
        otherwise: Value<'ctx>,
    ) -> Value<'ctx> {
        // SAFETY: operands are live and of matching types.
        self.wrap(unsafe {
            llvm::LLVMBuildSelect(
                self.raw,
                condition.as_raw(),
                then.as_raw(),
                otherwise.as_raw(),
                c"".as_ptr(),
            )
        })
    }

    pub fn build_freeze(&self, value: Value<'ctx>) -> Value<'ctx> {
        // SAFETY: the value is live.
        self.wrap(unsafe { llvm::LLVMBuildFreeze(self.raw, value.as_raw(), c"".as_ptr()) })
    }

    /// An empty phi of type `ty`; fill it with [`ValueBuilder::add_incoming`].
    pub fn build_phi(&self, ty: Type<'ctx>) -> Value<'ctx> {
        // SAFETY: the type is live.
        self.wrap(unsafe { llvm::LLVMBuildPhi(self.raw, ty.as_raw(), c"".as_ptr()) })
    }

    pub fn add_incoming(&self, phi: Value<'ctx>, value: Value<'ctx>, block: Block<'ctx>) {
        let (mut values, mut blocks) = ([value.as_raw()], [block.as_raw()]);
        // SAFETY: one (value, block) pair of the phi's type.
        unsafe { llvm::LLVMAddIncoming(phi.as_raw(), values.as_mut_ptr(), blocks.as_mut_ptr(), 1) }
    }

    /// `alloca ty, align align` in the data layout's alloca address space.
    pub fn build_alloca(&self, ty: Type<'ctx>, align: u32) -> Value<'ctx> {
        // SAFETY: a sized type at the builder's position.
        let alloca =
            self.wrap(unsafe { llvm::LLVMBuildAlloca(self.raw, ty.as_raw(), c"".as_ptr()) });
        // SAFETY: an alloca accepts any power-of-two alignment.
        unsafe { llvm::LLVMSetAlignment(alloca.as_raw(), align) };
        alloca
    }

    /// `llvm.memcpy(dst align dst_align, src align src_align, i64 size, i1 false)`.
    pub fn build_memcpy(
        &self,
        dst: Value<'ctx>,
        dst_align: u32,
        src: Value<'ctx>,
        src_align: u32,
        size: Value<'ctx>,
    ) -> Value<'ctx> {
        // SAFETY: pointers and size are live values at the builder's position.
        self.wrap(unsafe {
            llvm::LLVMBuildMemCpy(
                self.raw,
                dst.as_raw(),
                dst_align,
                src.as_raw(),
                src_align,
                size.as_raw(),
            )
        })
    }

    /// A copy of `call` with callee `callee` of type `fn_type` and arguments
    /// `args`: calling convention, tail-call kind, every attribute, operand
    /// bundle and metadata attachment carry over; uses of the old call's
    /// result move to the new one and the old call is erased.
    pub fn rebuild_call(
        &self,
        call: Value<'ctx>,
        callee: Value<'ctx>,
        fn_type: Type<'ctx>,
        args: &[Value<'ctx>],
    ) -> Value<'ctx> {
        debug_assert!(calls::is_call_like(call));
        let mut args: Vec<_> = args.iter().map(|a| a.as_raw()).collect();
        self.position_before(call);
        // SAFETY: `call` is a live call; the bundles we copy out are ours
        // and disposed after building; attribute indices cover the function,
        // the return value and each argument.
        let new = unsafe {
            let raw = call.as_raw();
            let mut bundles: Vec<_> = (0..llvm::LLVMGetNumOperandBundles(raw))
                .map(|i| llvm::LLVMGetOperandBundleAtIndex(raw, i))
                .collect();
            let new = llvm::LLVMBuildCallWithOperandBundles(
                self.raw,
                fn_type.as_raw(),
                callee.as_raw(),
                args.as_mut_ptr(),
                args.len() as u32,
                bundles.as_mut_ptr(),
                bundles.len() as u32,
                c"".as_ptr(),
            );
            for bundle in bundles {
                llvm::LLVMDisposeOperandBundle(bundle);
            }
            llvm::LLVMSetInstructionCallConv(new, llvm::LLVMGetInstructionCallConv(raw));
            llvm::LLVMSetTailCallKind(new, llvm::LLVMGetTailCallKind(raw));
            let indices = [
                llvm_sys::LLVMAttributeFunctionIndex,
                llvm_sys::LLVMAttributeReturnIndex,
            ]
            .into_iter()
            .chain((0..args.len() as u32).map(|arg| arg + 1));
            for index in indices {
                let count = llvm::LLVMGetCallSiteAttributeCount(raw, index);
                let mut attrs = vec![std::ptr::null_mut(); count as usize];
                llvm::LLVMGetCallSiteAttributes(raw, index, attrs.as_mut_ptr());
                for attr in attrs {
                    llvm::LLVMAddCallSiteAttribute(new, index, attr);
                }
            }
            self.wrap(new)
        };
        metadata::copy_instruction_attachments(self.module, call, new);
        let name = call.name();
        if call.ty().kind() != TypeKind::LLVMVoidTypeKind {
            call.set_name("");
            new.set_name(&name);
            call.replace_all_uses_with(new);
        }
        // SAFETY: the old call has no uses left.
        unsafe { llvm::LLVMInstructionEraseFromParent(call.as_raw()) };
        new
    }
}

/// `getelementptr inbounds i8, ptr pointer, i64 offset`: the address
/// `offset` bytes into the memory at `pointer`, which the caller knows to
/// hold at least `offset` bytes (else the result is poison in the program
/// compiled).
pub fn build_byte_offset<'ctx>(
    builder: &Builder<'ctx>,
    pointer: PointerValue<'ctx>,
    offset: u64,
) -> Result<PointerValue<'ctx>, BuilderError> {
    let context = pointer.get_type().get_context();
    let index = context.i64_type().const_int(offset, false);
    // SAFETY: inkwell marks GEPs unsafe for what an out-of-bounds `inbounds`
    // GEP means in the compiled program, which the caller rules out; building
    // one is sound.
    unsafe { builder.build_in_bounds_gep(context.i8_type(), pointer, &[index], "") }
}
