//! Builds the kernel crate into the device image (offload-build) and the
//! stand-in vendor library (C, with the cc crate).

fn main() {
    let image = offload_build::DeviceCrate::new("../kernels").build_or_exit();
    println!("cargo::rustc-env=LINALG_IMAGE_BYTES={}", image.size);
    cc::Build::new().file("vendor/vendor.c").compile("vendor");
    println!("cargo::rerun-if-changed=vendor/vendor.c");
}
