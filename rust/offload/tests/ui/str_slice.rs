#[offload::kernel]
pub fn k(name: &str) {}
fn main() {}
