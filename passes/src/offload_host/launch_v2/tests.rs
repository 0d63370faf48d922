//! Unit tests of the v2 launch: descriptor words, the config read at run
//! time, the digest check.

use super::DescriptorV2;
use crate::offload_host::OffloadHost;
use crate::offload_host::error::{Error, LaunchProblem};
use crate::offload_host::tests::{HEADER, function, run_wrapped, wrapped_image};
use crate::pass::ModulePass;
use crate::test_support::parse;

fn digest() -> u64 {
    offload_contract::digest::image_digest(&std::fs::read(wrapped_image()).unwrap())
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

/// The words are offload-contract's to decode (its tests cover every
/// malformed descriptor); the pass keeps the digest and the pairs.
#[test]
fn v2_descriptor_words() {
    let d = DescriptorV2::from_words(&[2, 7, 2, 3, 0, 0, 0]).unwrap();
    assert_eq!((d.digest, d.args.len(), d.args[0].map), (7, 2, 3));
    assert_eq!(d.args[0].len_arg, None);
    use crate::offload_host::descriptor::DescriptorProblem as D;
    use offload_contract::descriptor::Problem as P;
    assert!(matches!(
        DescriptorV2::from_words(&[2, 0]),
        Err(D::Words(P::TooShort { words: 2, .. }))
    ));
    assert_eq!(
        DescriptorV2::from_words(&[2, 0, 1, 3, 1 << 63]),
        Err(D::Words(P::SizeTooLarge {
            arg: 0,
            size: 1 << 63
        }))
    );
}

#[test]
fn a_launch_without_the_images_digest_is_a_warning() {
    use crate::offload_host::tests::wrapped_image;
    use crate::test_support::run_pass_with_warnings;
    let run = |digest| {
        let body = format!("{}{V2_CALL}", descriptor(&[2, digest, 2, 3, 0, 0, 0]));
        run_pass_with_warnings::<OffloadHost>(
            &format!("image={}", wrapped_image()),
            &format!("{HEADER}{body}"),
        )
        .unwrap()
        .2
    };
    assert_eq!(run(digest()), Vec::<String>::new());
    let warnings = run(0);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("launch of 'scale' in function 'f': its descriptor's image digest is 0 (not checked), so nothing ties it to image '"),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("-Cincremental"), "{warnings:?}");
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
    // The pointer's size: the config's sizes[0] when given (an entry other
    // than SIZE_NOT_GIVEN, u64::MAX; 0 in a version-2 config), known only
    // then; the literal's size is constant.
    let expected = format!(
        r#"define i32 @f(ptr %cfg, ptr %p, i32 %n) {{
  %.offload_baseptrs = alloca [2 x ptr], align 8
  %.offload_ptrs = alloca [2 x ptr], align 8
  %.offload_sizes = alloca [2 x i64], align 8
  %1 = icmp eq ptr %cfg, null
  %2 = getelementptr inbounds nuw %struct.__offload_launch_config, ptr %cfg, i32 0, i32 0
  %3 = select i1 %1, ptr @.offload_sizes.scale, ptr %2
  %config.version = load i32, ptr %3, align 4
  %4 = icmp eq i32 %config.version, 2
  %size.not_given = select i1 %4, i64 0, i64 -1
  %5 = getelementptr inbounds nuw %struct.__offload_launch_config, ptr %cfg, i32 0, i32 6
  %6 = select i1 %1, ptr @.offload_sizes.scale, ptr %5
  %config.sizes = load ptr, ptr %6, align 8
  %7 = icmp eq ptr %config.sizes, null
  %8 = or i1 %7, %1
  %9 = select i1 %8, ptr @.offload_sizes.scale, ptr %config.sizes
  %10 = xor i1 %8, true
  %11 = getelementptr inbounds [2 x ptr], ptr %.offload_baseptrs, i64 0, i64 0
  store ptr %p, ptr %11, align 8
  %12 = getelementptr inbounds [2 x ptr], ptr %.offload_ptrs, i64 0, i64 0
  store ptr %p, ptr %12, align 8
  %13 = getelementptr inbounds [2 x i64], ptr %9, i64 0, i64 0
  %14 = load i64, ptr %13, align 8
  %15 = icmp ne i64 %14, %size.not_given
  %16 = and i1 %10, %15
  %17 = select i1 %16, i64 %14, i64 0
  %18 = and i1 true, %16
  %19 = getelementptr inbounds [2 x i64], ptr %.offload_sizes, i64 0, i64 0
  store i64 %17, ptr %19, align 8
  %20 = zext i32 %n to i64
  %21 = inttoptr i64 %20 to ptr
  %22 = getelementptr inbounds [2 x ptr], ptr %.offload_baseptrs, i64 0, i64 1
  store ptr %21, ptr %22, align 8
  %23 = getelementptr inbounds [2 x ptr], ptr %.offload_ptrs, i64 0, i64 1
  store ptr %21, ptr %23, align 8
  %24 = getelementptr inbounds [2 x i64], ptr %.offload_sizes, i64 0, i64 1
  store i64 4, ptr %24, align 8
  %scale.rc = call i32 @__offload_run_launch2(ptr %cfg, ptr @.scale.region_id.{h:016x}, i32 2, ptr %.offload_baseptrs, ptr %.offload_ptrs, ptr %.offload_sizes, ptr @.offload_maptypes.scale, i1 %18)
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
