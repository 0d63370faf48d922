#[derive(Clone, Copy, offload::DeviceCopy)]
pub struct Config {
    pub scale: f32,
}
fn main() {}
