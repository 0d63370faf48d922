// A static shared array over 48 KiB (NVIDIA's static shared memory) is a
// compile error on every target.
#[offload::kernel]
pub fn k(mut x: offload::Out<'_, [f32]>) {
    let Some(tile) = offload::shared_array!(f32; 12 * 1024 + 1) else { return };
    for (_, x) in x.grid_stride() {
        x.write(tile.len() as f32);
    }
}
fn main() {}
