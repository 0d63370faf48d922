//! Builds the `kernels` crate into the device image and links the launch
//! stubs and libomptarget (see the offload-build crate). The plugin is the
//! one `OFFLOAD_PASSES_PLUGIN` names, else the one offload-build builds once
//! into its cache.

fn main() {
    offload_build::DeviceCrate::new("../kernels").build_or_exit();
}
