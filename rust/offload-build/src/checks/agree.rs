//! One set of launch stubs serves every image of a program: it is generated
//! from the first image's kernel records, so every other image must have
//! the same kernels with the same records (symbol, signature hash, and per
//! launch slot its kind, map type, size, length argument and layout word).

use crate::error::Error;
use crate::image::{Image, Kernel};

/// Every image's kernels are the first image's.
pub(crate) fn check(images: &[Image]) -> Result<(), Error> {
    let Some((first, rest)) = images.split_first() else {
        return Ok(());
    };
    for image in rest {
        check_pair(first, image)?;
    }
    Ok(())
}

fn check_pair(first: &Image, other: &Image) -> Result<(), Error> {
    let differs = |kernel: &str, what: String| Error::KernelDiffers {
        kernel: kernel.to_owned(),
        target: other.target.to_string(),
        first: first.target.to_string(),
        what,
    };
    let find = |kernels: &[Kernel], symbol: &str| kernels.iter().position(|k| k.symbol == symbol);
    for kernel in &first.kernels {
        let Some(at) = find(&other.kernels, &kernel.symbol) else {
            return Err(differs(
                &kernel.symbol,
                "the image has no such kernel".into(),
            ));
        };
        if let Some(what) = difference(kernel, &other.kernels[at]) {
            return Err(differs(&kernel.symbol, what));
        }
    }
    if let Some(extra) = other
        .kernels
        .iter()
        .find(|k| find(&first.kernels, &k.symbol).is_none())
    {
        return Err(differs(
            &extra.symbol,
            "the kernel is only in this image".into(),
        ));
    }
    Ok(())
}

/// How `other`'s record differs from `first`'s, if it does.
fn difference(first: &Kernel, other: &Kernel) -> Option<String> {
    if first.hash != other.hash {
        return Some(format!(
            "its signature hash is {:016x}, not {:016x} (the parameter types differ)",
            other.hash, first.hash
        ));
    }
    if first.args.len() != other.args.len() {
        return Some(format!(
            "it has {} launch slots, not {}",
            other.args.len(),
            first.args.len()
        ));
    }
    let (slot, (a, b)) = first
        .args
        .iter()
        .zip(&other.args)
        .enumerate()
        .find(|(_, (a, b))| a != b)?;
    Some(format!(
        "launch slot {slot} is {} (map 0x{:x}, layout 0x{:x}), not {} (map 0x{:x}, layout 0x{:x})",
        describe(b.kind, b.size),
        b.map,
        b.layout,
        describe(a.kind, a.size),
        a.map,
        a.layout
    ))
}

fn describe(kind: crate::image::ArgKind, size: u64) -> String {
    format!("{kind:?} of {size} bytes").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::{Arg, ArgKind};
    use crate::targets::Target;

    fn kernel(symbol: &str, hash: u64, size: u64) -> Kernel {
        Kernel {
            symbol: symbol.into(),
            hash,
            args: vec![Arg {
                kind: ArgKind::Int,
                map: 0x320,
                size,
                len_arg: None,
                layout: size,
            }],
            features: 0,
            crate_name: "k".into(),
        }
    }

    fn image(target: &str, kernels: Vec<Kernel>) -> Image {
        Image {
            target: Target::parse(target).unwrap(),
            path: "i".into(),
            size: 0,
            digest: 0,
            kernels,
        }
    }

    #[test]
    fn agreeing_images_pass() {
        let k = || vec![kernel("a", 1, 8), kernel("b", 2, 4)];
        let images = [
            image("host", k()),
            image("amdgcn-amd-amdhsa:gfx90a", k()),
            image("nvptx64-nvidia-cuda:sm_90", k()),
        ];
        check(&images).unwrap();
    }

    #[test]
    fn a_missing_or_different_kernel_names_kernel_and_target() {
        let host = image("host", vec![kernel("a", 1, 8), kernel("b", 2, 4)]);
        let cases = [
            (
                vec![kernel("a", 1, 8)],
                "kernel `b` in the image for nvptx64-nvidia-cuda:sm_90 differs from the first image's (host): the image has no such kernel",
            ),
            (
                vec![kernel("a", 1, 8), kernel("b", 2, 4), kernel("c", 3, 4)],
                "kernel `c` in the image for nvptx64-nvidia-cuda:sm_90 differs from the first image's (host): the kernel is only in this image",
            ),
            (
                vec![kernel("a", 1, 8), kernel("b", 9, 4)],
                "kernel `b` in the image for nvptx64-nvidia-cuda:sm_90 differs from the first image's (host): its signature hash is 0000000000000009, not 0000000000000002 (the parameter types differ)",
            ),
            (
                vec![kernel("a", 1, 4), kernel("b", 2, 4)],
                "kernel `a` in the image for nvptx64-nvidia-cuda:sm_90 differs from the first image's (host): launch slot 0 is int of 4 bytes (map 0x320, layout 0x4), not int of 8 bytes (map 0x320, layout 0x8)",
            ),
        ];
        for (kernels, message) in cases {
            let images = [host.clone(), image("nvptx64-nvidia-cuda:sm_90", kernels)];
            assert_eq!(check(&images).unwrap_err().to_string(), message);
        }
    }
}
