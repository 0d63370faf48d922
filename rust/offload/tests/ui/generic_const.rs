// Const generics are refused: instances are types.
#[offload::kernel(instances(f32))]
pub fn k<T: Copy, const N: usize>(x: &[T]) {}

#[offload::kernel]
pub fn only_const<const N: usize>(x: &[f32]) {}

fn main() {}
