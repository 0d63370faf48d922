//! Builds the kernel crate, and with it the mathlib kernel library it
//! depends on, into the device image (offload-build).

fn main() {
    offload_build::DeviceCrate::new("../kernels").build_or_exit();
}
