#[offload::kernel]
pub fn k(pair: (f32, f32)) {}
fn main() {}
