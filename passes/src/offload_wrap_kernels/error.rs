//! Why `offload-wrap-kernels` refuses a module.

use crate::ir::naming::ParamRef;
use crate::ir::signature::Unrewritable;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// `kernels=` names functions the module lacks.
    UnknownKernels {
        names: Vec<String>,
    },
    /// A kernel record global (flag `records`) is malformed.
    BadRecord {
        global: String,
        problem: super::RecordProblem,
    },
    /// A kernel record (flag `records`) names a function the module lacks.
    RecordWithoutKernel {
        symbol: String,
    },
    /// `kernels=` names a declaration.
    NamedDeclaration {
        name: String,
    },
    /// A named kernel is an alias MergeFunctions left that cannot be made
    /// a function again.
    MergedKernel {
        kernel: String,
        merged_into: String,
        why: &'static str,
    },
    /// A kernel's symbol is not UTF-8 (shown escaped).
    SymbolNotUtf8 {
        symbol: String,
    },
    Unrewritable {
        kernel: String,
        why: Unrewritable,
    },
    Param {
        param: ParamRef,
        ty: String,
        problem: ParamProblem,
    },
    /// The module already has a global of a kernel's manifest name.
    ManifestName {
        kernel: String,
        symbol: String,
    },
    /// A bug in this pass, reported instead of a broken module.
    Internal {
        kernel: String,
        what: String,
    },
}

/// Why a parameter has no launch slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamProblem {
    /// A type (`target(...)`, `x86_amx`) no launch can pass.
    Opaque,
    /// A scalar wider than a slot.
    TooWide,
    ScalableVector,
    /// A pointer narrower than a slot.
    NarrowPointer {
        bytes: u32,
    },
    /// By value it arrives as a pointer, which must fill a slot.
    NarrowAggregatePointer {
        bytes: u32,
    },
    /// An ABI attribute no launch can honour (`sret`, `inalloca`, ...).
    Attribute {
        name: &'static str,
    },
    /// `byref` on a GPU kernel: inline in the kernarg segment.
    GpuByref,
    ByvalWithoutFixedSize {
        ty: String,
    },
}

const PASS_BY_POINTER: &str = "a launch passes one 8-byte slot per argument (a pointer or a scalar); pass it through a pointer the host maps TO";

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::UnknownKernels { names } => {
                write!(
                    f,
                    "kernels=: no function named '{}' in the module (if rustc splits the crate into several codegen units, each holds only some kernels: add the flag 'codegen-unit' (kernels=a:b;codegen-unit) or build with -Ccodegen-units=1 or -Clto=fat)",
                    names.join("', '")
                )
            }
            Error::BadRecord { global, problem } => {
                write!(f, "records: the kernel record '@{global}' {problem}")
            }
            Error::RecordWithoutKernel { symbol } => write!(
                f,
                "records: the kernel record '@{prefix}{symbol}' names the kernel '{symbol}', which the module does not define (if rustc splits the crate into several codegen units, add the flag 'codegen-unit' (records;codegen-unit) or build with -Ccodegen-units=1 or -Clto=fat)",
                prefix = offload_contract::record::SYMBOL_PREFIX
            ),
            Error::NamedDeclaration { name } => write!(
                f,
                "kernels=: '{name}' is a declaration; only a defined function can be a kernel"
            ),
            Error::MergedKernel {
                kernel,
                merged_into,
                why,
            } => write!(
                f,
                "kernel '{kernel}' is an alias of the identical function '{merged_into}' (MergeFunctions merges identical unnamed_addr functions) and cannot be made a copy of it again: {why}; run offload-wrap-kernels before MergeFunctions or compile with -Zmerge-functions=disabled"
            ),
            Error::SymbolNotUtf8 { symbol } => write!(
                f,
                "kernel symbol '{symbol}' is not UTF-8: the kernel manifest and offload-host name kernels by UTF-8 text; give the kernel a UTF-8 (best: ASCII) symbol"
            ),
            Error::Unrewritable { kernel, why } => write!(f, "kernel '{kernel}' {why}"),
            Error::Param { param, ty, problem } => write!(f, "{param} of type '{ty}': {problem}"),
            Error::ManifestName { kernel, symbol } => write!(
                f,
                "kernel '{kernel}': the module already has a global named '{symbol}', the name of its kernel manifest"
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
            ParamProblem::Opaque => write!(f, "this type cannot be a launch argument"),
            ParamProblem::TooWide => write!(f, "wider than 8 bytes; {PASS_BY_POINTER}"),
            ParamProblem::ScalableVector => write!(f, "a scalable vector; {PASS_BY_POINTER}"),
            ParamProblem::NarrowPointer { bytes } => write!(
                f,
                "a {bytes}-byte pointer does not fill the 8-byte slot a launch passes; pass a 64-bit (global or generic) pointer"
            ),
            ParamProblem::NarrowAggregatePointer { bytes } => write!(
                f,
                "by value it arrives as a pointer to the host's mapped copy, but a {bytes}-byte pointer does not fill the 8-byte slot"
            ),
            ParamProblem::Attribute { name } => write!(
                f,
                "the '{name}' attribute has no meaning for a kernel the runtime launches"
            ),
            ParamProblem::GpuByref => write!(
                f,
                "'byref' puts the value inline in the kernel argument segment, but a launch passes one 8-byte slot per argument; pass a plain pointer (run offload-wrap-kernels before passes that introduce byref)"
            ),
            ParamProblem::ByvalWithoutFixedSize { ty } => {
                write!(f, "'byval' of type '{ty}', which has no fixed size")
            }
        }
    }
}

impl std::error::Error for Error {}
