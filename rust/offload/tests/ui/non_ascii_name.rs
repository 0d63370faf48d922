#[offload::kernel]
pub fn größe(x: &[f32]) {}
fn main() {}
