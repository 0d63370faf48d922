// A FROM-only region of `bool`s could come back holding no valid bool.
fn main() {
    let mut flags = [false; 4];
    let _ = offload::map_out(&mut flags[..]);
}
