#[offload::kernel]
pub fn k(x: *mut f32, n: usize) {}
fn main() {}
