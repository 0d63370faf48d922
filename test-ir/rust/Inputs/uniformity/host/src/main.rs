fn main() {
    let x: Vec<f32> = (1..=48).map(|i| i as f32).collect();
    let mut out = [0.0f32; 4];
    let launch = offload::Launch::grid(1, 64).dyn_shared_mem(64 * 4);
    uniformity_kernels::shapes(&launch, &x, 2, &mut out).unwrap();
    // The plain computation: the sum of x (threads 48..64 return early).
    let expected: f32 = x.iter().sum();
    assert_eq!(out, [expected; 4]);
    println!("shapes: {out:?}");
    #[cfg(feature = "unchecked")]
    uniformity_kernels::unchecked(&offload::Launch::grid(1, 8), 4, &mut out).unwrap();
}
