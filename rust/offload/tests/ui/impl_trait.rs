#[offload::kernel]
pub fn k(n: impl Copy) {}
fn main() {}
