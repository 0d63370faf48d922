#[offload::kernel]
pub unsafe fn k(x: &[f32]) {}
fn main() {}
