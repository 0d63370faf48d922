// Every thread of the grid would get the same `&mut`: a data race once the
// threads run concurrently. Refused, naming the kernel, the parameter and
// the sound form.
#[offload::kernel]
pub fn increment(data: &mut [i32]) {}

#[offload::kernel]
pub fn total(values: &[f64], sum: &mut f64) {}

#[offload::kernel]
pub fn count(bins: &mut [offload::atomic::AtomicU32]) {}

fn main() {}
