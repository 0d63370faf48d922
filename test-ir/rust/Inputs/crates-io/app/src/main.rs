//! Launches the kernel crate's saxpy and checks it against the CPU.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let mut out = vec![0.0f32; n];
    kernels::saxpy(&offload::Launch::grid(4, 64), 2.0, &x, &y, &mut out)?;
    for i in 0..n {
        let cpu = 2.0 * x[i] + y[i];
        if out[i] != cpu {
            return Err(format!("saxpy: [{i}] = {} but the CPU says {cpu}", out[i]).into());
        }
    }
    println!("saxpy from the registry's crates: ok");
    Ok(())
}
