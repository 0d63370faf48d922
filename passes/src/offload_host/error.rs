//! Why `offload-host` refuses a module.

use super::check::Mismatch;
use super::descriptor::DescriptorProblem;
use super::descriptor::map_type::LITERAL;
use super::image::{ImageError, MissingKernel};
use super::image_set::{ImageSetError, LoadError};
use super::launch_v1::LAUNCH_METADATA;
use super::launch_v2::LAUNCH2_PREFIX;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    Image(ImageError),
    /// Images that cannot be registered together.
    ImageSet(Box<ImageSetError>),
    /// A launched kernel the image does not hold.
    MissingKernel(MissingKernel),
    /// A launch site (a call of kernel `kernel` in function `caller`).
    Launch {
        kernel: String,
        caller: String,
        problem: LaunchProblem,
    },
    /// A call of a data-region function.
    DataCall {
        callee: String,
        caller: String,
        problem: DataCallProblem,
    },
    /// A launch-descriptor global (`@__offload_launch.K`).
    Descriptor {
        symbol: String,
        problem: DescriptorProblem,
    },
    /// A function or global of the module collides with a runtime function.
    RuntimeDeclaration {
        name: String,
        found: String,
        expected: String,
    },
    RuntimeGlobal {
        name: String,
    },
    /// An existing `!"openmp"` module flag that linking would reject.
    OpenMpFlag {
        behavior: Option<u64>,
        value: Option<u64>,
    },
    /// A bug in this pass, reported instead of a broken module.
    Internal {
        what: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchProblem {
    /// The called function (`K` or `__offload_launch2.K`) has a body.
    HasBody {
        callee: String,
    },
    Invoke,
    /// An indirect call with `!offload.launch`: no kernel to launch.
    Indirect,
    /// The called declaration is used other than by calls (its address
    /// taken), or is `extern_weak`: a launch would not be what runs.
    AddressTaken {
        callee: String,
    },
    ExternWeak {
        callee: String,
    },
    /// A function of the image that is no kernel its manifest lists (nor
    /// `foreign=`, nor an AMDGPU kernel with kernarg metadata).
    NotInManifest {
        image: String,
        listed: Vec<String>,
    },
    /// The launch does not fit the kernel's manifest or kernarg metadata;
    /// `source` says which, in which image.
    Mismatch {
        mismatch: Box<Mismatch>,
        source: String,
    },
    Descriptor(DescriptorProblem),
    /// v2: the call does not start with (ptr descriptor, ptr config).
    V2Shape {
        callee: String,
    },
    /// v2: the descriptor operand is not a constant global of this module.
    DescriptorNotGlobal {
        text: String,
    },
    /// v2: the descriptor global `global` cannot be read.
    DescriptorV2 {
        global: String,
        problem: Box<DescriptorProblem>,
    },
    /// v2: the descriptor's image digest is not the images'
    /// (`images`: [`super::image_set::ImageSet::label`], `several`: more
    /// than one, so `image` is their combined digest).
    Digest {
        descriptor: u64,
        image: u64,
        images: String,
        several: bool,
    },
    CountMismatch {
        described: usize,
        passed: usize,
    },
    ArgumentType {
        index: u32,
        ty: String,
    },
    Argument {
        index: u32,
        problem: ArgProblem,
    },
    ResultUsed {
        ty: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgProblem {
    PointerAddressSpace,
    IntegerTooWide {
        bits: u32,
    },
    FloatKind {
        ty: String,
    },
    AggregateMap {
        map: u64,
    },
    ScalableVector,
    /// `described`: a v1 descriptor of the kernel was visible.
    UnknownSize {
        described: bool,
    },
    LengthNeedsSize,
    LengthNotInteger {
        len_arg: u32,
    },
    LengthTooWide {
        len_arg: u32,
    },
    ScalarMapped {
        map: u64,
    },
    ScalarLength,
    ScalarNotLiteral {
        map: u64,
    },
    ByvalNotSized,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataCallProblem {
    HasBody,
    Invoke,
    Shape,
    /// A pointer narrower than the 8 bytes a map slot holds.
    PointerAddressSpace,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Image(e) => write!(f, "{e}"),
            Error::ImageSet(e) => write!(f, "{e}"),
            Error::MissingKernel(e) => write!(f, "{e}"),
            Error::Launch {
                kernel,
                caller,
                problem,
            } => {
                write!(f, "launch of '{kernel}' in function '{caller}': ")?;
                problem.fmt_for(kernel, f)
            }
            Error::DataCall {
                callee,
                caller,
                problem,
            } => {
                write!(f, "call of '{callee}' in function '{caller}': ")?;
                match problem {
                    DataCallProblem::HasBody => {
                        write!(
                            f,
                            "'{callee}' is reserved for data regions and must be a declaration"
                        )
                    }
                    DataCallProblem::Invoke => {
                        write!(f, "an invoke; data-region calls must be plain calls")
                    }
                    DataCallProblem::Shape => {
                        write!(
                            f,
                            "expected ({callee} ptr, i64 size, i64 maptype) returning void"
                        )
                    }
                    DataCallProblem::PointerAddressSpace => write!(
                        f,
                        "a pointer outside address space 0; the runtime maps 64-bit host addresses"
                    ),
                }
            }
            Error::Descriptor { symbol, problem } => {
                write!(f, "launch descriptor @\"{symbol}\" {problem}")
            }
            Error::RuntimeDeclaration {
                name,
                found,
                expected,
            } => {
                write!(
                    f,
                    "the module declares '{name}' as {found}, expected {expected}"
                )
            }
            Error::RuntimeGlobal { name } => {
                write!(
                    f,
                    "the module has a global named '{name}', a runtime function"
                )
            }
            Error::OpenMpFlag { behavior, value } => {
                let shown =
                    |v: &Option<u64>| v.map_or("not an integer".to_owned(), |v| v.to_string());
                write!(
                    f,
                    "the module flag \"openmp\" has behavior {} and value {}; offload-host adds !{{i32 7, !\"openmp\", i32 51}} (Max), which that flag would not link with",
                    shown(behavior),
                    shown(value)
                )
            }
            Error::Internal { what } => write!(f, "internal error: {what}"),
        }
    }
}

impl LaunchProblem {
    fn fmt_for(&self, kernel: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaunchProblem::HasBody { callee } => {
                write!(
                    f,
                    "'{callee}' has a body; a launch calls an external declaration"
                )
            }
            LaunchProblem::Invoke => write!(
                f,
                "an invoke; launches must be plain calls (kernels do not unwind): in C++, declare the launch function `noexcept` (or compile with -fno-exceptions)"
            ),
            LaunchProblem::Indirect => write!(
                f,
                "an indirect call carries !{LAUNCH_METADATA}; a launch is a direct call of the kernel's declaration"
            ),
            LaunchProblem::AddressTaken { callee } => write!(
                f,
                "the declaration of '{callee}' is also used other than by calls (its address is taken); a kernel of the image has no host address"
            ),
            LaunchProblem::ExternWeak { callee } => {
                write!(
                    f,
                    "'{callee}' is declared extern_weak; a launch needs the kernel to exist"
                )
            }
            LaunchProblem::NotInManifest { image, listed } if listed.is_empty() => write!(
                f,
                "image '{image}' has no kernel manifest, so '{kernel}' is launched only when named in offload-host<...;foreign={kernel}> (a kernel following libomptarget's convention: a leading dyn pointer, 8-byte slots); run offload-wrap-kernels on the device code to give it one"
            ),
            LaunchProblem::NotInManifest { image, listed } => write!(
                f,
                "'{kernel}' is a function of image '{image}' but no kernel its manifest lists ({}); only kernels offload-wrap-kernels wrapped are launched (name a kernel from another compiler in foreign=)",
                listed.join(", ")
            ),
            LaunchProblem::Mismatch { mismatch, source } => mismatch.fmt_for(kernel, source, f),
            LaunchProblem::V2Shape { callee } => write!(
                f,
                "'{callee}' must take (ptr descriptor, ptr config, the kernel's arguments...)"
            ),
            LaunchProblem::DescriptorNotGlobal { text } => write!(
                f,
                "its descriptor is `{text}`, not a constant global of this module (pass the address of a `const` descriptor: {LAUNCH2_PREFIX}{kernel}(&DESCRIPTOR, ...))"
            ),
            LaunchProblem::DescriptorV2 { global, problem } => {
                write!(f, "its descriptor @\"{global}\" {problem}")
            }
            LaunchProblem::Digest {
                descriptor,
                image,
                images,
                several: false,
            } => write!(
                f,
                "its descriptor was compiled against image digest {descriptor:016x}, but {images} has digest {image:016x}: the host code is stale; rebuild it against this image"
            ),
            LaunchProblem::Digest {
                descriptor,
                image,
                images,
                several: true,
            } => write!(
                f,
                "its descriptor was compiled against image digest {descriptor:016x}, but {images} have the combined digest {image:016x} (images_digest of all of them, in parameter order): the host code is stale or was built for other images; rebuild it against these"
            ),
            LaunchProblem::Descriptor(problem) => write!(f, "!{LAUNCH_METADATA} {problem}"),
            LaunchProblem::CountMismatch { described, passed } => write!(
                f,
                "the launch descriptor describes {described} arguments, the call passes {passed}"
            ),
            LaunchProblem::ArgumentType { index, ty } => {
                write!(
                    f,
                    "argument {index} has type '{ty}', which no launch can pass"
                )
            }
            LaunchProblem::Argument { index, problem } => write!(f, "argument {index}: {problem}"),
            LaunchProblem::ResultUsed { ty } => write!(
                f,
                "its result of type {ty} is used; a launch returns void or i32 (the runtime's return code)"
            ),
        }
    }
}

impl std::fmt::Display for ArgProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgProblem::PointerAddressSpace => write!(f, "a pointer outside address space 0"),
            ArgProblem::IntegerTooWide { bits } => {
                write!(f, "an integer of {bits} bits; at most 64 fit a slot")
            }
            ArgProblem::FloatKind { ty } => write!(
                f,
                "a {ty} float; only half, bfloat, float and double fit a slot"
            ),
            ArgProblem::AggregateMap { map } => write!(
                f,
                "an aggregate passed by value is mapped TO (a copy); map type {map:#x} is not possible"
            ),
            ArgProblem::ScalableVector => write!(f, "a scalable vector"),
            ArgProblem::UnknownSize { described: true } => write!(
                f,
                "a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in the launch descriptor"
            ),
            ArgProblem::UnknownSize { described: false } => write!(
                f,
                "a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in a launch descriptor; this module has none for the kernel (a `__offload_launch.K` static defined in another codegen unit or crate is not visible here: the v2 form {LAUNCH2_PREFIX}K takes its descriptor as an argument)"
            ),
            ArgProblem::LengthNeedsSize => {
                write!(f, "a length argument needs the element size in SIZE")
            }
            ArgProblem::LengthNotInteger { len_arg } => {
                write!(
                    f,
                    "its length argument {len_arg} is not an integer argument of the call"
                )
            }
            ArgProblem::LengthTooWide { len_arg } => {
                write!(f, "its length argument {len_arg} is wider than 64 bits")
            }
            ArgProblem::ScalarMapped { map } => write!(
                f,
                "a scalar cannot be mapped TO/FROM (map type {map:#x}); scalars are LITERAL"
            ),
            ArgProblem::ScalarLength => write!(f, "a scalar has no length argument"),
            ArgProblem::ScalarNotLiteral { map } => write!(
                f,
                "a scalar must be LITERAL ({LITERAL:#x}); map type {map:#x} would make the runtime treat its value as a host address"
            ),
            ArgProblem::ByvalNotSized => write!(f, "byval of a type without a fixed size"),
        }
    }
}

impl std::error::Error for Error {}

impl From<LoadError> for Error {
    fn from(e: LoadError) -> Error {
        match e {
            LoadError::Image(e) => Error::Image(e),
            LoadError::Set(e) => Error::ImageSet(e),
        }
    }
}
