//! IR helpers shared by several passes, by concept. Helpers that one pass
//! alone uses live in that pass.
//!
//! | module | what |
//! |---|---|
//! | [`handles`] | typed wrappers of raw LLVM handles ([`Value`], [`Type`], [`Metadata`], [`Block`]) |
//! | [`values`] | what any value can be asked: type, name, operands, users |
//! | [`types`] | type text, kinds inkwell wraps, fixed sizes, pointers, the data layout |
//! | [`attributes`] | parameter, call-site and function attributes |
//! | [`metadata`] | metadata kinds, attachments, plain node operands |
//! | [`calls`] | callees, arguments, intrinsics |
//! | [`kernels`] | kernel calling conventions and AMDGPU address spaces |
//! | [`naming`] | how messages name functions (demangled) and parameters |
//! | [`signature`] | changing a function's parameters ([`signature::SignatureRewrite`]) |
//! | [`builder`] | where new instructions go |
//! | [`constants`] | bytes of constants, byte arrays |
//! | [`module_utils`] | global constructors, `llvm.compiler.used`, module flags (LLVM's `ModuleUtils`) |
//!
//! `llvm_ext.cpp` holds the few LLVM C++ calls the C API lacks (one
//! function each); the Rust modules that use them declare and wrap them.

pub mod attributes;
pub mod builder;
pub mod calls;
pub mod constants;
pub mod gep;
pub mod handles;
pub mod kernels;
pub mod metadata;
pub mod module_utils;
pub mod naming;
pub mod signature;
pub mod types;
pub mod values;

pub use handles::{Block, Metadata, Type, Value};
