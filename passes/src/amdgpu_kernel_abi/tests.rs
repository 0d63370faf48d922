//! Unit tests of `amdgpu-kernel-abi` (messages are pinned in lit, test-ir/).

use super::{AmdgpuKernelAbi, Error, HintProblem, HintShape, ParamProblem};
use crate::test_support::run_pass;

fn run(ir: &str) -> (bool, String) {
    run_pass::<AmdgpuKernelAbi>("", ir).unwrap()
}

fn fail(ir: &str) -> Error {
    run_pass::<AmdgpuKernelAbi>("", ir).unwrap_err()
}

const DL: &str = "target datalayout = \"e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n";

#[test]
fn second_run_changes_nothing() {
    let ir = format!(
        "{DL}%S = type {{ i8, double }}\ndefine amdgpu_kernel void @k(%S %s, i32 %n) {{\n  ret void\n}}\n"
    );
    let (changed_once, once) = run(&ir);
    assert!(changed_once && once.contains("byref(%S) align 8"), "{once}");
    let (changed, twice) = run(&once);
    assert!(!changed);
    assert_eq!(once, twice);
}

#[test]
fn contradictory_hint_is_an_error_and_changes_nothing() {
    let ir = format!(
        "{DL}define amdgpu_kernel void @k(ptr dereferenceable(8) %p) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{!1}}\n!1 = !{{i32 0, i32 1, i64 12, i64 4}}\n"
    );
    assert_eq!(
        fail(&ir),
        Error::Hint {
            kernel: "k".into(),
            first: 0,
            problem: HintProblem::DisagreesWithDereferenceable {
                size: 12,
                dereferenceable: 8
            }
        }
    );
    let ir = format!(
        "{DL}define amdgpu_kernel void @k(i32 %a) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{!1}}\n!1 = !{{i32 0, i32 2, i64 8, i64 4}}\n"
    );
    assert!(matches!(
        fail(&ir),
        Error::Hint {
            problem: HintProblem::OutOfRange {
                first: 0,
                last: 1,
                params: 1
            },
            ..
        }
    ));
}

#[test]
fn hint_fields_never_wrap_around_and_null_entries_are_malformed() {
    let hint = |entry: &str| {
        format!(
            "{DL}define amdgpu_kernel void @k(ptr %a, i32 %b) !offload.aggregate.args !0 {{\n  ret void\n}}\n!0 = !{{{entry}}}\n!1 = !{{i64 4294967296, i32 1, i64 12, i64 4}}\n!2 = !{{i32 1, i32 1, i64 4, i64 4}}\n"
        )
    };
    assert_eq!(
        fail(&hint("!1")),
        Error::HintEntry {
            kernel: "k".into(),
            entry: 0,
            problem: HintShape::NotAnIndex {
                field: "first",
                value: 4294967296
            }
        }
    );
    // (A lone `!{null}` reads as `!{}` through the C API: no entries.)
    assert!(matches!(
        fail(&hint("!2, null")),
        Error::HintEntry {
            entry: 1,
            problem: HintShape::Malformed,
            ..
        }
    ));
}

#[test]
fn kernel_with_a_target_type_parameter_is_left_alone_or_refused() {
    let ir = format!(
        "{DL}define amdgpu_kernel void @k(target(\"amdgcn.named.barrier\", 0) %t, i32 %a) {{\n  ret void\n}}\n"
    );
    let (changed, _) = run(&ir);
    assert!(!changed);
    let ir = format!(
        "{DL}define amdgpu_kernel void @k(target(\"amdgcn.named.barrier\", 0) %t, {{ i32, i32 }} %s) {{\n  ret void\n}}\n"
    );
    let Error::Param { param, ty, problem } = fail(&ir) else {
        panic!("not a parameter error");
    };
    assert_eq!((param.index, param.name.as_str()), (0, "t"));
    assert_eq!(ty, "target(\"amdgcn.named.barrier\", 0)");
    assert_eq!(problem, ParamProblem::Opaque);
}

#[test]
fn a_called_kernel_fails_before_any_kernel_changes() {
    use crate::test_support::parse;
    use inkwell::context::Context;
    // @a would be rewritten first; @b is called, so nothing may change.
    let ir = format!(
        "{DL}define amdgpu_kernel void @a({{ i32, i32 }} %s) {{\n  ret void\n}}\ndefine amdgpu_kernel void @b({{ i32, i32 }} %s) {{\n  ret void\n}}\ndefine void @f() {{\n  call amdgpu_kernel void @b({{ i32, i32 }} zeroinitializer)\n  ret void\n}}\n"
    );
    let context = Context::create();
    let module = parse(&context, &ir);
    let before = module.print_to_string().to_string();
    let err =
        crate::ModulePass::run(&AmdgpuKernelAbi, &module, &mut Default::default()).unwrap_err();
    assert_eq!(
        err,
        Error::Unrewritable {
            kernel: "b".into(),
            why: crate::ir::signature::Unrewritable::CalledFromIr
        }
    );
    assert_eq!(module.print_to_string().to_string(), before);
}
