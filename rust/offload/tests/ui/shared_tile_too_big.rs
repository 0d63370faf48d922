// A shared tile whose elements and records (8 bytes per element) take over
// 48 KiB is a compile error on every target: 4096 f32s take 49160 bytes.
#[offload::kernel]
pub fn k(mut x: offload::Out<'_, [f32]>) {
    let Some(tile) = offload::shared_tile!(f32; 4096) else { return };
    for (_, x) in x.grid_stride() {
        x.write(tile.len() as f32);
    }
}
fn main() {}
