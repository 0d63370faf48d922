//! Typed wrappers of raw LLVM handles, in inkwell's style: `Copy`,
//! `#[repr(transparent)]`, tied by a lifetime to the context they belong to.
//!
//! inkwell 0.11 cannot wrap everything the passes meet in untrusted input
//! (it panics on `target(...)` and token types, and has no use walks with
//! operand numbers, metadata nodes as such, or debug records), so the
//! helpers in [`crate::ir`] call `llvm-sys` directly. They take and return
//! these wrappers, never raw pointers: safe code cannot make one from a
//! dangling or null pointer. Like inkwell's handles, a wrapper goes stale
//! when its object is erased; callers never use one after erasing it.

use std::marker::PhantomData;

use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMMetadataRef, LLVMTypeRef, LLVMValueRef};

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(transparent)]
        pub struct $name<'ctx> {
            raw: $raw,
            _context: PhantomData<&'ctx ()>,
        }

        impl<'ctx> $name<'ctx> {
            /// # Safety
            /// `raw` is non-null and points at a live object of a context
            /// that outlives `'ctx`.
            #[allow(dead_code, reason = "not every handle kind needs every constructor")]
            pub(crate) unsafe fn from_raw(raw: $raw) -> Self {
                debug_assert!(!raw.is_null());
                $name { raw, _context: PhantomData }
            }

            /// `None` for a null pointer (LLVM's "absent").
            ///
            /// # Safety
            /// A non-null `raw` is as for [`Self::from_raw`].
            pub(crate) unsafe fn from_raw_opt(raw: $raw) -> Option<Self> {
                (!raw.is_null()).then_some($name { raw, _context: PhantomData })
            }

            pub(crate) fn as_raw(self) -> $raw {
                self.raw
            }
        }

        impl std::fmt::Debug for $name<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!(stringify!($name), "({:p})"), self.raw)
            }
        }
    };
}

handle!(
    /// Any value: an argument, instruction, constant, global or function.
    Value,
    LLVMValueRef
);
handle!(
    /// Any type, `target(...)`, `token` and `label` included.
    Type,
    LLVMTypeRef
);
handle!(
    /// A metadata node or string (debug info included).
    Metadata,
    LLVMMetadataRef
);
handle!(
    /// A basic block.
    Block,
    LLVMBasicBlockRef
);

/// inkwell values and types as handles: they are live objects of `'ctx`.
macro_rules! from_inkwell {
    ($handle:ident, $trait:path, $method:ident, $($inkwell:ty),*) => {
        $(impl<'ctx> From<$inkwell> for $handle<'ctx> {
            fn from(value: $inkwell) -> Self {
                use $trait;
                // SAFETY: an inkwell handle of lifetime 'ctx is a live,
                // non-null object of its context.
                unsafe { $handle::from_raw(value.$method()) }
            }
        })*
    };
}

from_inkwell!(
    Value,
    inkwell::values::AsValueRef,
    as_value_ref,
    inkwell::values::BasicValueEnum<'ctx>,
    inkwell::values::FunctionValue<'ctx>,
    inkwell::values::InstructionValue<'ctx>,
    inkwell::values::PointerValue<'ctx>,
    inkwell::values::IntValue<'ctx>,
    inkwell::values::GlobalValue<'ctx>,
    inkwell::values::CallSiteValue<'ctx>
);
from_inkwell!(
    Type,
    inkwell::types::AsTypeRef,
    as_type_ref,
    inkwell::types::BasicTypeEnum<'ctx>,
    inkwell::types::AnyTypeEnum<'ctx>,
    inkwell::types::FunctionType<'ctx>,
    inkwell::types::StructType<'ctx>,
    inkwell::types::PointerType<'ctx>,
    inkwell::types::IntType<'ctx>
);

impl<'ctx> From<inkwell::basic_block::BasicBlock<'ctx>> for Block<'ctx> {
    fn from(block: inkwell::basic_block::BasicBlock<'ctx>) -> Self {
        // SAFETY: an inkwell block of lifetime 'ctx is live and non-null.
        unsafe { Block::from_raw(block.as_mut_ptr()) }
    }
}
