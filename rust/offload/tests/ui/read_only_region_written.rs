#[offload::kernel]
pub fn k(x: offload::InOut<'_, [f32]>) {}
fn f(data: &[f32]) -> Result<(), Box<dyn std::error::Error>> {
    let region = offload::map(data)?;
    k(&offload::Launch::new(), &region)?;
    Ok(())
}
fn main() {}
