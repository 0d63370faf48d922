//! The binary crate: launches in several of its own modules (codegen units)
//! and through the library crate.

use offload_lib::api::*;
use offload_lib::words;

mod first {
    use super::*;

    #[inline(never)]
    pub fn fill(n: usize, value: u32) -> Vec<u32> {
        let mut out = vec![0u32; n];
        let sizes = [(n * 4) as u64, 0, 0];
        let rc = unsafe { offload_lib::api::fill(words!(FILL), &LaunchConfig::new(&sizes), out.as_mut_ptr(), value, n) };
        assert_eq!(rc, 0);
        out
    }
}

mod second {
    use super::*;

    #[inline(never)]
    pub fn double(x: &mut [f32]) {
        let sizes = [(x.len() * 4) as u64, 0, 0];
        let rc = unsafe { offload_lib::api::scale(words!(SCALE), &LaunchConfig::new(&sizes), x.as_mut_ptr(), 2.0, x.len()) };
        assert_eq!(rc, 0);
    }
}

mod third {
    use super::*;

    #[inline(never)]
    pub fn sum_twice(a: &[f32]) -> Vec<f32> {
        let mut out = vec![0.0; a.len()];
        let bytes = (a.len() * 4) as u64;
        let sizes = [bytes, bytes, bytes, 0];
        let rc = unsafe { offload_lib::api::add(words!(ADD), &LaunchConfig::new(&sizes), a.as_ptr(), a.as_ptr(), out.as_mut_ptr(), a.len()) };
        assert_eq!(rc, 0);
        out
    }
}

fn main() {
    let n = std::env::args().count() + 3; // 4, known at run time only
    println!("fill: {:?}", first::fill(n, 10));
    let mut x: Vec<f32> = (1..=n).map(|i| i as f32).collect();
    second::double(&mut x);
    println!("double: {x:?}");
    println!("sum_twice: {:?}", third::sum_twice(&x));
    offload_lib::scaling::scale(&mut x, 0.5);
    println!("lib scale: {x:?}");
    let y: Vec<f32> = vec![100.0; n];
    println!("lib add: {:?}", offload_lib::vectors::add(&x, &y));
}
