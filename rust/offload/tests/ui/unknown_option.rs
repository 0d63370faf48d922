#[offload::kernel(teams = 4)]
pub fn k(x: &[f32]) {}
fn main() {}
