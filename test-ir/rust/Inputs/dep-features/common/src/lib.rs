//! A plain crate (no offload) whose feature `big` changes a constant.

#![no_std]

/// What `step` adds: 10 with `big`, else 1.
pub const STEP: u32 = if cfg!(feature = "big") { 10 } else { 1 };
