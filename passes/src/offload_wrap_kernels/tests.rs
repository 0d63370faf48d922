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
    assert_eq!(
        parse_params("kernels=a:b;kernels=c").unwrap(),
        ["a", "b", "c"]
    );
    assert!(matches!(
        parse_params("kernel=x"),
        Err(ParamError::Unknown { .. })
    ));
    assert!(matches!(
        parse_params("kernels="),
        Err(ParamError::MissingValue { .. })
    ));
    assert!(matches!(
        parse_params("kernels=a::b"),
        Err(ParamError::Invalid { .. })
    ));
    assert!(matches!(
        parse_params("kernels=a,b"),
        Err(ParamError::Invalid { .. })
    ));
    let unit = OffloadWrapKernels::parse(b"kernels=a;codegen-unit").unwrap();
    assert!(unit.codegen_unit);
    let records = OffloadWrapKernels::parse(b"records;codegen-unit").unwrap();
    assert!(records.records && records.codegen_unit && records.kernels.is_empty());
    assert!(matches!(
        OffloadWrapKernels::parse(b"records;records"),
        Err(ParamError::Duplicate { .. })
    ));
    assert!(matches!(
        OffloadWrapKernels::parse(b"codegen-unit=1"),
        Err(ParamError::Invalid { .. })
    ));
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
fn unknown_kernel_names_are_an_error() {
    let ir = "define void @a(i32 %x) {\n  ret void\n}\n";
    assert_eq!(
        wrap("kernels=a:nope:gone", ir).unwrap_err(),
        Error::UnknownKernels {
            names: vec!["nope".into(), "gone".into()]
        }
    );
}

#[test]
fn unsupported_parameters_are_errors_and_change_nothing() {
    for (ty, printed, problem) in [
        ("i128", "i128", ParamProblem::TooWide),
        ("fp128", "fp128", ParamProblem::TooWide),
        (
            "<vscale x 2 x float>",
            "<vscale x 2 x float>",
            ParamProblem::ScalableVector,
        ),
        (
            "ptr sret(i32)",
            "ptr",
            ParamProblem::Attribute { name: "sret" },
        ),
    ] {
        let ir = format!(
            "define void @ok(i32 %x) !offload.kernel !0 {{\n  ret void\n}}\n\
             define void @k(ptr %p, {ty} %v) !offload.kernel !0 {{\n  ret void\n}}\n!0 = !{{}}\n"
        );
        let Error::Param {
            param,
            ty: got,
            problem: why,
        } = wrap("", &ir).unwrap_err()
        else {
            panic!("{ty}: not a parameter error");
        };
        assert_eq!(
            (param.kernel.as_str(), param.index, param.name.as_str()),
            ("k", 1, "v")
        );
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
    let e = OffloadWrapKernels::default()
        .run(&module, &mut Default::default())
        .unwrap_err();
    assert!(
        matches!(e, Error::Param { ref param, .. } if param.kernel == "bad"),
        "{e}"
    );
    assert_eq!(module.print_to_string().to_string(), before);
}

#[test]
fn byref_on_a_gpu_kernel_is_an_error() {
    let gpu = "define amdgpu_kernel void @k(ptr addrspace(4) byref(i64) %s) {\n  ret void\n}\n";
    assert!(matches!(
        wrap("", gpu).unwrap_err(),
        Error::Param {
            problem: ParamProblem::GpuByref,
            ..
        }
    ));
}

#[test]
fn called_kernel_and_declaration_are_errors() {
    let ir = "define void @k(i32 %x) !offload.kernel !0 {\n  ret void\n}\n\
              define void @c() {\n  call void @k(i32 1)\n  ret void\n}\ndeclare void @d(i32)\n!0 = !{}\n";
    assert!(matches!(
        wrap("", ir).unwrap_err(),
        Error::Unrewritable {
            why: crate::ir::signature::Unrewritable::CalledFromIr,
            ..
        }
    ));
    assert_eq!(
        wrap("kernels=d", ir).unwrap_err(),
        Error::NamedDeclaration { name: "d".into() }
    );
}

#[test]
fn each_wrapped_kernel_gets_a_manifest_note() {
    use crate::kernel_manifest::{FloatKind, ParamKind, SlotKind, parse_notes};
    let (_, out) = wrap("", CPU).unwrap();
    assert!(
        out.contains("@llvm.used = appending global [1 x ptr] [ptr @__offload_manifest_k]"),
        "{out}"
    );
    // The note's bytes, read back from the printed module.
    let context = inkwell::context::Context::create();
    let module = crate::test_support::parse(&context, &out);
    let init = module
        .get_global("__offload_manifest_k")
        .unwrap()
        .get_initializer()
        .unwrap();
    let layout = crate::ir::types::target_data(&module);
    let bytes =
        crate::ir::constants::constant_bytes(crate::ir::Value::from(init), &layout).unwrap();
    let manifest = parse_notes(&bytes).unwrap().remove(0).unwrap();
    assert_eq!(manifest.name, "k");
    let kinds: Vec<_> = manifest
        .params
        .iter()
        .map(|p| (p.kind, p.slot, p.size))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                ParamKind::Pointer { address_space: 0 },
                SlotKind::Pointer,
                8
            ),
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
