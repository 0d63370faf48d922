//! `scale` multiplies a slice in place on the device:
//!
//! ```
//! let mut v = vec![1.0f32, 2.0, 3.0];
//! ws_kernels::scale(&offload::Launch::grid(1, 4), 2.0, &mut v).unwrap();
//! let mut want = [1.0f32, 2.0, 3.0];
//! ws_kernels::scale_on_cpu(2.0, &mut want);
//! assert_eq!(v, want);
//! println!("doctest launched scale");
//! ```

#![cfg_attr(not(test), no_std)]

use offload::{InOut, kernel};

/// `data[i] *= a`.
#[kernel]
pub fn scale(a: f32, mut data: InOut<'_, [f32]>) {
    for (_, x) in data.grid_stride() {
        *x *= a;
    }
}

/// What `scale` computes, on the CPU.
pub fn scale_on_cpu(a: f32, data: &mut [f32]) {
    for x in data {
        *x *= a;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn unit_test_launches_scale() {
        let mut v: Vec<f32> = (0..100).map(|i| i as f32).collect();
        let mut want = v.clone();
        super::scale_on_cpu(3.0, &mut want);
        super::scale(&offload::Launch::grid(2, 8), 3.0, &mut v).unwrap();
        assert_eq!(v, want);
        println!("unit test launched scale");
    }
}
