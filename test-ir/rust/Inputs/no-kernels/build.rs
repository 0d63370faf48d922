fn main() {
    offload_build::DeviceCrate::new(".").build_or_exit();
}
