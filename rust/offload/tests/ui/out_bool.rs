// Write-only data comes back from device memory the kernel may not have
// written: `bool` (not every byte is a bool) is refused.
#[offload::kernel]
pub fn flags(mut out: offload::Out<'_, [bool]>) {}
fn main() {}
