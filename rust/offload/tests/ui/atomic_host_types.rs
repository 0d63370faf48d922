use offload::atomic::{AtomicF32, AtomicU32};

#[offload::kernel]
pub fn histogram(values: &[u32], bins: &[AtomicU32], total: &AtomicF32) {}

fn main() {
    let launch = offload::Launch::grid(4, 64);
    let values = [1u32, 2, 3];
    // The host passes the plain values, mutably: the kernel writes them.
    let (bins, mut wide, mut total) = ([0u32; 4], [0u64; 4], 0.0f32);
    let _ = histogram(&launch, &values, &bins, &mut total);
    let _ = histogram(&launch, &values, &mut wide, &mut total);
}
