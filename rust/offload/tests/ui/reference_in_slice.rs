#[offload::kernel]
pub fn k(x: &[&f32]) {}
fn main() {}
