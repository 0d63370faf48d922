// Instance lists a generic kernel cannot be built from.
use offload::kernel;

#[kernel(instances())]
pub fn empty<T: Copy>(x: &[T]) {}

#[kernel(instances(f32))]
pub fn not_generic(x: &[f32]) {}

#[kernel(instances(f32, u32))]
pub fn two<T: Copy, U: Copy>(x: &[T], y: &[U]) {}

#[kernel(instances(f32, f32))]
pub fn twice<T: Copy>(x: &[T]) {}

#[kernel(instances(f32), instances(f64))]
pub fn given_twice<T: Copy>(x: &[T]) {}

// A parameter that crosses as a slice generically but as atomics in the
// instance.
#[kernel(instances(f32, offload::atomic::AtomicU32))]
pub fn shapes<T: Copy>(x: &[T]) {}

fn main() {}
