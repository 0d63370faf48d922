//! A type shared by the kernels and the host program (the host gets it as
//! `kernels::Particle`): `#[repr(C)]` fixes one layout on both sides.

/// A particle, passed to a kernel by value and written through `Out` (so
/// `AnyBitPattern`: all its fields are floats).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, offload::DeviceCopy, offload::AnyBitPattern)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
    pub mass: f64,
}

/// A zero-sized type: a kernel may take it (0 bytes to map).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, offload::DeviceCopy)]
pub struct Nothing {}
