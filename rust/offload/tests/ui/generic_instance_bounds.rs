// An instance must satisfy the kernel's bounds and where clause; its
// parameters the same checks as a non-generic kernel's.
use offload::{InOut, Out};

#[offload::kernel(instances(f32, bool))]
pub fn double<T>(xs: InOut<'_, [T]>)
where
    T: offload::DeviceCopy + core::ops::Add<Output = T>,
{
    let _ = xs;
}

#[repr(C)]
#[derive(Clone, Copy, offload::DeviceCopy)]
pub struct Flag {
    pub on: bool,
}

#[offload::kernel(instances(u32, Flag))]
pub fn write<T: offload::DeviceCopy>(out: Out<'_, [T]>) {
    let _ = out;
}

fn main() {}
