//! Types shared by the device kernels and the host program (the host
//! includes this file with `#[path]`: both sides must agree on the layout,
//! which `repr(C)` fixes).

/// A `repr(C)` struct passed by value (24 bytes: `byval` on x86_64).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
    pub mass: f64,
}
