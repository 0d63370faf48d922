//! Checking a launch against what the image says its kernel takes: the
//! kernel manifest (kernels `offload-wrap-kernels` wrapped), or an AMDGPU
//! kernel's `.amdhsa.kernels` kernarg layout (OpenMP kernels from clang,
//! told apart from HIP kernels by their `<K>_kernel_environment`). Kernels
//! named `foreign=` are not checked. Every mismatch is found before the
//! module changes.

use super::image::kernel_info::{AmdgpuKernel, Kernarg};
use super::launch_plan::{ArgPlan, Size};
use crate::kernel_manifest::{FloatKind, KernelManifest, Param, ParamKind};

/// What the image says about a launched kernel.
#[derive(Debug, Clone, Copy)]
pub enum Signature<'a> {
    Manifest(&'a KernelManifest),
    /// The `.amdhsa.kernels` entry of an AMDGPU kernel without a manifest.
    Amdgpu(&'a AmdgpuKernel),
    /// Named by `foreign=`: launched unchecked.
    Foreign,
}

/// What the host passes for one argument, from the call's IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostArg {
    pub kind: HostKind,
    /// The IR type (`ptr byval(%S)` for a byval pointer).
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    Pointer,
    Integer {
        bits: u32,
    },
    /// `None`: a float no slot carries (`x86_fp80`, `fp128`, ...).
    Float(Option<FloatKind>),
    /// A first-class aggregate or vector, with its allocation size.
    Aggregate {
        size: u64,
    },
    /// A pointer with `byval(T)`, with `T`'s allocation size.
    Byval {
        size: u64,
    },
}

/// Why a launch does not fit its kernel. `source` says where the kernel's
/// side comes from (`its manifest in image 'P'`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    Count {
        passed: usize,
        takes: Vec<String>,
    },
    Kind {
        index: u32,
        passed: String,
        takes: String,
    },
    ByValueSize {
        index: u32,
        passed: String,
        size: u64,
        takes: String,
    },
    MappedTooSmall {
        index: u32,
        size: u64,
        takes: String,
        needed: u64,
    },
    LiteralToByValue {
        index: u32,
        takes: String,
    },
    /// An AMDGPU kernel whose first kernarg is not the 8-byte dyn pointer.
    NotOpenMp {
        first: Option<String>,
    },
    /// An AMDGPU kernel with neither a manifest nor clang's OpenMP kernel
    /// environment: a HIP kernel, whose first argument a launch would fill
    /// with the dyn pointer.
    NoKernelEnvironment,
    /// An AMDGPU kernarg that is not the 8-byte slot a launch writes.
    SlotLayout {
        index: u32,
        takes: String,
        offset: u64,
    },
}

impl Mismatch {
    pub fn fmt_for(
        &self,
        kernel: &str,
        source: &str,
        f: &mut std::fmt::Formatter<'_>,
    ) -> std::fmt::Result {
        match self {
            Mismatch::Count { passed, takes } => write!(
                f,
                "the call passes {passed} argument{}, but kernel '{kernel}' takes {} ({}) ({source})",
                if *passed == 1 { "" } else { "s" },
                takes.len(),
                takes.join(", ")
            ),
            Mismatch::Kind {
                index,
                passed,
                takes,
            } => write!(
                f,
                "argument {index} is '{passed}', but kernel '{kernel}' takes '{takes}' ({source})"
            ),
            Mismatch::ByValueSize {
                index,
                passed,
                size,
                takes,
            } => write!(
                f,
                "argument {index} is '{passed}' by value ({size} bytes), but kernel '{kernel}' takes '{takes}' ({source})"
            ),
            Mismatch::MappedTooSmall {
                index,
                size,
                takes,
                needed,
            } => write!(
                f,
                "argument {index} maps {size} bytes, fewer than the {needed}-byte struct kernel '{kernel}' takes by value ('{takes}') ({source})"
            ),
            Mismatch::LiteralToByValue { index, takes } => write!(
                f,
                "argument {index} is passed LITERAL, but kernel '{kernel}' takes '{takes}', which needs a TO-mapped copy ({source})"
            ),
            Mismatch::NotOpenMp { first } => write!(
                f,
                "kernel '{kernel}' does not take libomptarget's leading 8-byte dyn pointer (its first kernarg is {}) ({source}); it cannot be launched through libomptarget",
                first.as_deref().unwrap_or("missing")
            ),
            Mismatch::NoKernelEnvironment => write!(
                f,
                "kernel '{kernel}' has neither a kernel manifest nor the '{kernel}{}' clang gives an OpenMP kernel ({source}), so it is no libomptarget kernel: a HIP kernel takes its arguments without libomptarget's leading dyn pointer, and a launch would pass the dyn pointer as its first argument; run offload-wrap-kernels on its device code",
                super::image::kernel_info::KERNEL_ENVIRONMENT_SUFFIX
            ),
            Mismatch::SlotLayout {
                index,
                takes,
                offset,
            } => write!(
                f,
                "argument {index} goes in an 8-byte slot at offset {offset}, but kernel '{kernel}' takes a {takes} ({source})"
            ),
        }
    }
}

/// The argument count and kinds, before any argument is planned.
pub fn kinds(signature: Signature<'_>, host: &[HostArg]) -> Result<(), Mismatch> {
    match signature {
        Signature::Foreign => Ok(()),
        Signature::Manifest(manifest) => {
            if manifest.params.len() != host.len() {
                return Err(Mismatch::Count {
                    passed: host.len(),
                    takes: manifest.params.iter().map(Param::text).collect(),
                });
            }
            manifest
                .params
                .iter()
                .zip(host)
                .enumerate()
                .try_for_each(|(i, (param, arg))| manifest_kind(i as u32, param, arg))
        }
        Signature::Amdgpu(kernel) if !kernel.openmp => Err(Mismatch::NoKernelEnvironment),
        Signature::Amdgpu(kernel) => amdgpu_kinds(&kernel.args, host),
    }
}

fn manifest_kind(index: u32, param: &Param, arg: &HostArg) -> Result<(), Mismatch> {
    let kind = || Mismatch::Kind {
        index,
        passed: arg.text.clone(),
        takes: param.text(),
    };
    let fits = match (arg.kind, param.kind) {
        (HostKind::Pointer, ParamKind::Pointer { .. }) => true,
        (HostKind::Pointer, ParamKind::Aggregate | ParamKind::Byval) => true, // a pointer to a TO copy
        (HostKind::Integer { bits }, ParamKind::Integer { bits: takes }) => {
            bits == u32::from(takes)
        }
        (HostKind::Float(Some(a)), ParamKind::Float(b)) => a == b,
        (
            HostKind::Aggregate { size } | HostKind::Byval { size },
            ParamKind::Aggregate | ParamKind::Byval,
        ) => {
            if size != param.size {
                return Err(Mismatch::ByValueSize {
                    index,
                    passed: arg.text.clone(),
                    size,
                    takes: param.text(),
                });
            }
            true
        }
        _ => false,
    };
    if fits { Ok(()) } else { Err(kind()) }
}

fn amdgpu_kinds(kernargs: &[Kernarg], host: &[HostArg]) -> Result<(), Mismatch> {
    let dyn_ptr = kernargs.first();
    if !dyn_ptr.is_some_and(|k| k.value_kind == "global_buffer" && k.size == 8 && k.offset == 0) {
        return Err(Mismatch::NotOpenMp {
            first: dyn_ptr.map(Kernarg::text),
        });
    }
    let params = &kernargs[1..];
    if params.len() != host.len() {
        return Err(Mismatch::Count {
            passed: host.len(),
            takes: params.iter().map(Kernarg::text).collect(),
        });
    }
    for (i, (kernarg, arg)) in params.iter().zip(host).enumerate() {
        let (index, offset) = (i as u32, 8 * (i as u64 + 1));
        if kernarg.size != 8 || kernarg.offset != offset {
            return Err(Mismatch::SlotLayout {
                index,
                takes: kernarg.text(),
                offset,
            });
        }
        let wanted = match arg.kind {
            HostKind::Pointer | HostKind::Aggregate { .. } | HostKind::Byval { .. } => {
                "global_buffer"
            }
            HostKind::Integer { .. } | HostKind::Float(_) => "by_value",
        };
        if kernarg.value_kind != wanted {
            return Err(Mismatch::Kind {
                index,
                passed: arg.text.clone(),
                takes: kernarg.text(),
            });
        }
    }
    Ok(())
}

/// After planning: a pointer the host maps for a struct the kernel takes by
/// value must cover the struct, and must be mapped.
pub fn sizes(signature: Signature<'_>, plans: &[ArgPlan]) -> Result<(), Mismatch> {
    let Signature::Manifest(manifest) = signature else {
        return Ok(());
    };
    for (i, (param, plan)) in manifest.params.iter().zip(plans).enumerate() {
        if !param.is_by_value() {
            continue;
        }
        let index = i as u32;
        match *plan {
            ArgPlan::Literal { .. } => {
                return Err(Mismatch::LiteralToByValue {
                    index,
                    takes: param.text(),
                });
            }
            ArgPlan::Mapped {
                size: Size::Bytes(size),
                ..
            } if size < param.size => {
                return Err(Mismatch::MappedTooSmall {
                    index,
                    size,
                    takes: param.text(),
                    needed: param.size,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel_manifest::SlotKind;

    fn param(kind: ParamKind, size: u64) -> Param {
        Param {
            kind,
            slot: SlotKind::Value,
            size,
            align: 8,
        }
    }

    fn arg(kind: HostKind, text: &str) -> HostArg {
        HostArg {
            kind,
            text: text.into(),
        }
    }

    #[test]
    fn manifest_kinds_widths_and_by_value_sizes() {
        let manifest = KernelManifest {
            name: "k".into(),
            params: vec![
                param(ParamKind::Pointer { address_space: 1 }, 8),
                param(ParamKind::Integer { bits: 32 }, 4),
                param(ParamKind::Byval, 24),
            ],
        };
        let signature = Signature::Manifest(&manifest);
        let good = [
            arg(HostKind::Pointer, "ptr"),
            arg(HostKind::Integer { bits: 32 }, "i32"),
            arg(HostKind::Byval { size: 24 }, "ptr byval(%S)"),
        ];
        kinds(signature, &good).unwrap();
        assert!(matches!(
            kinds(signature, &good[..2]),
            Err(Mismatch::Count { passed: 2, .. })
        ));
        let mut wide = good.clone();
        wide[1] = arg(HostKind::Integer { bits: 64 }, "i64");
        assert_eq!(
            kinds(signature, &wide),
            Err(Mismatch::Kind {
                index: 1,
                passed: "i64".into(),
                takes: "i32".into()
            })
        );
        let mut small = good.clone();
        small[2] = arg(HostKind::Aggregate { size: 16 }, "%T");
        assert!(matches!(
            kinds(signature, &small),
            Err(Mismatch::ByValueSize {
                index: 2,
                size: 16,
                ..
            })
        ));
        // A pointer for the struct: it must map the whole struct.
        let mut by_pointer = good.clone();
        by_pointer[2] = arg(HostKind::Pointer, "ptr");
        kinds(signature, &by_pointer).unwrap();
        let mapped = |n| ArgPlan::Mapped {
            map: 1,
            size: Size::Bytes(n),
        };
        let plans = [
            mapped(8),
            ArgPlan::Literal {
                map: 0x300,
                size: 4,
            },
            mapped(16),
        ];
        assert!(matches!(
            sizes(signature, &plans),
            Err(Mismatch::MappedTooSmall { needed: 24, .. })
        ));
    }

    #[test]
    fn amdgpu_kernargs_need_the_dyn_pointer_and_8_byte_slots() {
        let k = |offset, size, kind: &str| Kernarg {
            offset,
            size,
            value_kind: kind.into(),
        };
        let kernel = |args: &[Kernarg]| AmdgpuKernel {
            args: args.to_vec(),
            openmp: true,
        };
        let openmp = kernel(&[
            k(0, 8, "global_buffer"),
            k(8, 8, "global_buffer"),
            k(16, 8, "by_value"),
        ]);
        let host = [
            arg(HostKind::Pointer, "ptr"),
            arg(HostKind::Integer { bits: 32 }, "i32"),
        ];
        kinds(Signature::Amdgpu(&openmp), &host).unwrap();
        let swapped = [host[1].clone(), host[0].clone()];
        assert!(matches!(
            kinds(Signature::Amdgpu(&openmp), &swapped),
            Err(Mismatch::Kind { index: 0, .. })
        ));
        let hip = kernel(&[k(0, 8, "global_buffer"), k(8, 4, "by_value")]);
        assert!(matches!(
            kinds(Signature::Amdgpu(&hip), &host[..1]),
            Err(Mismatch::SlotLayout { .. })
        ));
        let no_dyn = kernel(&[k(0, 4, "by_value")]);
        assert!(matches!(
            kinds(Signature::Amdgpu(&no_dyn), &[]),
            Err(Mismatch::NotOpenMp { .. })
        ));
        // HIP's axpy(x, y): the same kernargs as an OpenMP kernel of one
        // pointer, but no kernel environment.
        let axpy = AmdgpuKernel {
            args: vec![k(0, 8, "global_buffer"), k(8, 8, "global_buffer")],
            openmp: false,
        };
        assert_eq!(
            kinds(Signature::Amdgpu(&axpy), &host[..1]),
            Err(Mismatch::NoKernelEnvironment)
        );
    }
}
