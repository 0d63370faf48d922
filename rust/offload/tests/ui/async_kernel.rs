#[offload::kernel]
pub async fn k(n: u32) {}
fn main() {}
