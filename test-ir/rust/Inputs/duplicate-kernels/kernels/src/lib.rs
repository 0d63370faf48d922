//! The kernel crate: links the kernel library; its features add kernels
//! whose symbols clash.

#![no_std]

use dup_lib as _;
use offload::{Out, kernel};

#[kernel]
pub fn fill(mut out: Out<'_, [f32]>) {
    for (_, out) in out.grid_stride() {
        out.write(1.0);
    }
}

#[cfg(feature = "same-crate")]
pub mod a {
    #[offload::kernel]
    pub fn twin(out: offload::Out<'_, [f32]>) {
        let _ = out;
    }
}

#[cfg(feature = "same-crate")]
pub mod b {
    #[offload::kernel]
    pub fn twin(out: offload::Out<'_, [f32]>) {
        let _ = out;
    }
}

/// The library's default symbol again.
#[cfg(feature = "cross-crate")]
#[kernel]
pub fn scale(out: Out<'_, [f32]>) {
    let _ = out;
}
