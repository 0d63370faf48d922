fn main() {
    let mut v: Vec<f32> = (1..=6).map(|i| i as f32).collect();
    let want: Vec<f32> = v.iter().map(|x| 2.0 * 3.0 * x).collect();
    sim::scale_twice(2.0, 3.0, &mut v).expect("launch");
    assert_eq!(v, want);
    println!("app: {v:?}");
}
