// 14 slices and one scalar take 29 launch slots; with the launch grid's 4
// the record would need 33 of its 32.
#[offload::kernel]
pub fn wide(
    a0: &[f32], a1: &[f32], a2: &[f32], a3: &[f32], a4: &[f32], a5: &[f32], a6: &[f32],
    a7: &[f32], a8: &[f32], a9: &[f32], a10: &[f32], a11: &[f32], a12: &[f32], a13: &[f32],
    n: u32,
) {
}

fn main() {}
