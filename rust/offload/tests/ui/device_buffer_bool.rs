// A device buffer from `alloc` starts zeroed device memory read back as
// `T`: only types valid for any bytes (AnyBitPattern) may be allocated so.
fn f() {
    let _ = offload::Device::DEFAULT.alloc::<bool>(4);
}

fn main() {}
