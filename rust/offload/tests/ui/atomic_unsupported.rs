// Only the widths both GPU targets update atomically.
#[offload::kernel]
pub fn flags(seen: &[core::sync::atomic::AtomicBool]) {}

#[offload::kernel]
pub fn halves(bins: &core::sync::atomic::AtomicU16) {}

fn main() {}
