//! Why `byref-callee-copy` refuses a module. Each variant names the kernel
//! (demangled) and the parameter.

use crate::ir::naming::ParamRef;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A written byref parameter whose type has no fixed size.
    NoFixedSize { param: ParamRef, ty: String },
    /// The data layout does not put allocas in address space 5.
    AllocaAddressSpace { param: ParamRef, address_space: u32 },
    /// A use that needs the old pointer type (`ptr addrspace(1)`).
    Unretargetable {
        param: ParamRef,
        user: String,
        needs: String,
    },
    /// Derived pointers form a cycle without a phi (unreachable code).
    CycleWithoutPhi { param: ParamRef, at: String },
    /// A bug in this pass, reported instead of a broken module.
    Internal { param: ParamRef, what: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoFixedSize { param, ty } => {
                write!(
                    f,
                    "{param}: byref type '{ty}' has no fixed size; cannot copy it"
                )
            }
            Error::AllocaAddressSpace {
                param,
                address_space,
            } => write!(
                f,
                "{param}: the data layout puts allocas in address space {address_space}, not {} (A5); is this an amdgcn module?",
                crate::ir::kernels::AMDGPU_PRIVATE_AS
            ),
            Error::Unretargetable { param, user, needs } => write!(
                f,
                "{param}: cannot retarget `{user}` to the private copy: it needs a '{needs}' (only uses of a generic 'ptr' can be redirected to the copy)"
            ),
            Error::CycleWithoutPhi { param, at } => write!(
                f,
                "{param}: derived pointers form a cycle without a phi (unreachable code?) at `{at}`"
            ),
            Error::Internal { param, what } => write!(f, "{param}: internal error: {what}"),
        }
    }
}

impl std::error::Error for Error {}
