//! Launches kernels whose types could differ between the host and the
//! device build, and maps overlapping ranges: every outcome is a correct
//! result or an error, printed.

use agree_kernels::{Probe, Real, STEP, affine, bump, ends, weigh};
use offload::Launch;

fn features(launch: &Launch) {
    // 0.1 is not an f32: only f64 arithmetic gives exactly these values.
    let mut x: Vec<Real> = vec![0.1, 0.2, 0.3];
    let expected: Vec<Real> = x.iter().map(|v| 3.0 * v + 1.0).collect();
    match affine(launch, 3.0, &mut x[..]) {
        Ok(()) if x == expected => println!("features: {} bytes per Real: ok", size_of::<Real>()),
        Ok(()) => println!("features: WRONG RESULT {x:?}, expected {expected:?}"),
        Err(e) => println!("features: {e}"),
    }
}

fn feature_word(launch: &Launch) {
    // `STEP` is the host build's; the kernel adds the device build's.
    let mut x = vec![10u32, 20, 30];
    match bump(launch, &mut x[..]) {
        Ok(()) if x == [10 + STEP, 20 + STEP, 30 + STEP] => println!("feature word: ok"),
        Ok(()) => println!("feature word: WRONG RESULT {x:?} (the host adds {STEP})"),
        Err(e) => println!("feature word: {e}"),
    }
}

fn layouts(launch: &Launch) {
    let probe = Probe {
        value: 2.0,
        #[cfg(debug_assertions)]
        checks: 7,
        weight: 1.5,
    };
    let mut p = vec![probe; 4];
    match weigh(launch, &mut p[..]) {
        Ok(()) if p.iter().all(|q| q.value == 3.0 && q.weight == 1.5) => {
            println!("layouts: ok")
        }
        Ok(()) => println!("layouts: WRONG RESULT {p:?}"),
        Err(e) => println!("layouts: {e}"),
    }
}

fn overlaps(launch: &Launch) {
    let v: Vec<u32> = (1..=8).collect();
    let first = offload::map(&v[0..4]).expect("map v[0..4]");
    match offload::map(&v[2..6]) {
        Ok(_) => println!("overlapping map: WRONG: mapped"),
        Err(e) => println!("overlapping map: {e}"),
    }
    let mut out = 0u32;
    match ends(launch, &v[2..6], &mut out) {
        Ok(()) => println!("overlapping launch: WRONG: launched"),
        Err(e) => println!("overlapping launch: {e}"),
    }
    // Inside the live range: shares its mapping.
    match ends(launch, &v[1..3], &mut out) {
        Ok(()) => println!("launch inside a region: {out}"),
        Err(e) => println!("launch inside a region: {e}"),
    }
    drop(first);
    match offload::map(&v[2..6]) {
        Ok(_) => println!("after the region: mapped"),
        Err(e) => println!("after the region: {e}"),
    }
}

fn main() {
    let launch = Launch::new();
    features(&launch);
    feature_word(&launch);
    layouts(&launch);
    overlaps(&launch);
}
