// A kernel named like a C library function the image calls, or given such
// a symbol, is refused at its name.
#[offload::kernel]
pub fn calloc(x: &[f32]) {}

#[offload::kernel(name = "free")]
pub fn release(x: &[f32]) {}

#[offload::kernel(name = "omp_get_num_devices")]
pub fn devices(x: &[f32]) {}

// A generic kernel's instances are checked, not its base symbol.
#[offload::kernel(name = "omp", instances(f32))]
pub fn scaled<T: offload::DeviceCopy>(x: &[T]) {}

fn main() {}
