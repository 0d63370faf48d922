fn main() {
    let mut v = [0.0f32; 4];
    dup_kernels::fill(&offload::Launch::grid(1, 4), &mut v).unwrap();
    println!("fill: {v:?}");
}
