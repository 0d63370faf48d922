//! Every image of a set must offer the same launchable kernels with the
//! same parameters: one set of launch calls, checked once, writes the
//! argument slots for all of them, and one table of offload entries names
//! their kernels.
//!
//! A kernel is launchable in an image when the image describes it: by its
//! kernel manifest, or (an AMDGPU OpenMP kernel from clang without one) by
//! its `.amdhsa.kernels` kernarg layout. Two manifests agree when they list
//! the same number of parameters, each of the same kind (integer width,
//! float kind; pointers are pointers: an address space is numbered by each
//! target for itself, and the launch passes a device pointer in the slot
//! either way), passed in the same slot, of the same size. Two kernarg
//! layouts agree when they are equal. Kernels named `foreign=` are launched
//! unchecked and not compared.

use std::collections::BTreeMap;

use super::{ImageSetError, named};
use crate::ir::naming;
use crate::kernel_manifest::{KernelManifest, Param, ParamKind, SlotKind};
use crate::offload_host::image::DeviceImage;
use crate::offload_host::image::kernel_info::AmdgpuKernel;

/// How one kernel differs between two images, `first` and `other`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// Launchable in one image only; `in_first` says which.
    Missing { in_first: bool },
    /// Different parameter counts; each side lists its parameters.
    ParamCount {
        first: Vec<String>,
        other: Vec<String>,
    },
    /// Parameter `index` differs (kind, slot or size).
    Param {
        index: usize,
        first: String,
        other: String,
    },
    /// One image describes it by a manifest, the other by `.amdhsa.kernels` only.
    Description { manifest_in_first: bool },
    /// Two `.amdhsa.kernels` kernarg layouts that differ.
    Kernargs { first: String, other: String },
}

impl Difference {
    /// The difference, naming the images by `first` and `other` (paths).
    pub fn fmt_between(
        &self,
        first: &str,
        other: &str,
        f: &mut std::fmt::Formatter<'_>,
    ) -> std::fmt::Result {
        match self {
            Difference::Missing { in_first } => {
                let (has, lacks) = if *in_first {
                    (first, other)
                } else {
                    (other, first)
                };
                write!(
                    f,
                    "'{has}' holds it (with a manifest or kernarg metadata), '{lacks}' has no such launchable kernel"
                )
            }
            Difference::ParamCount { first: a, other: b } => write!(
                f,
                "it takes {} parameters ({}) in '{first}', {} ({}) in '{other}'",
                a.len(),
                a.join(", "),
                b.len(),
                b.join(", ")
            ),
            Difference::Param {
                index,
                first: a,
                other: b,
            } => write!(f, "parameter {index} is {a} in '{first}', {b} in '{other}'"),
            Difference::Description { manifest_in_first } => {
                let (manifest, metadata) = if *manifest_in_first {
                    (first, other)
                } else {
                    (other, first)
                };
                write!(
                    f,
                    "'{manifest}' describes it by its kernel manifest, '{metadata}' only by its .amdhsa.kernels (no manifest: run offload-wrap-kernels on its device code too)"
                )
            }
            Difference::Kernargs { first: a, other: b } => write!(
                f,
                "its .amdhsa.kernels kernargs are [{a}] in '{first}', [{b}] in '{other}'"
            ),
        }
    }
}

/// What an image says a launchable kernel takes.
#[derive(Clone, Copy)]
enum Described<'a> {
    Manifest(&'a KernelManifest),
    Amdgpu(&'a AmdgpuKernel),
}

/// The kernels `image` describes, by symbol.
fn launchable(image: &DeviceImage) -> BTreeMap<&str, Described<'_>> {
    let mut out: BTreeMap<&str, Described<'_>> = image
        .manifests
        .iter()
        .map(|(k, m)| (k.as_str(), Described::Manifest(m)))
        .collect();
    if let Some(amdgpu) = &image.amdgpu {
        for (kernel, described) in &amdgpu.kernels {
            if described.openmp && image.has_kernel(kernel) {
                out.entry(kernel.as_str())
                    .or_insert(Described::Amdgpu(described));
            }
        }
    }
    out
}

/// `Ok` when `other` offers exactly `first`'s launchable kernels, described
/// alike; else the first kernel (by symbol) that differs.
pub fn check(
    first: &DeviceImage,
    other: &DeviceImage,
    foreign: &[String],
) -> Result<(), Box<ImageSetError>> {
    let (a, b) = (launchable(first), launchable(other));
    let mut kernels: Vec<&str> = a.keys().chain(b.keys()).copied().collect();
    kernels.sort_unstable();
    kernels.dedup();
    for kernel in kernels {
        if foreign.iter().any(|f| f == kernel) {
            continue;
        }
        let difference = match (a.get(kernel), b.get(kernel)) {
            (Some(x), Some(y)) => compare(*x, *y),
            (x, _) => Some(Difference::Missing {
                in_first: x.is_some(),
            }),
        };
        if let Some(difference) = difference {
            return Err(Box::new(ImageSetError::KernelDiffers {
                kernel: naming::display_symbol(kernel),
                first: named(first),
                other: named(other),
                difference,
            }));
        }
    }
    Ok(())
}

fn compare(a: Described<'_>, b: Described<'_>) -> Option<Difference> {
    match (a, b) {
        (Described::Manifest(x), Described::Manifest(y)) => compare_manifests(x, y),
        (Described::Amdgpu(x), Described::Amdgpu(y)) if x.args == y.args => None,
        (Described::Amdgpu(x), Described::Amdgpu(y)) => {
            let text = |k: &AmdgpuKernel| {
                k.args
                    .iter()
                    .map(|a| a.text())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            Some(Difference::Kernargs {
                first: text(x),
                other: text(y),
            })
        }
        (Described::Manifest(_), Described::Amdgpu(_)) => Some(Difference::Description {
            manifest_in_first: true,
        }),
        (Described::Amdgpu(_), Described::Manifest(_)) => Some(Difference::Description {
            manifest_in_first: false,
        }),
    }
}

fn compare_manifests(a: &KernelManifest, b: &KernelManifest) -> Option<Difference> {
    if a.params.len() != b.params.len() {
        let texts = |m: &KernelManifest| m.params.iter().map(Param::text).collect();
        return Some(Difference::ParamCount {
            first: texts(a),
            other: texts(b),
        });
    }
    let (index, (x, y)) = a
        .params
        .iter()
        .zip(&b.params)
        .enumerate()
        .find(|(_, (x, y))| !same_param(x, y))?;
    Some(Difference::Param {
        index,
        first: param_text(x),
        other: param_text(y),
    })
}

/// The same for a launch: kind (any pointer is a pointer), slot, size.
fn same_param(a: &Param, b: &Param) -> bool {
    let kind = |p: &Param| match p.kind {
        ParamKind::Pointer { .. } => ParamKind::Pointer { address_space: 0 },
        other => other,
    };
    kind(a) == kind(b) && a.slot == b.slot && a.size == b.size
}

/// `'i32' (8-byte slot: the value, 4 bytes)`.
fn param_text(p: &Param) -> String {
    let slot = match p.slot {
        SlotKind::Pointer => "the pointer",
        SlotKind::Value => "the value",
        SlotKind::CopyPointer => "a pointer to a copy",
    };
    format!("'{}' (slot: {slot}; {} bytes)", p.text(), p.size)
}
