#[repr(C)]
#[derive(Clone, Copy, offload::DeviceCopy)]
pub struct Config {
    pub scale: f32,
    pub data: *const f32,
}
fn main() {}
