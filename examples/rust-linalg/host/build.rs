//! Builds the kernel crate into the device image (offload-build) and the
//! stand-in vendor library (C, with the cc crate).

fn main() {
    let built = offload_build::DeviceCrate::new("../kernels").build_or_exit();
    // The first image: the host's, unless OFFLOAD_TARGETS puts another first
    // (none under `cargo check`, clippy and `cargo doc`, which build none).
    let bytes = built.images.first().map_or(0, |image| image.size);
    println!("cargo::rustc-env=LINALG_IMAGE_BYTES={bytes}");
    cc::Build::new().file("vendor/vendor.c").compile("vendor");
    println!("cargo::rerun-if-changed=vendor/vendor.c");
}
