//! No kernel here, and no word of the kernel crate's one dependency.

#![no_std]

/// A plain function.
pub fn half(x: f32) -> f32 {
    x / 2.0
}
