#[offload::kernel(teams = 4)]
pub fn k(x: &mut [f32]) {}
fn main() {}
