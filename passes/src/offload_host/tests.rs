//! Unit tests of `offload-host` (messages are pinned in lit, test-ir/).

use super::contract::DescriptorProblem as D;
use super::image::MissingKernel;
use super::map_type::*;
use super::*;
use crate::test_support::{build_image, parse, run_pass};

const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-unknown-linux-gnu\"\n";

/// An x86_64 image with kernels `k` and `other`, built once.
fn image() -> String {
    static IMAGE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IMAGE
        .get_or_init(|| {
            build_image(
                "x86_64-unknown-linux-gnu",
                "define void @k(ptr %d, ptr %a, i64 %n) { ret void }\ndefine void @other(ptr %d) { ret void }\n",
                true,
            )
        })
        .clone()
}

/// The image's digest suffix.
fn suffix() -> String {
    image::DeviceImage::load(std::path::Path::new(&image())).unwrap().digest_suffix()
}

fn host(body: &str) -> String {
    format!("{HEADER}{body}")
}

/// The pass parameters: the image, its kernels (which have no manifest)
/// named foreign, so these tests see inference and lowering alone.
fn params() -> String {
    format!("image={};foreign=k:other", image())
}

/// Runs the pass and returns the printed module (panics on error).
fn lower(body: &str) -> String {
    let (changed, text) = run_pass::<OffloadHost>(&params(), &host(body)).unwrap();
    assert!(changed);
    text
}

/// Runs the pass expecting an error; checks the module is unchanged.
fn fails(body: &str) -> Error {
    let context = inkwell::context::Context::create();
    let module = parse(&context, &host(body));
    let before = module.print_to_string().to_string();
    let pass = OffloadHost::parse(params().as_bytes()).unwrap();
    let error = pass.run(&module, &mut Default::default()).unwrap_err();
    assert_eq!(
        module.print_to_string().to_string(),
        before,
        "module changed on error"
    );
    error
}

#[test]
fn rustc_map_type_rules() {
    assert_eq!(for_pointer(true, false), TO);
    assert_eq!(for_pointer(false, true), FROM);
    assert_eq!(for_pointer(false, false), TO | FROM);
    // One-call launches: clang's numbers (0x320 literal, 0x21/0x22/0x23).
    assert_eq!(kernel(LITERAL | IMPLICIT), 0x320);
    assert_eq!((kernel(TO), kernel(FROM), kernel(TO | FROM)), (0x21, 0x22, 0x23));
}

#[test]
fn options_and_their_errors() {
    let options = |text: &str| OffloadHost::parse(text.as_bytes()).map(|p| p.options);
    let o = options("image=/x.so;teams=4;threads=64;device=0;foreign=a:b;foreign=c").unwrap();
    assert_eq!((o.image.to_str().unwrap(), o.teams, o.threads, o.device), ("/x.so", 4, 64, 0));
    assert_eq!(o.foreign, ["a", "b", "c"]);
    assert!(matches!(options("image=a;foreign=a::b"), Err(ParamError::Invalid { .. })));
    assert_eq!(options("image=/x.so").unwrap().device, -1);
    assert!(matches!(options("imag=x"), Err(ParamError::Unknown { .. })));
    assert!(matches!(options(""), Err(ParamError::Required { .. })));
    assert!(matches!(options("image=a;teams=-1"), Err(ParamError::NotANumber { .. })));
    assert!(matches!(options("image=a;device=-2"), Err(ParamError::Invalid { .. })));
    assert_eq!(options("image=a;image=b").unwrap_err(), ParamError::Duplicate { key: "image" });
    assert_eq!(options("image=/x.so").unwrap().arch, None);
    let arch = options("image=/x.cubin;arch=sm_90a").unwrap().arch.unwrap();
    assert_eq!((arch.sm, arch.accelerated), (90, true));
    assert_eq!(
        options("image=a;arch=90").unwrap_err(),
        ParamError::Invalid {
            key: "arch".into(),
            why: "'90' is not an NVIDIA GPU architecture like sm_90 or sm_90a".into()
        }
    );
    assert_eq!(options("image=a;arch=sm_80;arch=sm_90").unwrap_err(), ParamError::Duplicate { key: "arch" });
}

#[test]
fn descriptor_words() {
    let d = LaunchDescriptor::from_words(&[1, 4, 2, 1, 64, 1, 1, 128, 2, 3, 4, 2, 0, 0, 0])
        .unwrap();
    assert_eq!(
        (d.teams, d.threads, d.dyn_cgroup_mem),
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
    assert_eq!(err(&[1, 0, 0]), D::TooShort { words: 3 });
    assert_eq!(err(&[2, 0, 0, 0, 0, 0, 0, 0, 0]), D::Version { version: 2, supported: 1 });
    assert_eq!(
        err(&[1, 0, 0, 0, 0, 0, 0, 0, 1]),
        D::WordCount {
            count: 1,
            expected: 12,
            words: 9,
            unit: "triples"
        }
    );
    assert_eq!(err(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 0x80, 0, 0]), D::MapBits { arg: 0, map: 0x80 });
    assert_eq!(
        err(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 0x101, 0, 0]),
        D::LiteralAndMapped { arg: 0, map: 0x101 }
    );
    assert_eq!(
        err(&[1, 1 << 40, 0, 0, 0, 0, 0, 0, 0]),
        D::TooLarge {
            what: "teams",
            value: 1 << 40
        }
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
    assert!(ir.contains("@.offload_maptypes.k = private unnamed_addr constant [2 x i64] [i64 33, i64 800]"), "{ir}");
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
    assert!(ir.contains("store [3 x i32] [i32 5, i32 6, i32 7]"), "{ir}");
    assert!(
        ir.contains("store [3 x i32] [i32 8, i32 9, i32 10]"),
        "{ir}"
    );
    assert!(ir.contains("store i32 64"), "{ir}");
    assert!(ir.contains("ret i32 %k.rc"), "{ir}");
    assert!(!ir.contains("__offload_launch_check"), "{ir}");
}

#[test]
fn data_region_calls_lower_to_mappers() {
    let ir = lower(
        r#"
declare void @__offload_data_begin(ptr, i64, i64)
declare void @__offload_data_update(ptr, i64, i64)
declare void @__offload_data_end(ptr, i64, i64)
define void @f(ptr %p, i64 %n) {
  call void @__offload_data_begin(ptr %p, i64 %n, i64 3)
  call void @__offload_data_update(ptr %p, i64 %n, i64 2)
  call void @__offload_data_end(ptr %p, i64 %n, i64 3)
  ret void
}
"#,
    );
    for mapper in ["begin", "update", "end"] {
        assert!(
            ir.contains(&format!(
                "call void @__tgt_target_data_{mapper}_mapper(ptr null, i64 -1, i32 1,"
            )),
            "{ir}"
        );
    }
    assert!(ir.contains("store i64 3, ptr %.offload_maptypes"), "{ir}");
    assert!(!ir.contains("call void @__offload_data"), "{ir}");
}

#[test]
fn a_module_without_launches_is_untouched() {
    let body = "declare void @printf(ptr)\ndefine void @f() {\n  call void @printf(ptr null)\n  ret void\n}\n";
    let (changed, text) = run_pass::<OffloadHost>(&params(), &host(body)).unwrap();
    assert!(!changed);
    assert!(
        !text.contains("openmp") && !text.contains("offloading"),
        "{text}"
    );
}

/// The problem of a launch error.
fn launch_problem(error: Error) -> LaunchProblem {
    match error {
        Error::Launch { problem, .. } => problem,
        other => panic!("not a launch error: {other}"),
    }
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
    let unsized_pointer = fails("declare void @k(ptr)\ndefine void @f(ptr %p) {\n  call void @k(ptr %p)\n  ret void\n}\n");
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
    let used = fails("declare i64 @k(ptr dereferenceable(4))\ndefine i64 @f(ptr %p) {\n  %r = call i64 @k(ptr %p)\n  ret i64 %r\n}\n");
    assert_eq!(launch_problem(used), LaunchProblem::ResultUsed { ty: "i64".into() });
    let descriptor = fails(
        "@\"__offload_launch.k\" = constant [2 x i64] [i64 1, i64 0]\ndeclare void @k()\ndefine void @f() {\n  call void @k()\n  ret void\n}\n",
    );
    assert_eq!(
        descriptor,
        Error::Descriptor {
            symbol: "__offload_launch.k".into(),
            problem: D::TooShort { words: 2 }
        }
    );
    let body = fails(
        "define void @k(ptr %p) {\n  ret void\n}\ndefine void @f(ptr %p) {\n  call void @k(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n",
    );
    assert_eq!(launch_problem(body), LaunchProblem::HasBody { callee: "k".into() });
    let invoke = fails(
        "declare void @k(ptr dereferenceable(4))\ndeclare i32 @__gxx_personality_v0(...)\ndefine void @f(ptr %p) personality ptr @__gxx_personality_v0 {\n  invoke void @k(ptr %p) to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\n}\n",
    );
    assert_eq!(launch_problem(invoke), LaunchProblem::Invoke);
    let count = fails(
        "declare void @k(ptr)\ndefine void @f(ptr %p) {\n  call void @k(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 2, i64 1, i64 4, i64 0, i64 0, i64 0, i64 0}\n",
    );
    assert_eq!(launch_problem(count), LaunchProblem::CountMismatch { described: 2, passed: 1 });
    let data = fails(
        "declare void @__offload_data_begin(ptr, i64)\ndefine void @f(ptr %p) {\n  call void @__offload_data_begin(ptr %p, i64 4)\n  ret void\n}\n",
    );
    assert!(matches!(data, Error::DataCall { problem: DataCallProblem::Shape, .. }), "{data}");
}

#[test]
fn existing_constructors_are_kept() {
    let ir = lower(
        r#"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
declare void @k(ptr dereferenceable(4))
define void @init() {
  ret void
}
define void @f(ptr %p) {
  call void @k(ptr %p)
  ret void
}
"#,
    );
    let h = suffix();
    assert!(ir.contains(&format!("@llvm.global_ctors = appending global [2 x {{ i32, ptr, ptr }}] [{{ i32, ptr, ptr }} {{ i32 65535, ptr @init, ptr null }}, {{ i32, ptr, ptr }} {{ i32 101, ptr @.omp_offloading.descriptor_reg.{h}, ptr @.omp_offloading.device_image.{h} }}]")), "{ir}");
}
