//! Links only `offload` (no kernel crate, no image): the data API links
//! and answers (no device; errors that say why), never a SIGSEGV.

fn main() {
    let count = offload::device_count();
    println!("devices: {count}");
    let data = [1u32, 2, 3, 4];
    match offload::Device::new(0).alloc::<u32>(data.len()) {
        Ok(buffer) => println!("buffer: {}", buffer.len()),
        Err(error) => println!("buffer: {error}"),
    }
    match offload::map(&data[..]) {
        Ok(mapped) => println!("mapped: on device {}", mapped.device().number()),
        Err(error) => println!("mapped: {error}"),
    }
}
