//! A library crate whose functions launch kernels, in several modules (so
//! several codegen units); the binary crate calls them.

#[path = "api.rs"]
pub mod api;

pub mod vectors {
    use super::api::*;
    use crate::words;

    /// `out = a + b` on the device.
    #[inline(never)]
    pub fn add(a: &[f32], b: &[f32]) -> Vec<f32> {
        let mut out = vec![0.0; a.len()];
        let bytes = (a.len() * 4) as u64;
        let sizes = [bytes, bytes, bytes, 0];
        let rc = unsafe { crate::api::add(words!(ADD), &LaunchConfig::new(&sizes), a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), a.len()) };
        assert_eq!(rc, 0, "add launch failed");
        out
    }
}

pub mod scaling {
    use super::api::*;
    use crate::words;

    /// `x *= factor` on the device.
    #[inline(never)]
    pub fn scale(x: &mut [f32], factor: f32) {
        let sizes = [(x.len() * 4) as u64, 0, 0];
        let rc = unsafe { crate::api::scale(words!(SCALE), &LaunchConfig::new(&sizes), x.as_mut_ptr(), factor, x.len()) };
        assert_eq!(rc, 0, "scale launch failed");
    }
}
