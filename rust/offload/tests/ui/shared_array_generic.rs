// One array per declaration: its element type cannot be a generic parameter.
pub fn f<T: offload::AnyBitPattern>() -> usize {
    offload::shared_array!(T; 4).map_or(0, |a| a.len())
}
fn main() {}
