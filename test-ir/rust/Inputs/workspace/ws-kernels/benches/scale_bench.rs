fn main() {
    let mut v: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    let mut want = v.clone();
    ws_kernels::scale_on_cpu(0.5, &mut want);
    let start = std::time::Instant::now();
    ws_kernels::scale(&offload::Launch::grid(4, 32), 0.5, &mut v).unwrap();
    assert_eq!(v, want);
    println!("bench: scale of 1000 floats ok ({:?})", start.elapsed());
}
