//! Types shared by the kernels and the host.

#![no_std]

/// How `linalg_kernels::affine` updates a vector: `v = clamp(scale * v + shift, lo, hi)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, offload::DeviceCopy)]
pub struct Affine {
    pub scale: f32,
    pub shift: f32,
    pub lo: f32,
    pub hi: f32,
}

impl Affine {
    /// The update of one element (the kernel and the CPU check share it).
    pub fn apply(&self, v: f32) -> f32 {
        (self.scale * v + self.shift).clamp(self.lo, self.hi)
    }
}
