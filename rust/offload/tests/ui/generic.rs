#[offload::kernel]
pub fn k<T: Copy>(x: &[T]) {}
fn main() {}
