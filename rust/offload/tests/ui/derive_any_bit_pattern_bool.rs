#[repr(C)]
#[derive(Clone, Copy, offload::DeviceCopy, offload::AnyBitPattern)]
pub struct Hit {
    pub distance: f32,
    pub found: bool,
}
#[offload::kernel]
pub fn first_hit(mut hit: offload::Out<'_, Hit>) {}
fn main() {}
