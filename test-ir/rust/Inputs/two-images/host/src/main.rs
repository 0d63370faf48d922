//! Launches `scale` of both kernel crates and compares each with the CPU
//! (or prints the launch's error).

type Scale = fn(&offload::Launch, &mut [f32]) -> Result<(), offload::LaunchError>;

fn check(name: &str, scale: Scale, factor: f32) {
    let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut v = input.clone();
    if let Err(error) = scale(&offload::Launch::grid(2, 32), &mut v) {
        println!("{name}: {error}");
        return;
    }
    let expected: Vec<f32> = input.iter().map(|x| x * factor).collect();
    if v == expected {
        println!("{name}: ok (x{factor})");
    } else {
        println!("{name}: wrong: {:?}, expected x{factor}", &v[..4]);
    }
}

fn main() {
    check("two_doubler::scale", |l, v| two_doubler::scale(l, v), 2.0);
    check("two_tripler::scale", |l, v| two_tripler::scale(l, v), 3.0);
}
