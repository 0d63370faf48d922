#[test]
fn integration_test_launches_scale() {
    let mut v: Vec<f32> = (0..50).map(|i| i as f32 * 0.5).collect();
    let mut want = v.clone();
    ws_kernels::scale_on_cpu(-2.0, &mut want);
    ws_kernels::scale(&offload::Launch::grid(1, 16), -2.0, &mut v).unwrap();
    assert_eq!(v, want);
}
