//! `offload-wrap-kernels` (device module): gives every kernel the signature
//! libomptarget's launch calls it with (kernel-arguments version 3).
//!
//! A libomptarget launch passes a leading dyn pointer (not counted in
//! `NumArgs`) and then one 8-byte slot per argument: a translated device
//! pointer or a literal scalar zero-extended to 64 bits. The host (CPU)
//! plugin makes that call through libffi with every argument typed as a
//! pointer, so a `double` parameter would read a general register instead of
//! an SSE one. This pass rewrites each kernel to
//! `K(ptr %dyn_ptr, <one slot per old parameter>)`:
//! - pointers stay pointers (any address space, 8 bytes wide), with their
//!   attributes;
//! - `iN` (N < 64) arrives as `i64` and is `trunc`ated back; `i64` stays;
//! - `half`/`bfloat`/`float` arrive as `i64`, `trunc` to `i16`/`i32`, `bitcast`;
//!   `double` arrives as `i64` and is `bitcast`;
//! - a `byval(T)` pointer (a struct the caller copies) becomes a plain pointer
//!   to the struct the host maps TO; the body gets its own private copy;
//! - a first-class aggregate or fixed vector by value (`%S %s`, `[4 x i32]`,
//!   `<2 x double>`) becomes a plain pointer to the copy the host maps TO
//!   (`offload-host` passes a by-value aggregate or vector that way); the body
//!   `load`s the value from it;
//! - a `byref(T)` pointer stays a pointer on the CPU; on a GPU kernel `byref`
//!   means "inline in the kernarg segment", which no launch slot provides: error.
//!
//! Other parameters (scalars wider than 8 bytes, scalable vectors, ABI
//! attributes like `sret`/`inalloca`) are an error naming the kernel, the
//! parameter and its type. The symbol name, calling convention, linkage,
//! visibility, attributes, metadata (`!dbg` too) and body survive; not kept
//! are `dso_local` (the C API cannot set it; dropping it is conservative) and
//! the kernel's place in the module (the rewritten kernel comes last).
//!
//! Input (the marker contract): kernels are the defined functions that are
//! - `amdgpu_kernel` or `ptx_kernel`, or
//! - marked with function metadata `!offload.kernel !{}` (a CPU image for the
//!   host plugin), or
//! - named by the pass parameter `kernels=a:b` (for front ends that cannot
//!   attach metadata, like rustc). Names are separated by `:` because LLVM's
//!   pipeline parser splits the pipeline text at every `,`, also inside `<>`.
//!   An unknown name is an error.
//!
//! Guarantees: each kernel is wrapped exactly once. The "already wrapped"
//! marker is function metadata `!offload.wrapped !{}` (never a value name,
//! which `-discard-value-names` and rustc release builds drop), so running the
//! pass again, or on its own output, changes nothing. Every error is reported
//! before the module is changed.
//!
//! Run:
//!   opt-22 -load-pass-plugin=liboffload_passes.so -passes=offload-wrap-kernels k.ll
//!   RUSTC_BOOTSTRAP=1 rustc -Zllvm-plugins=/abs/liboffload_passes.so \
//!     -Cpasses='offload-wrap-kernels<kernels=kernel_a:kernel_b>' ...

use inkwell::AddressSpace;
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum, FloatType, FunctionType, PointerType};
use inkwell::values::{BasicValue, BasicValueEnum, FunctionValue};

use crate::ir::{self, SignatureRewrite};
use crate::params;

pub const PASS_NAME: &str = "offload-wrap-kernels";
/// Function metadata that marks a CPU-image kernel: `!offload.kernel !{}`.
pub const KERNEL_MD: &str = "offload.kernel";
/// Function metadata this pass adds to every kernel it wrapped.
pub const WRAPPED_MD: &str = "offload.wrapped";
/// The name of the leading parameter (as clang and rustc call it).
const DYN_PTR_NAME: &str = "dyn_ptr";
/// The size of one launch argument slot, in bits.
const SLOT_BITS: u32 = 64;
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

/// `kernels=a:b` (may repeat): the functions to wrap besides the marked ones.
#[derive(Debug, Default, PartialEq, Eq)]
struct Params {
    kernels: Vec<String>,
}

fn parse_params(text: &str) -> Result<Params, String> {
    let mut out = Params::default();
    for param in params::parse(text, &["kernels"])? {
        for name in params::value(&param)?.split(':') {
            if name.is_empty() {
                return Err(format!(
                    "parameter 'kernels': empty kernel name in '{text}'"
                ));
            }
            if name.contains(',') {
                // Unreachable from a pipeline string (LLVM splits there first),
                // but say why if the text comes from elsewhere.
                return Err(format!(
                    "parameter 'kernels': separate kernel names with ':', not ',' (got '{name}')"
                ));
            }
            out.kernels.push(name.to_owned());
        }
    }
    Ok(out)
}

pub fn check_params(params: &str) -> Result<(), String> {
    parse_params(params).map(drop)
}

pub fn run(module: &Module<'_>, params: &str) -> Result<bool, String> {
    let params = parse_params(params)?;
    let kernels = find_kernels(module, &params.kernels)?;
    // Plan every kernel first, so an error leaves the module untouched.
    // One TargetData for the run: parsing the data layout per pointer
    // parameter cost more than the rest of the planning.
    let layout = ir::target_data(module);
    let plans = kernels
        .into_iter()
        .filter(|&kernel| !already_wrapped(module, kernel))
        .map(|kernel| plan_kernel(module, kernel, &layout))
        .collect::<Result<Vec<_>, String>>()?;
    let changed = !plans.is_empty();
    for plan in plans {
        wrap_kernel(module, plan)?;
    }
    Ok(changed)
}

/// The kernels of `module` in module order: GPU kernel calling conventions,
/// `!offload.kernel` functions, and the functions `named` (which must exist).
fn find_kernels<'ctx>(
    module: &Module<'ctx>,
    named: &[String],
) -> Result<Vec<FunctionValue<'ctx>>, String> {
    let unknown: Vec<&str> = named
        .iter()
        .filter(|name| module.get_function(name).is_none())
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "kernels=: no function named '{}' in the module",
            unknown.join("', '")
        ));
    }
    let is_named = |f: FunctionValue<'_>| named.iter().any(|n| *n == ir::name_of(f));
    let mut kernels = Vec::new();
    for function in module.get_functions() {
        if is_named(function) {
            // Named explicitly: a declaration is the caller's mistake, say so.
            if function.count_basic_blocks() == 0 {
                return Err(format!(
                    "kernels=: '{}' is a declaration; only a defined function can be a kernel",
                    ir::name_of(function)
                ));
            }
            kernels.push(function);
        } else if function.count_basic_blocks() > 0
            && (ir::is_gpu_kernel(function) || ir::has_function_md(module, function, KERNEL_MD))
        {
            kernels.push(function);
        }
    }
    Ok(kernels)
}

fn already_wrapped(module: &Module<'_>, kernel: FunctionValue<'_>) -> bool {
    let wrapped = ir::has_function_md(module, kernel, WRAPPED_MD);
    if wrapped {
        log::debug!(
            "{PASS_NAME}: skipping kernel '{}': already wrapped (!{WRAPPED_MD})",
            ir::name_of(kernel)
        );
    }
    wrapped
}

/// How one old parameter travels in its launch slot.
#[derive(Debug, Clone, Copy)]
enum Slot<'ctx> {
    /// Unchanged: a pointer or an `i64`; keeps its attributes.
    Same,
    /// An `i64` slot: `trunc` to `int` when narrower, then `bitcast` to `float`.
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
    /// A pointer (address space 0) to the host's mapped copy of a first-class
    /// aggregate or vector passed by value; the body loads the value.
    Load { value: BasicTypeEnum<'ctx> },
}

/// Everything needed to rewrite one kernel, checked before any change.
struct KernelPlan<'ctx> {
    kernel: FunctionValue<'ctx>,
    slots: Vec<Slot<'ctx>>,
    new_type: FunctionType<'ctx>,
}

fn plan_kernel<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    layout: &TargetData,
) -> Result<KernelPlan<'ctx>, String> {
    let name = ir::name_of(kernel);
    let old_type = kernel.get_type();
    if old_type.is_var_arg() {
        return Err(format!(
            "kernel '{name}' is variadic; a launch passes a fixed argument list"
        ));
    }
    if ir::has_call_uses(kernel) {
        return Err(ir::called_kernel_error(kernel));
    }
    if let Some((index, ty)) = ir::first_opaque_param_type(kernel) {
        return Err(ir::param_error(
            kernel,
            index,
            &ty,
            "this type cannot be a launch argument",
        ));
    }
    let context = module.get_context();
    let i64_type = context.i64_type();
    let ptr_type = context.ptr_type(AddressSpace::default());
    let mut new_params: Vec<BasicMetadataTypeEnum<'ctx>> = vec![ptr_type.into()];
    let mut slots = Vec::new();
    for (index, ty) in old_type.get_param_types().into_iter().enumerate() {
        let slot = plan_param(kernel, index as u32, ty, layout)?;
        new_params.push(match slot {
            Slot::Same | Slot::ByvalCopy { .. } => ty,
            Slot::Narrow { .. } => i64_type.into(),
            Slot::Load { .. } => ptr_type.into(),
        });
        slots.push(slot);
    }
    let new_type = ir::with_params(kernel, &new_params);
    Ok(KernelPlan {
        kernel,
        slots,
        new_type,
    })
}

const PASS_BY_POINTER: &str = "a launch passes one 8-byte slot per argument (a pointer or a scalar); pass it through a pointer the host maps TO";

fn plan_param<'ctx>(
    kernel: FunctionValue<'ctx>,
    index: u32,
    ty: BasicMetadataTypeEnum<'ctx>,
    layout: &TargetData,
) -> Result<Slot<'ctx>, String> {
    let error = |why: &str| ir::param_error(kernel, index, &ir::type_text(ty), why);
    match ty {
        BasicMetadataTypeEnum::PointerType(pointer) => {
            plan_pointer(kernel, index, pointer, layout).map_err(|why| error(&why))
        }
        BasicMetadataTypeEnum::IntType(int) => match int.get_bit_width() {
            SLOT_BITS => Ok(Slot::Same),
            bits if bits < SLOT_BITS => Ok(Slot::Narrow {
                int_bits: bits,
                float: None,
            }),
            _ => Err(error(&format!("wider than 8 bytes; {PASS_BY_POINTER}"))),
        },
        BasicMetadataTypeEnum::FloatType(float) => match ir::float_bit_width(float) {
            bits if bits <= SLOT_BITS => Ok(Slot::Narrow {
                int_bits: bits,
                float: Some(float),
            }),
            _ => Err(error(&format!("wider than 8 bytes; {PASS_BY_POINTER}"))),
        },
        BasicMetadataTypeEnum::ScalableVectorType(_) => {
            Err(error(&format!("a scalable vector; {PASS_BY_POINTER}")))
        }
        BasicMetadataTypeEnum::VectorType(_)
        | BasicMetadataTypeEnum::StructType(_)
        | BasicMetadataTypeEnum::ArrayType(_) => {
            // offload-host maps a by-value aggregate or vector TO and passes
            // the device address of the copy: a generic pointer.
            let value = BasicTypeEnum::try_from(ty)
                .map_err(|()| error("this type cannot be a launch argument"))?;
            let bytes = layout.get_pointer_byte_size(None);
            if u64::from(bytes) * 8 != u64::from(SLOT_BITS) {
                return Err(error(&format!(
                    "by value it arrives as a pointer to the host's mapped copy, but a {bytes}-byte pointer does not fill the 8-byte slot"
                )));
            }
            Ok(Slot::Load { value })
        }
        BasicMetadataTypeEnum::MetadataType(_) => {
            Err(error("this type cannot be a launch argument"))
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
) -> Result<Slot<'ctx>, String> {
    let bytes = layout.get_pointer_byte_size(Some(pointer.get_address_space()));
    if u64::from(bytes) * 8 != u64::from(SLOT_BITS) {
        // A 4-byte pointer (AMDGPU LDS or private) would pack two arguments
        // into one 8-byte slot, and the host has no such address to pass.
        return Err(format!(
            "a {bytes}-byte pointer does not fill the 8-byte slot a launch passes; pass a 64-bit (global or generic) pointer"
        ));
    }
    if let Some(attr) = UNSUPPORTED_PTR_ATTRS
        .iter()
        .find(|attr| ir::has_param_attr(kernel, index, attr))
    {
        return Err(format!(
            "the '{attr}' attribute has no meaning for a kernel the runtime launches"
        ));
    }
    if ir::is_gpu_kernel(kernel) && ir::param_type_attr(kernel, index, "byref").is_some() {
        return Err(
            "'byref' puts the value inline in the kernel argument segment, but a launch passes one 8-byte slot per argument; pass a plain pointer (run offload-wrap-kernels before passes that introduce byref)".to_owned(),
        );
    }
    match ir::param_type_attr(kernel, index, "byval") {
        Some(pointee) => {
            let pointee = ir::fixed_size_type(pointee).ok_or_else(|| {
                format!(
                    "'byval' of type '{}', which has no fixed size",
                    ir::type_text_raw(pointee)
                )
            })?;
            let align = ir::param_align(kernel, index)
                .map(ir::align_u32)
                .unwrap_or_else(|| layout.get_abi_alignment(&pointee));
            let size = layout.get_abi_size(&pointee);
            Ok(Slot::ByvalCopy {
                pointee,
                size,
                align,
            })
        }
        None => Ok(Slot::Same),
    }
}

/// Rewrites one planned kernel; marks it `!offload.wrapped`.
fn wrap_kernel<'ctx>(module: &Module<'ctx>, plan: KernelPlan<'ctx>) -> Result<(), String> {
    let name = ir::name_of(plan.kernel);
    // Printed types are only for the debug log.
    let old_signature = log::log_enabled!(log::Level::Debug)
        .then(|| ir::type_text(plan.kernel.get_type()))
        .unwrap_or_default();
    let rewrite = SignatureRewrite::begin(module, plan.kernel, plan.new_type)?;
    let dyn_ptr = rewrite
        .new
        .get_nth_param(0)
        .ok_or("new kernel has no dyn_ptr")?;
    ir::set_value_name(dyn_ptr, DYN_PTR_NAME);
    let builder = rewrite.entry_builder();
    for (index, slot) in plan.slots.iter().enumerate() {
        let (old_index, new_index) = (index as u32, index as u32 + 1);
        let replacement = build_param(module, &rewrite, &builder, *slot, old_index, new_index)
            .map_err(|e| format!("kernel '{name}' parameter {old_index}: {e}"))?;
        if let Some(value) = replacement {
            rewrite.replace_param(old_index, value);
        }
    }
    let new = rewrite.finish();
    ir::set_function_md_marker(module, new, WRAPPED_MD);
    log::debug!(
        "{PASS_NAME}: wrapped kernel '{name}': {old_signature} -> {}",
        ir::type_text(new.get_type())
    );
    Ok(())
}

/// Sets up new parameter `new_index` for old parameter `old_index` and returns
/// the value that replaces the old parameter in the body.
fn build_param<'ctx>(
    module: &Module<'ctx>,
    rewrite: &SignatureRewrite<'ctx>,
    builder: &Builder<'ctx>,
    slot: Slot<'ctx>,
    old_index: u32,
    new_index: u32,
) -> Result<Option<BasicValueEnum<'ctx>>, String> {
    let param = rewrite
        .new
        .get_nth_param(new_index)
        .ok_or("missing new parameter")?;
    let old_name = rewrite
        .old
        .get_nth_param(old_index)
        .map(ir::value_name)
        .unwrap_or_default();
    let suffixed = |suffix: &str| {
        if old_name.is_empty() {
            String::new()
        } else {
            format!("{old_name}.{suffix}")
        }
    };
    let err = |e: inkwell::builder::BuilderError| e.to_string();
    match slot {
        Slot::Same => {
            // Same type, same contract: every attribute still holds.
            rewrite.copy_param_attributes(old_index, new_index);
            Ok(Some(param))
        }
        Slot::Narrow { int_bits, float } => {
            // No attribute survives widening: zeroext/signext/range/nofpclass
            // describe the narrow value, and noundef promised only its bits.
            ir::set_value_name(param, &old_name);
            let context = module.get_context();
            let mut value: BasicValueEnum<'ctx> = param;
            if int_bits < SLOT_BITS {
                let narrow = std::num::NonZeroU32::new(int_bits)
                    .ok_or("zero-width integer")
                    .and_then(|bits| context.custom_width_int_type(bits))?;
                value = builder
                    .build_int_truncate(value.into_int_value(), narrow, &suffixed("trunc"))
                    .map_err(err)?
                    .into();
            }
            if let Some(float) = float {
                value = builder
                    .build_bit_cast(value, float, &suffixed("bitcast"))
                    .map_err(err)?;
            }
            Ok(Some(value))
        }
        Slot::ByvalCopy {
            pointee,
            size,
            align,
        } => {
            // The slot points at the host's mapped struct; attributes of the
            // byval copy (align, dereferenceable of a stack slot) do not carry over.
            ir::set_value_name(param, &old_name);
            let source = param.into_pointer_value();
            let copy = builder
                .build_alloca(pointee, &suffixed("copy"))
                .map_err(err)?;
            if let Some(alloca) = copy.as_instruction() {
                alloca.set_alignment(align).map_err(|e| e.to_string())?;
            }
            let size = module.get_context().i64_type().const_int(size, false);
            builder
                .build_memcpy(copy, align, source, 1, size)
                .map_err(err)?;
            // The alloca lives in the data layout's alloca address space.
            let old_type = source.get_type();
            let value = if copy.get_type() == old_type {
                copy
            } else {
                builder
                    .build_address_space_cast(copy, old_type, &suffixed("cast"))
                    .map_err(err)?
            };
            Ok(Some(value.into()))
        }
        Slot::Load { value } => {
            // Attributes of the value (noundef, range, ...) do not describe
            // the pointer. The mapped copy's alignment is unknown: align 1.
            ir::set_value_name(param, &old_name);
            let load = builder
                .build_load(value, param.into_pointer_value(), &suffixed("load"))
                .map_err(err)?;
            if let Some(instruction) = load.as_instruction_value() {
                instruction.set_alignment(1).map_err(|e| e.to_string())?;
            }
            Ok(Some(load))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::run_pass;

    fn wrap(params: &str, ir: &str) -> Result<(bool, String), String> {
        run_pass(run, params, ir)
    }

    #[test]
    fn params_parse_and_reject() {
        assert_eq!(parse_params("").unwrap(), Params::default());
        assert_eq!(
            parse_params("kernels=a:b;kernels=c").unwrap().kernels,
            ["a", "b", "c"]
        );
        assert_eq!(
            check_params("kernel=x").unwrap_err(),
            "unknown parameter 'kernel' (accepted: kernels)"
        );
        assert!(check_params("kernels=").is_err());
        assert!(
            check_params("kernels=a::b")
                .unwrap_err()
                .contains("empty kernel name")
        );
        assert!(check_params("kernels=a,b").unwrap_err().contains("':'"));
    }

    const CPU: &str = r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
define void @k(ptr noalias %a, i32 zeroext %n, double %d, float %f, half %h, i8 %b, i64 %w) !offload.kernel !0 {
  store i32 %n, ptr %a
  store double %d, ptr %a
  store float %f, ptr %a
  store half %h, ptr %a
  store i8 %b, ptr %a
  store i64 %w, ptr %a
  ret void
}
define void @not_a_kernel(i32 %x) {
  ret void
}
!0 = !{}
"#;

    #[test]
    fn wraps_marked_cpu_kernel() {
        let (changed, out) = wrap("", CPU).unwrap();
        assert!(changed);
        assert!(
            out.contains(
                "define void @k(ptr %dyn_ptr, ptr noalias %a, i64 %n, i64 %d, i64 %f, i64 %h, i64 %b, i64 %w) !offload.kernel !0 !offload.wrapped !0"
            ),
            "{out}"
        );
        for line in [
            "%n.trunc = trunc i64 %n to i32",
            "%d.bitcast = bitcast i64 %d to double",
            "%f.trunc = trunc i64 %f to i32",
            "%f.bitcast = bitcast i32 %f.trunc to float",
            "%h.trunc = trunc i64 %h to i16",
            "%h.bitcast = bitcast i16 %h.trunc to half",
            "%b.trunc = trunc i64 %b to i8",
            "store i32 %n.trunc, ptr %a",
            "store double %d.bitcast, ptr %a",
            "store i64 %w, ptr %a",
        ] {
            assert!(out.contains(line), "missing `{line}` in\n{out}");
        }
        assert!(out.contains("define void @not_a_kernel(i32 %x)"), "{out}");
    }

    #[test]
    fn second_run_changes_nothing() {
        let (_, once) = wrap("", CPU).unwrap();
        let (changed, twice) = wrap("", &once).unwrap();
        assert!(!changed);
        assert_eq!(once, twice);
    }

    #[test]
    fn no_kernels_no_change() {
        let ir = "define void @f(i32 %x) {\n  ret void\n}\n";
        let (changed, out) = wrap("", ir).unwrap();
        assert!(!changed);
        assert!(out.contains("define void @f(i32 %x)"));
    }

    #[test]
    fn kernels_param_names_functions() {
        let ir =
            "define void @a(i32 %x) {\n  ret void\n}\ndefine void @b(float %y) {\n  ret void\n}\n";
        let (_, out) = wrap("kernels=b", ir).unwrap();
        assert!(out.contains("define void @a(i32 %x)"), "{out}");
        assert!(
            out.contains("define void @b(ptr %dyn_ptr, i64 %y)"),
            "{out}"
        );
        assert_eq!(
            wrap("kernels=a:nope:gone", ir).unwrap_err(),
            "kernels=: no function named 'nope', 'gone' in the module"
        );
    }

    #[test]
    fn gpu_kernels_keep_cc_and_pointers() {
        let ir = "define amdgpu_kernel void @g(ptr addrspace(1) %p, i16 %s) {\n  ret void\n}\n\
                  define ptx_kernel void @n(ptr %p, double %d) {\n  ret void\n}\n";
        let (_, out) = wrap("", ir).unwrap();
        assert!(
            out.contains("define amdgpu_kernel void @g(ptr %dyn_ptr, ptr addrspace(1) %p, i64 %s)"),
            "{out}"
        );
        assert!(
            out.contains("define ptx_kernel void @n(ptr %dyn_ptr, ptr %p, i64 %d)"),
            "{out}"
        );
    }

    #[test]
    fn unsupported_parameters_are_errors_and_change_nothing() {
        for (ty, why) in [
            ("i128", "wider than 8 bytes"),
            ("fp128", "wider than 8 bytes"),
            ("<vscale x 2 x float>", "a scalable vector"),
            ("ptr sret(i32)", "the 'sret' attribute"),
        ] {
            let ir = format!(
                "define void @ok(i32 %x) !offload.kernel !0 {{\n  ret void\n}}\n\
                 define void @k(ptr %p, {ty} %v) !offload.kernel !0 {{\n  ret void\n}}\n!0 = !{{}}\n"
            );
            let e = wrap("", &ir).unwrap_err();
            let plain = ty.split(' ').next().unwrap();
            let plain = if ty.starts_with('{') || ty.starts_with('<') {
                ty
            } else {
                plain
            };
            assert!(
                e.starts_with(&format!(
                    "kernel 'k', parameter #1 (%v) of type '{plain}': {why}"
                )),
                "{ty}: {e}"
            );
        }
    }

    #[test]
    fn opaque_types_are_errors_not_panics() {
        let ir = "define void @k(target(\"spirv.Event\") %e) !offload.kernel !0 {\n  ret void\n}\n!0 = !{}\n";
        let e = wrap("", ir).unwrap_err();
        assert!(
            e.contains("kernel 'k', parameter #0 (%e) of type 'target(\"spirv.Event\")'"),
            "{e}"
        );
    }

    #[test]
    fn byval_becomes_pointer_with_private_copy() {
        let ir = "%S = type { i64, i64, i64 }\n\
                  define void @k(ptr byval(%S) align 8 %s) !offload.kernel !0 {\n  store i64 1, ptr %s\n  ret void\n}\n!0 = !{}\n";
        let (_, out) = wrap("", ir).unwrap();
        assert!(
            out.contains("define void @k(ptr %dyn_ptr, ptr %s)"),
            "{out}"
        );
        assert!(out.contains("%s.copy = alloca %S, align 8"), "{out}");
        assert!(out.contains("call void @llvm.memcpy.p0.p0.i64(ptr align 8 %s.copy, ptr align 1 %s, i64 24, i1 false)"), "{out}");
        assert!(out.contains("store i64 1, ptr %s.copy"), "{out}");
    }

    #[test]
    fn aggregates_and_vectors_by_value_are_loaded_from_a_pointer() {
        // offload-host maps a by-value aggregate or vector TO and passes the
        // device address of its copy; the kernel loads the value from it.
        let ir = "%S = type { i32, double }\n\
                  define void @k(%S %s, [2 x i16] %a, <2 x float> %v, i32 %n) !offload.kernel !0 {\n\
                  \x20 %x = extractvalue %S %s, 1\n  ret void\n}\n!0 = !{}\n";
        let (_, out) = wrap("", ir).unwrap();
        for line in [
            "define void @k(ptr %dyn_ptr, ptr %s, ptr %a, ptr %v, i64 %n)",
            "%s.load = load %S, ptr %s, align 1",
            "%a.load = load [2 x i16], ptr %a, align 1",
            "%v.load = load <2 x float>, ptr %v, align 1",
            "%x = extractvalue %S %s.load, 1",
        ] {
            assert!(out.contains(line), "missing `{line}` in\n{out}");
        }
        // A GPU kernel gets a generic pointer, whatever its parameters' address spaces.
        let gpu = "define amdgpu_kernel void @g({ i32, i32 } %s) {\n  ret void\n}\n";
        let (_, out) = wrap("", gpu).unwrap();
        assert!(
            out.contains("define amdgpu_kernel void @g(ptr %dyn_ptr, ptr %s)"),
            "{out}"
        );
    }

    #[test]
    fn byval_copy_in_the_alloca_address_space_is_cast_back() {
        // A data layout whose allocas live in addrspace(5), like AMDGPU's.
        let ir = "target datalayout = \"A5\"\n\
                  define ptx_kernel void @k(ptr byval(i64) %s) {\n  store i64 1, ptr %s\n  ret void\n}\n";
        let (_, out) = wrap("", ir).unwrap();
        assert!(
            out.contains("define ptx_kernel void @k(ptr %dyn_ptr, ptr %s)"),
            "{out}"
        );
        assert!(
            out.contains("%s.copy = alloca i64, align 4, addrspace(5)"),
            "{out}"
        );
        assert!(
            out.contains("%s.cast = addrspacecast ptr addrspace(5) %s.copy to ptr"),
            "{out}"
        );
        assert!(out.contains("store i64 1, ptr %s.cast"), "{out}");
    }

    #[test]
    fn narrow_gpu_pointers_are_errors() {
        let ir = "target datalayout = \"p3:32:32\"\n\
                  define amdgpu_kernel void @k(ptr addrspace(3) %lds) {\n  ret void\n}\n";
        assert_eq!(
            wrap("", ir).unwrap_err(),
            "kernel 'k', parameter #0 (%lds) of type 'ptr addrspace(3)': a 4-byte pointer does not fill the 8-byte slot a launch passes; pass a 64-bit (global or generic) pointer"
        );
    }

    #[test]
    fn errors_leave_the_module_unchanged() {
        let ir = "define void @good(i32 %x) !offload.kernel !0 {\n  ret void\n}\n\
                  define void @bad(i128 %x) !offload.kernel !0 {\n  ret void\n}\n!0 = !{}\n";
        let context = inkwell::context::Context::create();
        let module = crate::test_support::parse(&context, ir);
        let before = module.print_to_string().to_string();
        let e = run(&module, "").unwrap_err();
        assert!(
            e.starts_with("kernel 'bad', parameter #0 (%x) of type 'i128'"),
            "{e}"
        );
        assert_eq!(module.print_to_string().to_string(), before);
    }

    #[test]
    fn byref_on_gpu_is_an_error_on_cpu_a_pointer() {
        let gpu = "define amdgpu_kernel void @k(ptr addrspace(4) byref(i64) %s) {\n  ret void\n}\n";
        assert!(
            wrap("", gpu)
                .unwrap_err()
                .contains("'byref' puts the value inline")
        );
        let cpu = "define void @k(ptr byref(i64) align 8 %s) !offload.kernel !0 {\n  ret void\n}\n!0 = !{}\n";
        let (_, out) = wrap("", cpu).unwrap();
        assert!(
            out.contains("@k(ptr %dyn_ptr, ptr byref(i64) align 8 %s)"),
            "{out}"
        );
    }

    #[test]
    fn called_kernel_and_declaration_are_errors() {
        let ir = "define void @k(i32 %x) !offload.kernel !0 {\n  ret void\n}\n\
                  define void @c() {\n  call void @k(i32 1)\n  ret void\n}\ndeclare void @d(i32)\n!0 = !{}\n";
        assert!(wrap("", ir).unwrap_err().contains("called from IR"));
        assert!(
            wrap("kernels=d", ir)
                .unwrap_err()
                .contains("'d' is a declaration")
        );
    }
}
