// A host program whose launch descriptor names a kernel ("scale") that the
// device image does not have.
#[unsafe(export_name = "__offload_launch.scale")]
pub static SCALE: [u64; 12] = [1, 1, 1, 1, 1, 1, 1, 0, 1, 3, 4, 0];

unsafe extern "C" {
    fn scale(p: *mut f32);
}

fn main() {
    let mut x = 1.0f32;
    unsafe { scale(&mut x) };
    println!("{x}");
}
