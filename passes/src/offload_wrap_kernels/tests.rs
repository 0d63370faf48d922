//! Unit tests of `offload-wrap-kernels` (messages are pinned in lit, test-ir/).

use super::{Error, OffloadWrapKernels, ParamProblem};
use crate::ModulePass;
use crate::test_support::run_pass;

fn wrap(params: &str, ir: &str) -> Result<(bool, String), Error> {
    run_pass::<OffloadWrapKernels>(params, ir)
}

fn parse_params(text: &str) -> Result<Vec<String>, crate::params::ParamError> {
    OffloadWrapKernels::parse(text.as_bytes()).map(|p| p.kernels)
}

#[test]
fn params_parse_and_reject() {
    use crate::params::ParamError;
    assert!(parse_params("").unwrap().is_empty());
    assert_eq!(parse_params("kernels=a:b;kernels=c").unwrap(), ["a", "b", "c"]);
    assert!(matches!(parse_params("kernel=x"), Err(ParamError::Unknown { .. })));
    assert!(matches!(parse_params("kernels="), Err(ParamError::MissingValue { .. })));
    assert!(matches!(parse_params("kernels=a::b"), Err(ParamError::Invalid { .. })));
    assert!(matches!(parse_params("kernels=a,b"), Err(ParamError::Invalid { .. })));
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
        Error::UnknownKernels {
            names: vec!["nope".into(), "gone".into()]
        }
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
    for (ty, printed, problem) in [
        ("i128", "i128", ParamProblem::TooWide),
        ("fp128", "fp128", ParamProblem::TooWide),
        ("<vscale x 2 x float>", "<vscale x 2 x float>", ParamProblem::ScalableVector),
        ("ptr sret(i32)", "ptr", ParamProblem::Attribute { name: "sret" }),
    ] {
        let ir = format!(
            "define void @ok(i32 %x) !offload.kernel !0 {{\n  ret void\n}}\n\
             define void @k(ptr %p, {ty} %v) !offload.kernel !0 {{\n  ret void\n}}\n!0 = !{{}}\n"
        );
        let Error::Param { param, ty: got, problem: why } = wrap("", &ir).unwrap_err() else {
            panic!("{ty}: not a parameter error");
        };
        assert_eq!((param.kernel.as_str(), param.index, param.name.as_str()), ("k", 1, "v"));
        assert_eq!((got.as_str(), why), (printed, problem), "{ty}");
    }
}

#[test]
fn opaque_types_are_errors_not_panics() {
    let ir = "define void @k(target(\"spirv.Event\") %e) !offload.kernel !0 {\n  ret void\n}\n!0 = !{}\n";
    let e = wrap("", ir).unwrap_err();
    assert!(
        matches!(e, Error::Param { ref ty, problem: ParamProblem::Opaque, .. } if ty == "target(\"spirv.Event\")"),
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
    assert!(matches!(
        wrap("", ir).unwrap_err(),
        Error::Param { ref ty, problem: ParamProblem::NarrowPointer { bytes: 4 }, .. } if ty == "ptr addrspace(3)"
    ));
}

#[test]
fn errors_leave_the_module_unchanged() {
    let ir = "define void @good(i32 %x) !offload.kernel !0 {\n  ret void\n}\n\
              define void @bad(i128 %x) !offload.kernel !0 {\n  ret void\n}\n!0 = !{}\n";
    let context = inkwell::context::Context::create();
    let module = crate::test_support::parse(&context, ir);
    let before = module.print_to_string().to_string();
    let e = OffloadWrapKernels::default().run(&module, &mut Default::default()).unwrap_err();
    assert!(matches!(e, Error::Param { ref param, .. } if param.kernel == "bad"), "{e}");
    assert_eq!(module.print_to_string().to_string(), before);
}

#[test]
fn byref_on_gpu_is_an_error_on_cpu_a_pointer() {
    let gpu = "define amdgpu_kernel void @k(ptr addrspace(4) byref(i64) %s) {\n  ret void\n}\n";
    assert!(matches!(
        wrap("", gpu).unwrap_err(),
        Error::Param { problem: ParamProblem::GpuByref, .. }
    ));
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
    assert!(matches!(
        wrap("", ir).unwrap_err(),
        Error::Unrewritable { why: crate::ir::signature::Unrewritable::CalledFromIr, .. }
    ));
    assert_eq!(wrap("kernels=d", ir).unwrap_err(), Error::NamedDeclaration { name: "d".into() });
}

#[test]
fn each_wrapped_kernel_gets_a_manifest_note() {
    use crate::kernel_manifest::{FloatKind, ParamKind, SlotKind, parse_notes};
    let (_, out) = wrap("", CPU).unwrap();
    assert!(out.contains("@llvm.used = appending global [1 x ptr] [ptr @__offload_manifest_k]"), "{out}");
    // The note's bytes, read back from the printed module.
    let context = inkwell::context::Context::create();
    let module = crate::test_support::parse(&context, &out);
    let init = module.get_global("__offload_manifest_k").unwrap().get_initializer().unwrap();
    let layout = crate::ir::types::target_data(&module);
    let bytes = crate::ir::constants::constant_bytes(crate::ir::Value::from(init), &layout).unwrap();
    let manifest = parse_notes(&bytes).unwrap().remove(0).unwrap();
    assert_eq!(manifest.name, "k");
    let kinds: Vec<_> = manifest.params.iter().map(|p| (p.kind, p.slot, p.size)).collect();
    assert_eq!(
        kinds,
        [
            (ParamKind::Pointer { address_space: 0 }, SlotKind::Pointer, 8),
            (ParamKind::Integer { bits: 32 }, SlotKind::Value, 4),
            (ParamKind::Float(FloatKind::Double), SlotKind::Value, 8),
            (ParamKind::Float(FloatKind::Float), SlotKind::Value, 4),
            (ParamKind::Float(FloatKind::Half), SlotKind::Value, 2),
            (ParamKind::Integer { bits: 8 }, SlotKind::Value, 1),
            (ParamKind::Integer { bits: 64 }, SlotKind::Value, 8),
        ]
    );
    // A global already holding the name is an error, before any change.
    let taken = format!("{CPU}\n@__offload_manifest_k = global i32 0\n");
    assert!(matches!(wrap("", &taken), Err(Error::ManifestName { .. })));
}
