fn main() {
    let mut v = vec![1.5f32, -2.0, 4.0];
    let mut want = v.clone();
    ws_kernels::scale_on_cpu(4.0, &mut want);
    ws_kernels::scale(&offload::Launch::grid(1, 4), 4.0, &mut v).unwrap();
    assert_eq!(v, want);
    println!("example: {v:?}");
}
