#[offload::kernel]
pub fn k(f: fn(f32) -> f32, x: &[f32]) {}
fn main() {}
