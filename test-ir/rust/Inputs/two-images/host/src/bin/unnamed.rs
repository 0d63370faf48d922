//! Has the kernel crates as dependencies but names neither, so neither is
//! linked and no image is registered: the data API still links and
//! answers (no device; errors that say why), never a SIGSEGV.

fn main() {
    let count = offload::device_count();
    println!("devices: {count}");
    let data = [1.0f32, 2.0, 3.0];
    match offload::Device::DEFAULT.alloc_from(&data[..]) {
        Ok(buffer) => println!("buffer: {}", buffer.len()),
        Err(error) => println!("buffer: {error}"),
    }
    match offload::map(&data[..]) {
        Ok(mapped) => println!("mapped: on device {}", mapped.device().number()),
        Err(error) => println!("mapped: {error}"),
    }
}
