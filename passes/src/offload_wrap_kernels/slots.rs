//! Planning: how each parameter travels in its 8-byte launch slot.

use inkwell::targets::TargetData;
use inkwell::types::{BasicTypeEnum, FloatType, PointerType};
use inkwell::values::FunctionValue;

use super::error::{Error, ParamProblem};
use crate::ir::naming::{self, ParamRef};
use crate::ir::{Type, attributes, kernels, signature, types};
use crate::kernel_manifest::{FloatKind, KernelManifest, Param, ParamKind, SlotKind};

/// The size of one launch argument slot, in bits.
pub const SLOT_BITS: u32 = 64;

/// Parameter attributes whose ABI meaning no libomptarget launch can honour.
const UNSUPPORTED_PTR_ATTRS: &[&str] = &[
    "inalloca",
    "preallocated",
    "sret",
    "nest",
    "swiftself",
    "swifterror",
    "swiftasync",
];

/// How one old parameter travels in its launch slot.
#[derive(Debug, Clone, Copy)]
pub enum Slot<'ctx> {
    /// Unchanged: a pointer or an `i64`; keeps its attributes.
    Same,
    /// An `i64` slot: `trunc` to `int_bits` when narrower, then `bitcast`
    /// to `float`.
    Narrow {
        int_bits: u32,
        float: Option<FloatType<'ctx>>,
    },
    /// A pointer to the host's mapped copy of a `byval` struct; the body
    /// gets a private copy (byval lets the callee write to its argument).
    ByvalCopy {
        pointee: BasicTypeEnum<'ctx>,
        size: u64,
        align: u32,
    },
    /// A pointer (address space 0) to the host's mapped copy of a
    /// first-class aggregate or vector passed by value; the body loads it.
    Load { value: BasicTypeEnum<'ctx> },
}

/// Everything needed to rewrite one kernel, checked before any change.
pub struct KernelPlan<'ctx> {
    pub kernel: signature::Rewritable<'ctx>,
    pub slots: Vec<Slot<'ctx>>,
    /// The kernel's manifest: its parameters as the host passes them.
    pub manifest: KernelManifest,
}

pub fn plan_kernel<'ctx>(
    kernel: FunctionValue<'ctx>,
    layout: &TargetData,
) -> Result<KernelPlan<'ctx>, Error> {
    let rewritable = signature::check_rewritable(kernel).map_err(|why| Error::Unrewritable {
        kernel: naming::name_of(kernel),
        why,
    })?;
    let param_types = types::param_types(kernel);
    let mut slots = Vec::new();
    let mut params = Vec::new();
    for (index, ty) in param_types.into_iter().enumerate() {
        let index = index as u32;
        let error = |problem| Error::Param {
            param: ParamRef::of(kernel, index),
            ty: ty.text(),
            problem,
        };
        let Some(basic) = ty.as_basic() else {
            return Err(error(ParamProblem::Opaque));
        };
        let slot = plan_param(kernel, index, basic, layout).map_err(error)?;
        params.push(manifest_param(basic, slot, layout));
        slots.push(slot);
    }
    let manifest = KernelManifest {
        name: naming::symbol(kernel),
        params,
    };
    Ok(KernelPlan {
        kernel: rewritable,
        slots,
        manifest,
    })
}

/// A parameter's manifest record: what it was and how its slot carries it.
fn manifest_param(ty: BasicTypeEnum<'_>, slot: Slot<'_>, layout: &TargetData) -> Param {
    let (size, align) = (layout.get_store_size(&ty), layout.get_abi_alignment(&ty));
    match (slot, ty) {
        (Slot::ByvalCopy { size, align, .. }, _) => Param {
            kind: ParamKind::Byval,
            slot: SlotKind::CopyPointer,
            size,
            align,
        },
        (Slot::Load { value }, _) => Param {
            kind: ParamKind::Aggregate,
            slot: SlotKind::CopyPointer,
            size: layout.get_abi_size(&value),
            align: layout.get_abi_alignment(&value),
        },
        (_, BasicTypeEnum::PointerType(pointer)) => Param {
            kind: ParamKind::Pointer {
                address_space: Type::from(BasicTypeEnum::from(pointer))
                    .pointer_address_space()
                    .unwrap_or(0) as u16,
            },
            slot: SlotKind::Pointer,
            size,
            align,
        },
        (_, BasicTypeEnum::FloatType(float)) => Param {
            kind: ParamKind::Float(float_kind(float)),
            slot: SlotKind::Value,
            size,
            align,
        },
        (_, other) => Param {
            kind: ParamKind::Integer {
                bits: other.into_int_type().get_bit_width() as u16,
            },
            slot: SlotKind::Value,
            size,
            align,
        },
    }
}

/// The manifest's float kind of a type that fits a slot (checked when
/// planning: only half, bfloat, float and double do).
fn float_kind(ty: FloatType<'_>) -> FloatKind {
    FloatKind::of(Type::from(BasicTypeEnum::from(ty))).unwrap_or(FloatKind::Double)
}

fn plan_param<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    ty: BasicTypeEnum<'ctx>,
    layout: &TargetData,
) -> Result<Slot<'ctx>, ParamProblem> {
    match ty {
        BasicTypeEnum::PointerType(pointer) => plan_pointer(kernel, index, pointer, layout),
        BasicTypeEnum::IntType(int) => match int.get_bit_width() {
            SLOT_BITS => Ok(Slot::Same),
            bits if bits < SLOT_BITS => Ok(Slot::Narrow {
                int_bits: bits,
                float: None,
            }),
            _ => Err(ParamProblem::TooWide),
        },
        BasicTypeEnum::FloatType(float) => match float_bit_width(float) {
            bits if bits <= SLOT_BITS => Ok(Slot::Narrow {
                int_bits: bits,
                float: Some(float),
            }),
            _ => Err(ParamProblem::TooWide),
        },
        BasicTypeEnum::ScalableVectorType(_) => Err(ParamProblem::ScalableVector),
        BasicTypeEnum::VectorType(_)
        | BasicTypeEnum::StructType(_)
        | BasicTypeEnum::ArrayType(_) => {
            if !Type::from(ty).has_fixed_size() {
                return Err(ParamProblem::ScalableVector);
            }
            // offload-host maps a by-value aggregate or vector TO and passes
            // the device address of the copy: a generic pointer.
            let bytes = layout.get_pointer_byte_size(None);
            if bytes * 8 != SLOT_BITS {
                return Err(ParamProblem::NarrowAggregatePointer { bytes });
            }
            Ok(Slot::Load { value: ty })
        }
    }
}

/// A pointer stays a pointer (in its address space) unless it does not fill
/// the slot or an ABI attribute says its bytes are not where a slot puts them.
fn plan_pointer<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    pointer: PointerType<'ctx>,
    layout: &TargetData,
) -> Result<Slot<'ctx>, ParamProblem> {
    let bytes = layout.get_pointer_byte_size(Some(pointer.get_address_space()));
    if bytes * 8 != SLOT_BITS {
        // A 4-byte pointer (AMDGPU LDS or private) would pack two arguments
        // into one 8-byte slot, and the host has no such address to pass.
        return Err(ParamProblem::NarrowPointer { bytes });
    }
    if let Some(name) = UNSUPPORTED_PTR_ATTRS
        .iter()
        .find(|attr| attributes::has_param(kernel, index, attr))
    {
        return Err(ParamProblem::Attribute { name });
    }
    if kernels::is_gpu_kernel(kernel) && attributes::param_type(kernel, index, "byref").is_some() {
        return Err(ParamProblem::GpuByref);
    }
    match attributes::param_type(kernel, index, "byval") {
        Some(pointee) => {
            let fixed = pointee
                .fixed_size()
                .ok_or_else(|| ParamProblem::ByvalWithoutFixedSize { ty: pointee.text() })?;
            let align = attributes::param_align(kernel, index)
                .map(types::align_u32)
                .unwrap_or_else(|| layout.get_abi_alignment(&fixed));
            Ok(Slot::ByvalCopy {
                pointee: fixed,
                size: layout.get_abi_size(&fixed),
                align,
            })
        }
        None => Ok(Slot::Same),
    }
}

/// The bit width of a floating-point type (16 for `half` and `bfloat`, 80
/// for `x86_fp80`, 128 for `fp128` and `ppc_fp128`).
fn float_bit_width(ty: FloatType<'_>) -> u32 {
    use crate::ir::TypeKind::*;
    match Type::from(inkwell::types::BasicTypeEnum::from(ty)).kind() {
        LLVMHalfTypeKind | LLVMBFloatTypeKind => 16,
        LLVMFloatTypeKind => 32,
        LLVMDoubleTypeKind => 64,
        LLVMX86_FP80TypeKind => 80,
        _ => 128,
    }
}
