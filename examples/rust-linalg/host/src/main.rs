//! rust-linalg: matrix-vector multiply, an in-place update with a config
//! struct, a reduction, a mapped region around 10 launches and a vendor
//! library on device pointers; each result checked against the CPU.

use std::error::Error;

use common::Affine;
use linalg_kernels::{affine, matvec, runs_on_cpu, scal, sum_squares};
use offload::Launch;

unsafe extern "C" {
    fn vendor_saxpy(n: usize, alpha: f32, x: *const f32, y: *mut f32);
    fn vendor_sum(n: usize, x: *const f32) -> f32;
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * a.abs().max(b.abs()).max(1.0)
}

fn check(what: &str, got: &[f32], want: &[f32]) -> Result<(), String> {
    match got.iter().zip(want).position(|(g, w)| !close(*g, *w)) {
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
            got[i], want[i]
        )),
    }
}

/// The vendor library on device pointers: map, hand over, map back.
fn vendor() -> Result<(), Box<dyn Error>> {
    let xs: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let mut ys = vec![1.0f32; 256];
    let host_x = xs.as_ptr();
    let (device_sum, separate) = offload::device_ptrs((&xs[..], &mut ys[..]), |(dx, dy)| {
        // SAFETY: the vendor routines read 256 floats at dx and write 256 at
        // dy, device addresses valid while the closure runs.
        unsafe { vendor_saxpy(dx.len(), 2.0, dx.as_ptr(), dy.as_mut_ptr()) };
        // SAFETY: as above.
        let s = unsafe { vendor_sum(dy.len(), dy.as_ptr()) };
        (s, dx.as_ptr() != host_x)
    })?;
    let want_ys: Vec<f32> = xs.iter().map(|x| 2.0 * x + 1.0).collect();
    check("vendor saxpy on device pointers", &ys, &want_ys)?;
    check(
        "vendor sum on device pointers",
        &[device_sum],
        &[want_ys.iter().sum()],
    )?;
    println!("device pointers are a separate allocation: {separate}");
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let grid = Launch::grid(8, 128);
    let (rows, cols) = (96, 64);
    let a: Vec<f32> = (0..rows * cols)
        .map(|i| ((i * 7) % 13) as f32 - 6.0)
        .collect();
    let x: Vec<f32> = (0..cols).map(|j| 0.5 + j as f32 / 8.0).collect();

    // y = A x: A and x read only, y write only.
    let mut y = vec![f32::NAN; rows];
    matvec(&grid, &a, &x, rows, cols, &mut y)?;
    let want: Vec<f32> = (0..rows)
        .map(|r| (0..cols).map(|c| a[r * cols + c] * x[c]).sum())
        .collect();
    check("matvec", &y, &want)?;

    // A mapped region around 10 launches: `v` goes to the device once and
    // comes back once, when the region ends.
    let config = Affine {
        scale: 0.9,
        shift: 0.25,
        lo: -4.0,
        hi: 4.0,
    };
    let mut v: Vec<f32> = (0..1000).map(|i| (i as f32 - 500.0) / 50.0).collect();
    let mut cpu = v.clone();
    let mut partial = vec![0.0f32; 64];
    {
        let mut region = offload::map_mut(&mut v[..])?;
        for _ in 0..10 {
            affine(&grid, config, &mut region)?;
        }
        // The reduction reads the mapped data where it is.
        sum_squares(&grid, &region, &mut partial)?;
    }
    for _ in 0..10 {
        cpu.iter_mut().for_each(|e| *e = config.apply(*e));
    }
    check("affine x10 in a region", &v, &cpu)?;
    let total: f32 = partial.iter().sum();
    let want_total: f32 = cpu.iter().map(|e| e * e).sum();
    check("sum_squares", &[total], &[want_total])?;

    // The whole array in one thread's grid-stride loop.
    let mut w: Vec<f32> = (0..1024).map(|i| i as f32 * 0.25 - 100.0).collect();
    let want: Vec<f32> = w.iter().map(|e| e * 1.5).collect();
    scal(&Launch::grid(1, 1), 1.5, &mut w)?;
    check("scal on one thread", &w, &want)?;

    // The vendor library on device pointers: plain C on the host, which can
    // read device memory only where the device is libomptarget's CPU plugin.
    let mut on_cpu = 0u32;
    runs_on_cpu(&Launch::grid(1, 1), &mut on_cpu)?;
    if on_cpu == 1 {
        vendor()?;
    } else {
        println!(
            "vendor library: skipped (the kernels ran on a GPU; the C stand-in reads host memory only)"
        );
    }
    println!("image: {} bytes", env!("LINALG_IMAGE_BYTES"));
    Ok(())
}
