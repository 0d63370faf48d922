//! Unit tests of the launch contract's checks (the kernel manifest) and of
//! the v2 call form (messages are pinned in lit, test-ir/).

use super::check::Mismatch;
use super::contract_v2::DescriptorV2;
use super::*;
use crate::test_support::{build_wrapped_image, parse, run_pass};

const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-unknown-linux-gnu\"\n";

/// An image built through offload-wrap-kernels: kernels `scale(ptr, i32)`
/// and `step(ptr byval(%S))` with manifests, and an exported helper.
fn image() -> String {
    static IMAGE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IMAGE
        .get_or_init(|| {
            build_wrapped_image(
                "x86_64-unknown-linux-gnu",
                &format!(
                    "{HEADER}%S = type {{ [3 x double] }}\n\
                     define void @scale(ptr %p, i32 %n) !offload.kernel !0 {{\n  ret void\n}}\n\
                     define void @step(ptr byval(%S) %s) !offload.kernel !0 {{\n  ret void\n}}\n\
                     define void @helper(ptr %p) {{\n  ret void\n}}\n!0 = !{{}}\n"
                ),
            )
        })
        .clone()
}

fn digest() -> u64 {
    image::DeviceImage::load(std::path::Path::new(&image())).unwrap().digest
}

fn run(body: &str) -> Result<(bool, String), Error> {
    run_pass::<OffloadHost>(&format!("image={}", image()), &format!("{HEADER}{body}"))
}

fn mismatch(body: &str) -> Mismatch {
    match run(body) {
        Err(Error::Launch {
            problem: LaunchProblem::Mismatch { mismatch, .. },
            ..
        }) => *mismatch,
        other => panic!("not a mismatch: {other:?}"),
    }
}

#[test]
fn only_manifest_kernels_are_launched() {
    // A plain call of the exported helper is not lowered.
    let (changed, _) = run("declare void @helper(ptr)\ndefine void @f(ptr %p) {\n  call void @helper(ptr %p)\n  ret void\n}\n").unwrap();
    assert!(!changed);
    // ... and an error when marked as a launch.
    let marked = run("declare void @helper(ptr)\ndefine void @f(ptr %p) {\n  call void @helper(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n");
    assert!(
        matches!(marked, Err(Error::Launch { problem: LaunchProblem::NotInManifest { ref listed, .. }, .. }) if listed == &["scale", "step"]),
        "{marked:?}"
    );
    // A manifest kernel with the right arguments is.
    let (changed, ir) = run("declare void @scale(ptr dereferenceable(16), i32)\ndefine void @f(ptr %p) {\n  call void @scale(ptr %p, i32 4)\n  ret void\n}\n").unwrap();
    assert!(changed);
    assert!(ir.contains("call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.scale.region_id."), "{ir}");
}

#[test]
fn launches_must_fit_the_manifest() {
    let count = mismatch("declare void @scale(ptr dereferenceable(16))\ndefine void @f(ptr %p) {\n  call void @scale(ptr %p)\n  ret void\n}\n");
    assert_eq!(
        count,
        Mismatch::Count {
            passed: 1,
            takes: vec!["ptr".into(), "i32".into()]
        }
    );
    let width = mismatch("declare void @scale(ptr dereferenceable(16), i64)\ndefine void @f(ptr %p) {\n  call void @scale(ptr %p, i64 4)\n  ret void\n}\n");
    assert_eq!(
        width,
        Mismatch::Kind {
            index: 1,
            passed: "i64".into(),
            takes: "i32".into()
        }
    );
    let kind = mismatch("declare void @scale(i64, i32)\ndefine void @f() {\n  call void @scale(i64 0, i32 4)\n  ret void\n}\n");
    assert!(matches!(kind, Mismatch::Kind { index: 0, .. }), "{kind:?}");
    let size = mismatch("%T = type { double, double }\ndeclare void @step(ptr byval(%T))\ndefine void @f(ptr %p) {\n  call void @step(ptr byval(%T) %p)\n  ret void\n}\n");
    assert!(matches!(size, Mismatch::ByValueSize { index: 0, size: 16, .. }), "{size:?}");
    let small = mismatch("declare void @step(ptr dereferenceable(8))\ndefine void @f(ptr %p) {\n  call void @step(ptr %p)\n  ret void\n}\n");
    assert!(matches!(small, Mismatch::MappedTooSmall { index: 0, size: 8, needed: 24, .. }), "{small:?}");
    // A pointer to the struct without a size: the manifest's size, mapped TO.
    let (_, ir) = run("declare void @step(ptr)\ndefine void @f(ptr %p) {\n  call void @step(ptr %p)\n  ret void\n}\n").unwrap();
    assert!(ir.contains("@.offload_sizes.step = private unnamed_addr constant [1 x i64] [i64 24]"), "{ir}");
    assert!(ir.contains("@.offload_maptypes.step = private unnamed_addr constant [1 x i64] [i64 33]"), "{ir}");
}

/// A v2 descriptor global of `words`.
fn descriptor(words: &[u64]) -> String {
    let words: Vec<String> = words.iter().map(|w| format!("i64 {w}")).collect();
    format!(
        "@desc = private unnamed_addr constant [{} x i64] [{}]\n",
        words.len(),
        words.join(", ")
    )
}

const V2_CALL: &str = "declare i32 @\"__offload_launch2.scale\"(ptr, ptr, ptr, i32)\ndefine i32 @f(ptr %cfg, ptr %p, i32 %n) {\n  %r = call i32 @\"__offload_launch2.scale\"(ptr @desc, ptr %cfg, ptr %p, i32 %n)\n  ret i32 %r\n}\n";

#[test]
fn v2_descriptor_words() {
    let d = DescriptorV2::from_words(&[2, 7, 2, 3, 0, 0, 0]).unwrap();
    assert_eq!((d.digest, d.args.len(), d.args[0].map), (7, 2, 3));
    use super::contract::DescriptorProblem as D;
    assert_eq!(DescriptorV2::from_words(&[2, 0]), Err(D::TooShortV2 { words: 2 }));
    assert_eq!(DescriptorV2::from_words(&[1, 0, 0]), Err(D::Version { version: 1, supported: 2 }));
    assert!(matches!(DescriptorV2::from_words(&[2, 0, 1]), Err(D::WordCount { unit: "pairs", .. })));
    assert!(matches!(DescriptorV2::from_words(&[2, 0, 1, 0x80, 0]), Err(D::MapBits { .. })));
}

#[test]
fn v2_launch_reads_its_config_at_run_time() {
    // The pointer's size is the config's (SIZE 0, no attribute).
    let (changed, ir) = run(&format!("{}{V2_CALL}", descriptor(&[2, digest(), 2, 3, 0, 0, 0]))).unwrap();
    assert!(changed);
    assert!(ir.contains("call i32 @__offload_run_launch2(ptr %cfg, ptr @.scale.region_id."), "{ir}");
    assert!(ir.contains("define internal i32 @__offload_run_launch2("), "{ir}");
    assert!(ir.contains("%config.sizes = load ptr, ptr"), "{ir}");
    assert!(ir.contains("ret i32 %scale.rc"), "{ir}");
    assert!(!ir.contains("__offload_launch2.scale\"(ptr"), "{ir}");
    // Digest 0 is not checked; another digest is an error.
    run(&format!("{}{V2_CALL}", descriptor(&[2, 0, 2, 3, 0, 0, 0]))).unwrap();
    let stale = run(&format!("{}{V2_CALL}", descriptor(&[2, 1, 2, 3, 0, 0, 0])));
    assert!(
        matches!(stale, Err(Error::Launch { problem: LaunchProblem::Digest { descriptor: 1, .. }, .. })),
        "{stale:?}"
    );
    // The descriptor must be a constant global of the module.
    let loaded = "declare i32 @\"__offload_launch2.scale\"(ptr, ptr, ptr, i32)\ndefine i32 @f(ptr %d, ptr %cfg, ptr %p, i32 %n) {\n  %r = call i32 @\"__offload_launch2.scale\"(ptr %d, ptr %cfg, ptr %p, i32 %n)\n  ret i32 %r\n}\n";
    assert!(matches!(
        run(loaded),
        Err(Error::Launch {
            problem: LaunchProblem::DescriptorNotGlobal { .. },
            ..
        })
    ));
    // Its argument count is the call's.
    let short = run(&format!("{}{V2_CALL}", descriptor(&[2, 0, 1, 3, 0])));
    assert!(matches!(
        short,
        Err(Error::Launch {
            problem: LaunchProblem::CountMismatch { described: 1, passed: 2 },
            ..
        })
    ));
}

#[test]
fn v2_launch_of_no_kernel_is_an_error_and_the_module_unchanged() {
    let body = format!(
        "{HEADER}{}declare i32 @\"__offload_launch2.helper\"(ptr, ptr, ptr)\ndefine i32 @f(ptr %cfg, ptr %p) {{\n  %r = call i32 @\"__offload_launch2.helper\"(ptr @desc, ptr %cfg, ptr %p)\n  ret i32 %r\n}}\n",
        descriptor(&[2, 0, 1, 3, 0])
    );
    let context = inkwell::context::Context::create();
    let module = parse(&context, &body);
    let before = module.print_to_string().to_string();
    let pass = OffloadHost::parse(format!("image={}", image()).as_bytes()).unwrap();
    let error = pass.run(&module, &mut Default::default()).unwrap_err();
    assert!(matches!(error, Error::Launch { problem: LaunchProblem::NotInManifest { .. }, .. }), "{error}");
    assert_eq!(module.print_to_string().to_string(), before);
}
