//! Unit tests of the v2 launch: descriptor words, the config read at run
//! time, the digest check.

use super::DescriptorV2;
use crate::offload_host::tests::{HEADER, run_wrapped, wrapped_image};
use crate::offload_host::{Error, LaunchProblem, OffloadHost, image};
use crate::pass::ModulePass;
use crate::test_support::parse;

fn digest() -> u64 {
    image::DeviceImage::load(std::path::Path::new(&wrapped_image())).unwrap().digest
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
    use crate::offload_host::contract::DescriptorProblem as D;
    assert_eq!(DescriptorV2::from_words(&[2, 0]), Err(D::TooShortV2 { words: 2 }));
    assert_eq!(DescriptorV2::from_words(&[1, 0, 0]), Err(D::Version { version: 1, supported: 2 }));
    assert!(matches!(DescriptorV2::from_words(&[2, 0, 1]), Err(D::WordCount { unit: "pairs", .. })));
    assert!(matches!(DescriptorV2::from_words(&[2, 0, 1, 0x80, 0]), Err(D::MapBits { .. })));
}

#[test]
fn v2_launch_reads_its_config_at_run_time() {
    // The pointer's size is the config's (SIZE 0, no attribute).
    let (changed, ir) = run_wrapped(&format!("{}{V2_CALL}", descriptor(&[2, digest(), 2, 3, 0, 0, 0]))).unwrap();
    assert!(changed);
    assert!(ir.contains("call i32 @__offload_run_launch2(ptr %cfg, ptr @.scale.region_id."), "{ir}");
    assert!(ir.contains("define internal i32 @__offload_run_launch2("), "{ir}");
    assert!(ir.contains("%config.sizes = load ptr, ptr"), "{ir}");
    assert!(ir.contains("ret i32 %scale.rc"), "{ir}");
    assert!(!ir.contains("__offload_launch2.scale\"(ptr"), "{ir}");
    // Digest 0 is not checked; another digest is an error.
    run_wrapped(&format!("{}{V2_CALL}", descriptor(&[2, 0, 2, 3, 0, 0, 0]))).unwrap();
    let stale = run_wrapped(&format!("{}{V2_CALL}", descriptor(&[2, 1, 2, 3, 0, 0, 0])));
    assert!(
        matches!(stale, Err(Error::Launch { problem: LaunchProblem::Digest { descriptor: 1, .. }, .. })),
        "{stale:?}"
    );
    // The descriptor must be a constant global of the module.
    let loaded = "declare i32 @\"__offload_launch2.scale\"(ptr, ptr, ptr, i32)\ndefine i32 @f(ptr %d, ptr %cfg, ptr %p, i32 %n) {\n  %r = call i32 @\"__offload_launch2.scale\"(ptr %d, ptr %cfg, ptr %p, i32 %n)\n  ret i32 %r\n}\n";
    assert!(matches!(
        run_wrapped(loaded),
        Err(Error::Launch {
            problem: LaunchProblem::DescriptorNotGlobal { .. },
            ..
        })
    ));
    // Its argument count is the call's.
    let short = run_wrapped(&format!("{}{V2_CALL}", descriptor(&[2, 0, 1, 3, 0])));
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
    let pass = OffloadHost::parse(format!("image={}", wrapped_image()).as_bytes()).unwrap();
    let error = pass.run(&module, &mut Default::default()).unwrap_err();
    assert!(matches!(error, Error::Launch { problem: LaunchProblem::NotInManifest { .. }, .. }), "{error}");
    assert_eq!(module.print_to_string().to_string(), before);
}
