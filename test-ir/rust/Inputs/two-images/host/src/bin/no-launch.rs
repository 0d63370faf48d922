//! Links a kernel crate but launches nothing: the data API works.

use two_doubler as _;

fn main() {
    let count = offload::device_count();
    println!("devices: {}", if count > 0 { "some" } else { "none" });
    let data = [1.0f32, 2.0, 3.0];
    let buffer = offload::Device::DEFAULT.alloc_from(&data[..]).unwrap();
    println!("buffer: {}", buffer.len());
    let mapped = offload::map(&data[..]).unwrap();
    println!("mapped: on device {}", mapped.device().number());
}
