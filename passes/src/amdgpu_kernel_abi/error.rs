//! Why `amdgpu-kernel-abi` refuses a module. Each variant names the kernel
//! (demangled) and, where it is about one, the parameter.

use crate::ir::naming::ParamRef;
use crate::ir::signature::Unrewritable;

use super::HINT;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A kernel that needs a new signature cannot get one.
    Unrewritable { kernel: String, why: Unrewritable },
    /// A parameter no kernel argument segment can hold.
    Param {
        param: ParamRef,
        ty: String,
        problem: ParamProblem,
    },
    /// A malformed `!offload.aggregate.args` entry (by position).
    HintEntry {
        kernel: String,
        entry: usize,
        problem: HintShape,
    },
    /// A well-formed hint entry that contradicts the kernel (by its first
    /// parameter).
    Hint {
        kernel: String,
        first: u32,
        problem: HintProblem,
    },
    /// The data layout puts allocas where kernel arguments go.
    AllocaAddressSpace { kernel: String, address_space: u32 },
    /// A bug in this pass, reported instead of a broken module.
    Internal { kernel: String, what: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamProblem {
    /// An aggregate holding `element` (a scalable vector, a target type),
    /// which has no fixed size.
    NoFixedSize { element: String },
    /// A type (`target(...)`) no new signature can be built around.
    Opaque,
    /// Larger than the verifier allows for `byref`.
    TooLarge { size: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HintShape {
    /// Not `!{i32 first, i32 count, i64 size, i64 align}`.
    Malformed,
    /// `first` or `count` is not a non-negative i32.
    NotAnIndex { field: &'static str, value: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HintProblem {
    ZeroCount,
    OutOfRange { first: u32, last: u64, params: u32 },
    Overlaps,
    AlignNotPowerOfTwo { align: u64 },
    AlignTooLarge { align: u64 },
    ZeroSize,
    AlreadyAggregate { param: u32 },
    NoFixedSize { param: u32, ty: String },
    DisagreesWithDereferenceable { size: u64, dereferenceable: u64 },
    FieldsTooLarge { needed: u64, size: u64 },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Unrewritable { kernel, why } => write!(f, "kernel '{kernel}' {why}"),
            Error::Param { param, ty, problem } => write!(f, "{param} of type '{ty}': {problem}"),
            Error::HintEntry {
                kernel,
                entry,
                problem,
            } => match problem {
                HintShape::Malformed => write!(
                    f,
                    "kernel '{kernel}': !{HINT} entry {entry} is malformed: expected !{{i32 first, i32 count, i64 size, i64 align}}"
                ),
                HintShape::NotAnIndex { field, value } => write!(
                    f,
                    "kernel '{kernel}': !{HINT} entry {entry}: {field} {value} is not a parameter index or count (expected a non-negative i32)"
                ),
            },
            Error::Hint {
                kernel,
                first,
                problem,
            } => {
                write!(
                    f,
                    "kernel '{kernel}': !{HINT} entry for parameter {first}: {problem}"
                )
            }
            Error::AllocaAddressSpace {
                kernel,
                address_space,
            } => write!(
                f,
                "kernel '{kernel}': the data layout puts allocas in address space {address_space} (A{address_space}), where byref kernel arguments go; is this an amdgcn module?"
            ),
            Error::Internal { kernel, what } => {
                write!(f, "kernel '{kernel}': internal error: {what}")
            }
        }
    }
}

impl std::fmt::Display for ParamProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamProblem::NoFixedSize { element } => write!(
                f,
                "an aggregate holding '{element}', which has no fixed size, cannot be passed in the kernel argument segment"
            ),
            ParamProblem::Opaque => write!(
                f,
                "the kernel's other parameters need a new signature, which cannot be built with a parameter of this type"
            ),
            ParamProblem::TooLarge { size } => write!(
                f,
                "a {size}-byte aggregate is too large for a byref kernel argument (at most {} bytes)",
                super::param::MAX_BYREF_SIZE
            ),
        }
    }
}

impl std::fmt::Display for HintProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HintProblem::ZeroCount => write!(f, "names no parameters (count is 0)"),
            HintProblem::OutOfRange {
                first,
                last,
                params,
            } => {
                write!(
                    f,
                    "names parameters {first}..{last} but the kernel has {params}"
                )
            }
            HintProblem::Overlaps => write!(f, "overlaps another entry"),
            HintProblem::AlignNotPowerOfTwo { align } => {
                write!(f, "alignment {align} is not a power of two")
            }
            HintProblem::AlignTooLarge { align } => write!(
                f,
                "alignment {align} is larger than LLVM allows ({})",
                super::param::MAX_ALIGN
            ),
            HintProblem::ZeroSize => write!(f, "size is 0"),
            HintProblem::AlreadyAggregate { param } => {
                write!(f, "parameter {param} is already an aggregate or byref")
            }
            HintProblem::NoFixedSize { param, ty } => {
                write!(
                    f,
                    "parameter {param} has type '{ty}', which has no fixed size"
                )
            }
            HintProblem::DisagreesWithDereferenceable {
                size,
                dereferenceable,
            } => write!(
                f,
                "size {size} disagrees with dereferenceable({dereferenceable})"
            ),
            HintProblem::FieldsTooLarge { needed, size } => {
                write!(f, "its fields need {needed} bytes but the size is {size}")
            }
        }
    }
}

impl std::error::Error for Error {}
