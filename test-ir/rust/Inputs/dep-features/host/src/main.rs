//! Launches `step` and compares it with the CPU, which adds the host
//! build's `feat_common::STEP`.

fn main() {
    let mut v = vec![5u32; 64];
    feat_kernels::step(&offload::Launch::grid(2, 32), &mut v).unwrap();
    let expected = 5 + feat_common::STEP;
    if v.iter().all(|&x| x == expected) {
        println!("step: ok ({expected})");
    } else {
        println!("step: wrong: {}, expected {expected}", v[0]);
    }
}
