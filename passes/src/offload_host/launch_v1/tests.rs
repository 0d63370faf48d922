//! Unit tests of the v1 launch: descriptor words, inference from types and
//! attributes, the compile-time grid, and the errors that leave the module
//! unchanged.

use crate::offload_host::descriptor::ArgSpec;
use crate::offload_host::descriptor::DescriptorProblem as D;
use crate::offload_host::error::{ArgProblem, Error, LaunchProblem};
use crate::offload_host::image::MissingKernel;
use crate::offload_host::launch_v1::LaunchDescriptor;
use crate::offload_host::tests::{fails, function, image, launch_problem, lower, suffix};
use offload_contract::descriptor::Problem as P;

/// The words are offload-contract's to decode (its tests cover every
/// malformed descriptor); the pass keeps the header and the triples.
#[test]
fn descriptor_words() {
    let d =
        LaunchDescriptor::from_words(&[1, 4, 2, 1, 64, 1, 1, 128, 2, 3, 4, 2, 0, 0, 0]).unwrap();
    assert_eq!(
        (d.header.teams, d.header.threads, d.header.dyn_cgroup_mem),
        ([4, 2, 1], [64, 1, 1], 128)
    );
    assert_eq!(
        d.args[0],
        ArgSpec {
            map: 3,
            size: 4,
            len_arg: Some(1)
        }
    );
    assert_eq!(d.args[1], ArgSpec::default());
    let err = |w: &[u64]| LaunchDescriptor::from_words(w).unwrap_err();
    assert_eq!(
        err(&[2, 0, 0, 0, 0, 0, 0, 0, 0]),
        D::Words(P::Version {
            version: 2,
            supported: 1
        })
    );
    assert_eq!(
        err(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 0x101, 0, 0]),
        D::Words(P::LiteralAndMapped { arg: 0, map: 0x101 })
    );
}

#[test]
fn a_v1_launch_is_a_warning_naming_kernel_and_caller() {
    use crate::offload_host::OffloadHost;
    use crate::offload_host::tests::{HEADER, wrapped_image};
    let body = "declare void @scale(ptr, i32)\ndefine void @f(ptr %p) {\n  call void @scale(ptr dereferenceable(4) %p, i32 1)\n  ret void\n}\n";
    let (changed, _, warnings) = crate::test_support::run_pass_with_warnings::<OffloadHost>(
        &format!("image={}", wrapped_image()),
        &format!("{HEADER}{body}"),
    )
    .unwrap();
    assert!(changed);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "launch of 'scale' in function 'f': the v1 call form carries no image digest, so nothing ties it to image '"
        ),
        "{warnings:?}"
    );
}

#[test]
fn inferred_map_types_follow_attributes() {
    let ir = lower(
        r#"
%S = type { i32, double }
declare void @k(ptr readonly dereferenceable(8), ptr writeonly dereferenceable(16), ptr dereferenceable(4), i32, float, double, ptr byval(%S), %S)
define void @f(ptr %a, ptr %b, ptr %c, ptr %s, %S %v) {
  call void @k(ptr %a, ptr %b, ptr %c, i32 7, float 1.0, double 2.0, ptr %s, %S %v)
  ret void
}
"#,
    );
    assert!(ir.contains("@.offload_sizes.k = private unnamed_addr constant [8 x i64] [i64 8, i64 16, i64 4, i64 4, i64 4, i64 8, i64 16, i64 16]"), "{ir}");
    assert!(ir.contains("@.offload_maptypes.k = private unnamed_addr constant [8 x i64] [i64 33, i64 34, i64 35, i64 800, i64 800, i64 800, i64 33, i64 33]"), "{ir}");
    // One call: the runtime maps, launches and unmaps.
    assert!(!ir.contains("_mapper"), "{ir}");
    // Scalars as their bit patterns, zero-extended.
    assert!(ir.contains("store ptr inttoptr (i64 7 to ptr)"), "{ir}");
    assert!(
        ir.contains("store ptr inttoptr (i64 1065353216 to ptr)"),
        "{ir}"
    );
    assert!(
        ir.contains("store ptr inttoptr (i64 4611686018427387904 to ptr)"),
        "{ir}"
    );
    // The by-value struct is spilled in the entry block and mapped TO.
    assert!(ir.contains("%.offload_byval = alloca %S"), "{ir}");
    assert!(ir.contains("store %S %v, ptr %.offload_byval"), "{ir}");
}

#[test]
fn slice_size_is_computed_at_run_time_from_the_global_descriptor() {
    // rustc's form: the [u64; 15] static as bytes.
    let words: [u64; 15] = [1, 2, 1, 1, 32, 1, 1, 0, 2, 1, 8, 2, 0, 0, 0];
    let bytes: String = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("\\{b:02X}"))
        .collect();
    let ir = lower(&format!(
        r#"
@"__offload_launch.k" = constant [120 x i8] c"{bytes}", align 8
declare void @k(ptr, i64)
define void @f(ptr %p, i64 %n) {{
  call void @k(ptr %p, i64 %n)
  ret void
}}
"#
    ));
    assert!(ir.contains("%.offload_sizes = alloca [2 x i64]"), "{ir}");
    assert!(ir.contains("= mul i64 %n, 8"), "{ir}");
    assert!(
        ir.contains(
            "@.offload_maptypes.k = private unnamed_addr constant [2 x i64] [i64 33, i64 800]"
        ),
        "{ir}"
    );
    assert!(ir.contains("store [3 x i32] [i32 2, i32 1, i32 1]"), "{ir}");
    assert!(
        ir.contains("store [3 x i32] [i32 32, i32 1, i32 1]"),
        "{ir}"
    );
    assert!(
        ir.contains("call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 2, i32 32,"),
        "{ir}"
    );
}

#[test]
fn call_metadata_overrides_the_global_and_the_code_can_be_returned() {
    let ir = lower(
        r#"
@"__offload_launch.k" = constant [9 x i64] [i64 1, i64 2, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0]
declare i32 @k(ptr dereferenceable(4))
define i32 @f(ptr %p) {
  %r = call i32 @k(ptr %p), !offload.launch !0
  ret i32 %r
}
!0 = !{i32 1, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 64, i32 0}
"#,
    );
    // The metadata's grid (not the global's teams of 2), filled field by
    // field; the runtime's code is the call's result.
    let expected = format!(
        r#"define i32 @f(ptr %p) {{
  %.offload_baseptrs = alloca [1 x ptr], align 8
  %.offload_ptrs = alloca [1 x ptr], align 8
  %1 = getelementptr inbounds [1 x ptr], ptr %.offload_baseptrs, i64 0, i64 0
  store ptr %p, ptr %1, align 8
  %2 = getelementptr inbounds [1 x ptr], ptr %.offload_ptrs, i64 0, i64 0
  store ptr %p, ptr %2, align 8
  %kernel_args = alloca %struct.__tgt_kernel_arguments, align 8
  %3 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 0
  store i32 3, ptr %3, align 4
  %4 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 1
  store i32 1, ptr %4, align 4
  %5 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 2
  store ptr %.offload_baseptrs, ptr %5, align 8
  %6 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 3
  store ptr %.offload_ptrs, ptr %6, align 8
  %7 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 4
  store ptr @.offload_sizes.k, ptr %7, align 8
  %8 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 5
  store ptr @.offload_maptypes.k, ptr %8, align 8
  %9 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 6
  store ptr null, ptr %9, align 8
  %10 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 7
  store ptr null, ptr %10, align 8
  %11 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 8
  store i64 0, ptr %11, align 8
  %12 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 9
  store i64 0, ptr %12, align 8
  %13 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 10
  store [3 x i32] [i32 5, i32 6, i32 7], ptr %13, align 4
  %14 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 11
  store [3 x i32] [i32 8, i32 9, i32 10], ptr %14, align 4
  %15 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 12
  store i32 64, ptr %15, align 4
  %k.rc = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 5, i32 8, ptr @.k.region_id.{h}, ptr %kernel_args)
  ret i32 %k.rc
}}"#,
        h = suffix()
    );
    assert_eq!(function(&ir, "f"), expected);
    assert!(
        ir.contains("@.offload_sizes.k = private unnamed_addr constant [1 x i64] [i64 4]\n"),
        "{ir}"
    );
    assert!(
        ir.contains("@.offload_maptypes.k = private unnamed_addr constant [1 x i64] [i64 35]\n"),
        "{ir}"
    );
    assert!(!ir.contains("__offload_launch_check"), "{ir}");
}

#[test]
fn errors_leave_the_module_unchanged() {
    let missing = fails(
        "declare void @nope(ptr)\ndefine void @f(ptr %p) {\n  call void @nope(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n",
    );
    assert_eq!(
        missing,
        Error::MissingKernel(MissingKernel {
            kernel: "nope".into(),
            path: image(),
            not_a_kernel: None,
            kernels: vec!["k".into(), "other".into()]
        })
    );
    let unsized_pointer = fails(
        "declare void @k(ptr)\ndefine void @f(ptr %p) {\n  call void @k(ptr %p)\n  ret void\n}\n",
    );
    assert_eq!(
        unsized_pointer,
        Error::Launch {
            kernel: "k".into(),
            caller: "f".into(),
            problem: LaunchProblem::Argument {
                index: 0,
                problem: ArgProblem::UnknownSize { described: false }
            }
        }
    );
    // The first launch is fine; the second fails: nothing may change.
    let second = fails(
        "declare void @k(ptr dereferenceable(4))\ndefine void @f(ptr %p) {\n  call void @k(ptr %p)\n  call void @k(ptr %p, i128 1)\n  ret void\n}\n",
    );
    assert_eq!(
        launch_problem(second),
        LaunchProblem::Argument {
            index: 1,
            problem: ArgProblem::IntegerTooWide { bits: 128 }
        }
    );
    let used = fails(
        "declare i64 @k(ptr dereferenceable(4))\ndefine i64 @f(ptr %p) {\n  %r = call i64 @k(ptr %p)\n  ret i64 %r\n}\n",
    );
    assert_eq!(
        launch_problem(used),
        LaunchProblem::ResultUsed { ty: "i64".into() }
    );
    let descriptor = fails(
        "@\"__offload_launch.k\" = constant [2 x i64] [i64 1, i64 0]\ndeclare void @k()\ndefine void @f() {\n  call void @k()\n  ret void\n}\n",
    );
    assert!(
        matches!(
            &descriptor,
            Error::Descriptor {
                symbol,
                problem: D::Words(P::TooShort { words: 2, .. })
            } if symbol == "__offload_launch.k"
        ),
        "{descriptor:?}"
    );
    let body = fails(
        "define void @k(ptr %p) {\n  ret void\n}\ndefine void @f(ptr %p) {\n  call void @k(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n",
    );
    assert_eq!(
        launch_problem(body),
        LaunchProblem::HasBody { callee: "k".into() }
    );
    let invoke = fails(
        "declare void @k(ptr dereferenceable(4))\ndeclare i32 @__gxx_personality_v0(...)\ndefine void @f(ptr %p) personality ptr @__gxx_personality_v0 {\n  invoke void @k(ptr %p) to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\n}\n",
    );
    assert_eq!(launch_problem(invoke), LaunchProblem::Invoke);
    let count = fails(
        "declare void @k(ptr)\ndefine void @f(ptr %p) {\n  call void @k(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 2, i64 1, i64 4, i64 0, i64 0, i64 0, i64 0}\n",
    );
    assert_eq!(
        launch_problem(count),
        LaunchProblem::CountMismatch {
            described: 2,
            passed: 1
        }
    );
}
