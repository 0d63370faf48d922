pub struct Plain {
    pub a: f32,
}
#[offload::kernel]
pub fn k(p: Plain, v: &Vec<f32>) {}
fn main() {}
