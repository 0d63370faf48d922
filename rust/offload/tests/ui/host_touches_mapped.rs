fn f(data: &mut Vec<f32>) -> Result<(), offload::MapError> {
    let region = offload::map_mut(&mut data[..])?;
    data[0] = 1.0;
    drop(region);
    Ok(())
}
fn main() {}
