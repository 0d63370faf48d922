//! IR helpers shared by several passes, by concept. Helpers that one pass
//! alone uses live in that pass.
//!
//! | module | what |
//! |---|---|
//! | [`handles`] | typed wrappers of raw LLVM handles ([`Value`], [`Type`], [`Metadata`], [`Block`]) |
//! | [`values`] | what any value can be asked: type, name, operands, users, phi incoming pairs |
//! | [`types`] | type text, kinds inkwell wraps, fixed sizes, pointers, `[N x i8]` types, the data layout |
//! | [`attributes`] | parameter, call-site and function attributes |
//! | [`metadata`] | metadata kinds, attachments, plain node operands |
//! | [`debug_info`] | typed DI nodes ([`debug_info::DiSubprogram`], [`debug_info::DiType`]), `#dbg_declare` records |
//! | [`cfg`] | a function's blocks by index: successors, reverse post-order, dominators, natural loops |
//! | [`debug_loc`] | instructions' source locations with their inlined frames |
//! | [`calls`] | callees, arguments, intrinsics, the memcpy/memmove/memset family |
//! | [`kernels`] | kernel calling conventions, AMDGPU address spaces, kernel aliases |
//! | [`naming`] | how messages name functions (demangled) and parameters |
//! | [`signature`] | changing a function's parameters ([`signature::SignatureRewrite`]) |
//! | [`builder`] | where new instructions go; [`builder::ValueBuilder`] on [`Value`]s |
//! | [`transform_utils`] | splitting blocks, inlining, cloning, function pipelines (LLVM's `TransformUtils`) |
//! | [`erase`] | erasing instructions and unused declarations |
//! | [`constants`] | bytes of constants, byte arrays |
//! | [`module_utils`] | global constructors, `llvm.compiler.used`, module flags (LLVM's `ModuleUtils`) |
//! | [`ffi`] | the declarations of `llvm_ext.cpp` |
//!
//! The device passes (`amdgpu_kernel_abi`, `byref_callee_copy`,
//! `offload_wrap_kernels`, `offload_shared_memory`) and `kernel_manifest`
//! forbid `unsafe` code: they use inkwell and these modules, which hold
//! every raw `llvm-sys` call they need. `llvm_ext.cpp` holds the few LLVM
//! C++ calls the C API lacks (one function each), declared once in [`ffi`]
//! and wrapped by the module of their concept.

pub mod attributes;
pub mod builder;
pub mod calls;
pub mod cfg;
pub mod constants;
pub mod debug_info;
pub mod debug_loc;
pub mod erase;
mod ffi;
pub mod gep;
pub mod handles;
pub mod isolate;
pub mod kernels;
pub mod metadata;
pub mod module_utils;
pub mod naming;
pub mod signature;
pub mod transform_utils;
pub mod types;
pub mod values;

pub use handles::{Block, Metadata, Type, Value};
pub use types::TypeKind;
pub use values::Opcode;
