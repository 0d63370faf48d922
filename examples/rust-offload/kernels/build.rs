//! Builds this kernel crate into the device image and links the launch
//! stubs and libomptarget into everything that links it (the host program,
//! this crate's tests); see the offload-build crate. The plugin is the one
//! the environment variable `OFFLOAD_PASSES_PLUGIN` names, else the one
//! offload-build builds once into its cache; `cargo check`, clippy and
//! `cargo doc` need none and build no image.

fn main() {
    offload_build::DeviceCrate::new(".").build_or_exit();
}
