//! The images one program embeds: `offload-host<image=A;image=B;...>`, one
//! per target, all registered in one `__tgt_bin_desc` so that libomptarget
//! runs the image that fits the device it finds
//! (`docs/launch-contract.md`, "Several images").
//!
//! Each image is read and validated alone ([`DeviceImage`]); then the set is
//! checked as a whole: at most one image per target (machine and
//! architecture: libomptarget registers the first image that fits a device
//! and skips the others), `arch=` against its NVIDIA images, and every image
//! holding the same launchable kernels with the same parameters
//! ([`consistency`]), because one set of launches and one table of offload
//! entries serve them all. Launches are then checked against the first
//! image's manifests, which are every image's.
//!
//! The set's digest is [`images_digest`] of the image files in parameter
//! order (for one image, its [`image_digest`](offload_contract::digest::image_digest)):
//! what a v2 descriptor carries, and the suffix of the embedded globals.

mod consistency;

use std::path::PathBuf;

use offload_contract::digest::images_digest;

use super::image::{CudaArch, DeviceImage, Machine, MissingKernel};

pub use consistency::Difference;

/// The images of one program, in registration order, validated together.
#[derive(Debug)]
pub struct ImageSet {
    images: Vec<DeviceImage>,
    /// [`images_digest`] of the image files, in order.
    pub digest: u64,
    /// The kernels every image holds, sorted: the offload entries.
    kernels: Vec<String>,
}

/// Why the images cannot be used together. `Display` names the images by
/// path and target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageSetError {
    /// Two images for one target: libomptarget would never run the second.
    SameTarget { first: Named, second: Named },
    /// A launchable kernel that is missing or different in one image.
    KernelDiffers {
        kernel: String,
        first: Named,
        other: Named,
        difference: Difference,
    },
}

/// An image as messages name it: its path and its target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub path: String,
    pub target: String,
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' ({})", self.path, self.target)
    }
}

impl std::fmt::Display for ImageSetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImageSetError::SameTarget { first, second } => write!(
                f,
                "images '{}' and '{}' are both for {}: libomptarget registers the first image that fits a device and never runs the other; give one image per target",
                first.path, second.path, first.target
            ),
            ImageSetError::KernelDiffers {
                kernel,
                first,
                other,
                difference,
            } => {
                write!(
                    f,
                    "kernel '{kernel}' differs between image {first} and image {other}: "
                )?;
                difference.fmt_between(&first.path, &other.path, f)?;
                write!(
                    f,
                    "; one set of launches serves every image, so all must hold the same kernels with the same parameters (build them from one source)"
                )
            }
        }
    }
}

impl std::error::Error for ImageSetError {}

/// What goes wrong loading a set: one image, or the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    Image(super::image::ImageError),
    Set(Box<ImageSetError>),
}

impl ImageSet {
    /// Reads every image (in order), then checks the set: one image per
    /// target, `arch` against the NVIDIA images (with none, against the
    /// first image, which it then does not fit), the same launchable kernels
    /// everywhere (kernels named in `foreign` excepted: they are launched
    /// unchecked, and need only be in every image).
    pub fn load(
        paths: &[PathBuf],
        arch: Option<CudaArch>,
        foreign: &[String],
    ) -> Result<ImageSet, LoadError> {
        let images = paths
            .iter()
            .map(|path| DeviceImage::load(path))
            .collect::<Result<Vec<_>, _>>()
            .map_err(LoadError::Image)?;
        ImageSet::new(images, arch, foreign)
    }

    /// As [`ImageSet::load`], for images already read.
    pub fn new(
        images: Vec<DeviceImage>,
        arch: Option<CudaArch>,
        foreign: &[String],
    ) -> Result<ImageSet, LoadError> {
        assert!(!images.is_empty(), "an image set holds at least one image");
        for (at, image) in images.iter().enumerate() {
            if let Some(earlier) = images[..at].iter().find(|e| same_target(e, image)) {
                return Err(LoadError::Set(Box::new(ImageSetError::SameTarget {
                    first: named(earlier),
                    second: named(image),
                })));
            }
        }
        if let Some(arch) = arch {
            check_arch(&images, arch).map_err(LoadError::Image)?;
        }
        for other in &images[1..] {
            consistency::check(&images[0], other, foreign).map_err(LoadError::Set)?;
        }
        let kernels = images[0]
            .kernels()
            .iter()
            .filter(|k| images[1..].iter().all(|image| image.has_kernel(k)))
            .cloned()
            .collect();
        let digest = images_digest(&images.iter().map(|i| i.file()).collect::<Vec<_>>());
        Ok(ImageSet {
            images,
            digest,
            kernels,
        })
    }

    /// The images in registration order.
    pub fn images(&self) -> &[DeviceImage] {
        &self.images
    }

    /// The first image: what launches are checked against (its manifests
    /// are every image's, [`consistency`]).
    pub fn first(&self) -> &DeviceImage {
        &self.images[0]
    }

    /// The digest as the 16 hex digits that suffix the embedded globals.
    pub fn digest_suffix(&self) -> String {
        format!("{:016x}", self.digest)
    }

    /// The kernels every image holds, sorted: one offload entry each.
    pub fn kernels(&self) -> &[String] {
        &self.kernels
    }

    /// `Ok` when every image holds kernel `name`; else the first image
    /// without it.
    pub fn check_kernel(&self, name: &str) -> Result<(), MissingKernel> {
        self.images.iter().try_for_each(|i| i.check_kernel(name))
    }

    /// The images for messages: `image 'P'`, or `images 'A', 'B'`.
    pub fn label(&self) -> String {
        let paths: Vec<String> = self
            .images
            .iter()
            .map(|i| format!("'{}'", i.path))
            .collect();
        match paths.as_slice() {
            [one] => format!("image {one}"),
            _ => format!("images {}", paths.join(", ")),
        }
    }
}

/// An image's target for messages: its triple, and its architecture where
/// it has one (`amdgcn-amd-amdhsa gfx90a`, `nvptx64-nvidia-cuda sm_90`).
pub fn target(image: &DeviceImage) -> String {
    match image.arch.as_str() {
        "" | "generic" => image.triple.clone(),
        arch => format!("{} {arch}", image.triple),
    }
}

fn named(image: &DeviceImage) -> Named {
    Named {
        path: image.path.clone(),
        target: target(image),
    }
}

/// One target: the same machine (a cubin and nvptx64 bitcode both feed the
/// CUDA plugin) and architecture.
fn same_target(a: &DeviceImage, b: &DeviceImage) -> bool {
    let kind = |m: Machine| match m {
        Machine::Cuda | Machine::NvptxBitcode => Machine::Cuda,
        other => other,
    };
    kind(a.machine) == kind(b.machine) && a.arch == b.arch
}

/// `arch=` is for the NVIDIA images: each must run on it; a set without
/// one is refused as a single non-NVIDIA image is (naming the first).
fn check_arch(images: &[DeviceImage], arch: CudaArch) -> Result<(), super::image::ImageError> {
    let nvidia = |i: &&DeviceImage| matches!(i.machine, Machine::Cuda | Machine::NvptxBitcode);
    if !images.iter().any(|i| nvidia(&i)) {
        return images[0].check_arch(arch);
    }
    images
        .iter()
        .filter(nvidia)
        .try_for_each(|i| i.check_arch(arch))
}

#[cfg(test)]
mod tests;
