#[offload::kernel]
pub fn k(f: &dyn Fn(u32) -> u32) {}
fn main() {}
