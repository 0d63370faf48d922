//! Unit tests of `byref-callee-copy` (messages are pinned in lit, test-ir/).

use super::{ByrefCalleeCopy, Error};
use crate::ModulePass;
use crate::test_support::run_pass;

fn run_ir(ir: &str) -> Result<(bool, String), Error> {
    run_pass::<ByrefCalleeCopy>("", ir)
}

const HEADER: &str = "target datalayout = \"e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n";

fn kernel(body: &str) -> String {
    format!(
        "{HEADER}declare void @use(ptr)\ndeclare void @read(ptr readonly captures(none))\n\
         define amdgpu_kernel void @k(ptr addrspace(4) byref([12 x i8]) align 4 %s, i1 %c, ptr addrspace(1) %out) {{\n{body}\n  ret void\n}}\n"
    )
}

#[test]
fn use_needing_a_global_pointer_is_an_error() {
    let ir = format!(
        "{HEADER}declare void @g(ptr addrspace(1))\n\
         define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %s) {{\n\
           %p = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)\n  store i32 1, ptr addrspace(1) %p, align 4\n\
           call void @g(ptr addrspace(1) %p)\n  ret void\n}}\n"
    );
    let Error::Unretargetable { param, user, needs } = run_ir(&ir).unwrap_err() else {
        panic!("not an unretargetable use");
    };
    assert_eq!((param.kernel.as_str(), param.index), ("k", 0));
    assert_eq!(user, "call void @g(ptr addrspace(1) %p)");
    assert_eq!(needs, "ptr addrspace(1)");
}

#[test]
fn an_error_on_a_later_parameter_leaves_earlier_ones_untouched() {
    let ir = format!(
        "{HEADER}declare void @g(ptr addrspace(1))\n\
         define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %a, ptr addrspace(4) byref(i32) align 4 %s) {{\n\
           %q = addrspacecast ptr addrspace(4) %a to ptr\n  store i32 2, ptr %q, align 4\n\
           %p = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)\n  store i32 1, ptr addrspace(1) %p, align 4\n\
           call void @g(ptr addrspace(1) %p)\n  ret void\n}}\n"
    );
    let context = inkwell::context::Context::create();
    let module = crate::test_support::parse(&context, &ir);
    let before = module.print_to_string().to_string();
    let err = ByrefCalleeCopy
        .run(&module, &mut Default::default())
        .unwrap_err();
    assert!(
        matches!(err, Error::Unretargetable { ref param, .. } if param.index == 1),
        "{err}"
    );
    assert_eq!(module.print_to_string().to_string(), before);
}

#[test]
fn second_run_changes_nothing() {
    let ir = kernel(
        "  %g = addrspacecast ptr addrspace(4) %s to ptr\n  store i32 1, ptr %g, align 4\n  %v = load i32, ptr addrspace(4) %s, align 4",
    );
    let (changed, once) = run_ir(&ir).unwrap();
    assert!(changed);
    let (changed, twice) = run_ir(&once).unwrap();
    assert!(!changed);
    assert_eq!(once, twice);
}

#[test]
fn non_kernels_and_plain_pointers_are_left_alone() {
    let ir = format!(
        "{HEADER}define void @f(ptr addrspace(4) byref(i32) align 4 %s) {{\n  store i32 1, ptr addrspace(4) %s, align 4\n  ret void\n}}\n\
         define amdgpu_kernel void @k(ptr addrspace(1) %p) {{\n  store i32 1, ptr addrspace(1) %p, align 4\n  ret void\n}}\n"
    );
    let (changed, _) = run_ir(&ir).unwrap();
    assert!(!changed);
}

#[test]
fn rejects_parameters() {
    assert!(ByrefCalleeCopy::parse(b"x").is_err());
}

#[test]
fn an_error_on_a_later_parameter_leaves_the_module_unchanged() {
    use crate::test_support::parse;
    use inkwell::context::Context;
    // %a alone would be copied; %b cannot be, so nothing may change.
    let ir = format!(
        "{HEADER}declare void @g(ptr addrspace(1))\n\
         define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %a, ptr addrspace(4) byref(i32) align 4 %b) {{\n\
           %pa = addrspacecast ptr addrspace(4) %a to ptr\n  store i32 1, ptr %pa, align 4\n\
           %p = addrspacecast ptr addrspace(4) %b to ptr addrspace(1)\n  store i32 1, ptr addrspace(1) %p, align 4\n\
           call void @g(ptr addrspace(1) %p)\n  ret void\n}}\n"
    );
    let context = Context::create();
    let module = parse(&context, &ir);
    let before = module.print_to_string().to_string();
    let err = ByrefCalleeCopy
        .run(&module, &mut Default::default())
        .unwrap_err();
    assert!(
        matches!(err, Error::Unretargetable { ref param, .. } if param.name == "b"),
        "{err}"
    );
    assert_eq!(module.print_to_string().to_string(), before);
}

#[test]
fn a_written_byref_of_a_type_without_fixed_size_is_an_error() {
    let ir = format!(
        "{HEADER}define amdgpu_kernel void @k(ptr addrspace(4) byref(target(\"amdgcn.named.barrier\", 0)) %s) {{\n\
           %p = addrspacecast ptr addrspace(4) %s to ptr\n  store i32 1, ptr %p, align 4\n  ret void\n}}\n"
    );
    assert!(matches!(
        run_ir(&ir).unwrap_err(),
        Error::NoFixedSize { ref ty, .. } if ty == "target(\"amdgcn.named.barrier\", 0)"
    ));
}
