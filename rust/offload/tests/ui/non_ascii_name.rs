#[offload::kernel]
pub fn größe(x: &mut [f32]) {}
fn main() {}
