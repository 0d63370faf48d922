//! Builds the `kernels` crate into the device image and links the launch
//! stubs and libomptarget (see the offload-build crate). The plugin is named
//! by the environment variable `OFFLOAD_PASSES_PLUGIN`.

fn main() {
    offload_build::DeviceCrate::new("../kernels").build_or_exit();
}
