//! rust-kernel-library: the kernels of a kernel library (mathlib) and the
//! two instances of a generic kernel (axpy), launched from one image, each
//! result checked against the CPU.

use std::error::Error;

use library_kernels::axpy;
use offload::Launch;

fn check<T: Copy + Into<f64>>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    let close = |g: f64, w: f64| (g - w).abs() <= 1e-6 * g.abs().max(w.abs()).max(1.0);
    let bad = got
        .iter()
        .zip(want)
        .position(|(g, w)| !close((*g).into(), (*w).into()));
    match bad {
        None if got.len() == want.len() => {
            println!("{what}: ok ({} values match the CPU)", got.len());
            Ok(())
        }
        None => Err(format!(
            "{what}: {} values, expected {}",
            got.len(),
            want.len()
        )),
        Some(i) => Err(format!(
            "{what}: [{i}] = {} but the CPU says {}",
            got[i].into(),
            want[i].into()
        )),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let launch = Launch::grid(4, 32);

    // The kernel library's kernels, through their launchers in mathlib.
    let x: Vec<f32> = (0..1000).map(|i| i as f32 * 0.01).collect();
    let mut sines = vec![0.0f32; x.len()];
    mathlib::sines(&launch, &x, &mut sines)?;
    let want: Vec<f32> = x.iter().map(|&v| libm::sinf(v)).collect();
    check("mathlib::sines", &sines, &want)?;

    let mut v: Vec<f64> = (0..500).map(|i| i as f64).collect();
    let want: Vec<f64> = v.iter().map(|&e| libm::hypot(e, 3.0)).collect();
    mathlib::hypot(&launch, 3.0, &mut v)?;
    check("mathlib::hypot", &v, &want)?;

    // The generic kernel's two instances: named, and inferred.
    let mut y: Vec<f32> = (0..777).map(|i| i as f32).collect();
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| 2.0 * x + y).collect();
    axpy::<f32>(&launch, 2.0, &x[..y.len()], &mut y)?;
    check("axpy::<f32>", &y, &want)?;

    let xd: Vec<f64> = (0..300).map(|i| 1.0 / (i as f64 + 1.0)).collect();
    let mut yd = vec![0.5f64; xd.len()];
    let want: Vec<f64> = xd.iter().zip(&yd).map(|(x, y)| -3.0 * x + y).collect();
    axpy(&launch, -3.0f64, &xd, &mut yd)?;
    check("axpy::<f64>", &yd, &want)?;
    Ok(())
}
