//! Builds the kernel crate into the device image (offload-build) and the
//! stand-in vendor library (C, with the cc crate).

fn main() {
    let built = offload_build::DeviceCrate::new("../kernels").build_or_exit();
    // The first image: the host's, unless OFFLOAD_TARGETS puts another first.
    println!(
        "cargo::rustc-env=LINALG_IMAGE_BYTES={}",
        built.images[0].size
    );
    cc::Build::new().file("vendor/vendor.c").compile("vendor");
    println!("cargo::rerun-if-changed=vendor/vendor.c");
}
