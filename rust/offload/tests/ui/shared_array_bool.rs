// The array starts with no defined value: `bool` (not any bit pattern) is
// refused.
pub fn f() -> usize {
    offload::shared_array!(bool; 4).map_or(0, |a| a.len())
}
fn main() {}
