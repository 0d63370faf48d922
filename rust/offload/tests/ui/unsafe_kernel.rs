#[offload::kernel]
pub unsafe fn k(x: &mut [f32]) {}
fn main() {}
