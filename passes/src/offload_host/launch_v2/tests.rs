//! Unit tests of the v2 launch: descriptor words, the config read at run
//! time, the digest check.

use super::DescriptorV2;
use crate::offload_host::error::{Error, LaunchProblem};
use crate::offload_host::tests::{HEADER, function, run_wrapped, wrapped_image};
use crate::offload_host::{OffloadHost, image};
use crate::pass::ModulePass;
use crate::test_support::parse;

fn digest() -> u64 {
    image::DeviceImage::load(std::path::Path::new(&wrapped_image()))
        .unwrap()
        .digest
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
    assert_eq!(
        DescriptorV2::from_words(&[2, 0]),
        Err(D::TooShortV2 { words: 2 })
    );
    assert_eq!(
        DescriptorV2::from_words(&[1, 0, 0]),
        Err(D::Version {
            version: 1,
            supported: 2
        })
    );
    assert!(matches!(
        DescriptorV2::from_words(&[2, 0, 1]),
        Err(D::WordCount { unit: "pairs", .. })
    ));
    assert!(matches!(
        DescriptorV2::from_words(&[2, 0, 1, 0x80, 0]),
        Err(D::MapBits { .. })
    ));
}

#[test]
fn v2_launch_reads_its_config_at_run_time() {
    // The pointer's size is the config's (SIZE 0, no attribute).
    let (changed, ir) = run_wrapped(&format!(
        "{}{V2_CALL}",
        descriptor(&[2, digest(), 2, 3, 0, 0, 0])
    ))
    .unwrap();
    assert!(changed);
    // The pointer's size: the config's sizes[0] (the constant 0 without a
    // config or sizes), known when not 0; the literal's size is constant.
    let expected = format!(
        r#"define i32 @f(ptr %cfg, ptr %p, i32 %n) {{
  %.offload_baseptrs = alloca [2 x ptr], align 8
  %.offload_ptrs = alloca [2 x ptr], align 8
  %.offload_sizes = alloca [2 x i64], align 8
  %1 = icmp eq ptr %cfg, null
  %2 = getelementptr inbounds nuw %struct.__offload_launch_config, ptr %cfg, i32 0, i32 6
  %3 = select i1 %1, ptr @.offload_sizes.scale, ptr %2
  %config.sizes = load ptr, ptr %3, align 8
  %4 = icmp eq ptr %config.sizes, null
  %5 = or i1 %4, %1
  %6 = select i1 %5, ptr @.offload_sizes.scale, ptr %config.sizes
  %7 = getelementptr inbounds [2 x ptr], ptr %.offload_baseptrs, i64 0, i64 0
  store ptr %p, ptr %7, align 8
  %8 = getelementptr inbounds [2 x ptr], ptr %.offload_ptrs, i64 0, i64 0
  store ptr %p, ptr %8, align 8
  %9 = getelementptr inbounds [2 x i64], ptr %6, i64 0, i64 0
  %10 = load i64, ptr %9, align 8
  %11 = icmp eq i64 %10, 0
  %12 = select i1 %11, i64 0, i64 %10
  %13 = icmp ne i64 %12, 0
  %14 = and i1 true, %13
  %15 = getelementptr inbounds [2 x i64], ptr %.offload_sizes, i64 0, i64 0
  store i64 %12, ptr %15, align 8
  %16 = zext i32 %n to i64
  %17 = inttoptr i64 %16 to ptr
  %18 = getelementptr inbounds [2 x ptr], ptr %.offload_baseptrs, i64 0, i64 1
  store ptr %17, ptr %18, align 8
  %19 = getelementptr inbounds [2 x ptr], ptr %.offload_ptrs, i64 0, i64 1
  store ptr %17, ptr %19, align 8
  %20 = getelementptr inbounds [2 x i64], ptr %.offload_sizes, i64 0, i64 1
  store i64 4, ptr %20, align 8
  %scale.rc = call i32 @__offload_run_launch2(ptr %cfg, ptr @.scale.region_id.{h:016x}, i32 2, ptr %.offload_baseptrs, ptr %.offload_ptrs, ptr %.offload_sizes, ptr @.offload_maptypes.scale, i1 %14)
  ret i32 %scale.rc
}}"#,
        h = digest()
    );
    assert_eq!(function(&ir, "f"), expected);
    assert!(
        ir.contains(
            "@.offload_sizes.scale = private unnamed_addr constant [2 x i64] [i64 0, i64 4]\n"
        ),
        "{ir}"
    );
    assert!(ir.contains("define internal i32 @__offload_run_launch2(ptr %config, ptr %region_id, i32 %count, ptr %baseptrs, ptr %ptrs, ptr %sizes, ptr %maptypes, i1 %sizes_known) {\n"), "{ir}");
    assert!(!ir.contains("__offload_launch2.scale\"(ptr"), "{ir}");
    // Digest 0 is not checked; another digest is an error.
    run_wrapped(&format!("{}{V2_CALL}", descriptor(&[2, 0, 2, 3, 0, 0, 0]))).unwrap();
    let stale = run_wrapped(&format!("{}{V2_CALL}", descriptor(&[2, 1, 2, 3, 0, 0, 0])));
    assert!(
        matches!(
            stale,
            Err(Error::Launch {
                problem: LaunchProblem::Digest { descriptor: 1, .. },
                ..
            })
        ),
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
            problem: LaunchProblem::CountMismatch {
                described: 1,
                passed: 2
            },
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
    assert!(
        matches!(
            error,
            Error::Launch {
                problem: LaunchProblem::NotInManifest { .. },
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(module.print_to_string().to_string(), before);
}
