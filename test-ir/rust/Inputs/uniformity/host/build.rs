fn main() {
    offload_build::DeviceCrate::new("../kernels").build_or_exit();
}
