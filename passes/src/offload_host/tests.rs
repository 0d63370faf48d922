//! Unit tests of `offload-host` as a whole (options, classification, the
//! manifest check, registration), and the fixtures every form's tests share
//! (messages are pinned in lit, test-ir/).

use super::descriptor::map_type::*;
use super::error::LaunchProblem;
use super::*;
use crate::test_support::{build_image, build_wrapped_image, parse, run_pass};

pub const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-unknown-linux-gnu\"\n";

/// An x86_64 image with kernels `k` and `other`, built once.
pub fn image() -> String {
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
pub fn suffix() -> String {
    let digest = offload_contract::digest::image_digest(&std::fs::read(image()).unwrap());
    format!("{digest:016x}")
}

pub fn host(body: &str) -> String {
    format!("{HEADER}{body}")
}

/// The pass parameters: the image, its kernels (which have no manifest)
/// named foreign, so these tests see inference and lowering alone.
fn params() -> String {
    format!("image={};foreign=k:other", image())
}

/// Runs the pass and returns the printed module (panics on error).
pub fn lower(body: &str) -> String {
    let (changed, text) = run_pass::<OffloadHost>(&params(), &host(body)).unwrap();
    assert!(changed);
    text
}

/// Runs the pass expecting an error; checks the module is unchanged.
pub fn fails(body: &str) -> Error {
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

/// The text of function `@name` in printed module `ir`, from `define` to
/// its closing brace.
pub fn function<'a>(ir: &'a str, name: &str) -> &'a str {
    let start = ir
        .match_indices("define ")
        .map(|(at, _)| at)
        .find(|&at| {
            ir[at..]
                .lines()
                .next()
                .is_some_and(|line| line.contains(&format!(" @{name}(")))
        })
        .unwrap_or_else(|| panic!("no function @{name} in:\n{ir}"));
    let end = start + ir[start..].find("\n}\n").expect("a closing brace") + 2;
    &ir[start..end]
}

/// The problem of a launch error.
pub fn launch_problem(error: Error) -> LaunchProblem {
    match error {
        Error::Launch { problem, .. } => problem,
        other => panic!("not a launch error: {other}"),
    }
}

/// An image built through offload-wrap-kernels: kernels `scale(ptr, i32)`
/// and `step(ptr byval(%S))` with manifests, and an exported helper.
pub fn wrapped_image() -> String {
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

/// Runs the pass against [`wrapped_image`] (no `foreign=`).
pub fn run_wrapped(body: &str) -> Result<(bool, String), Error> {
    run_pass::<OffloadHost>(
        &format!("image={}", wrapped_image()),
        &format!("{HEADER}{body}"),
    )
}

fn mismatch(body: &str) -> check::Mismatch {
    match run_wrapped(body) {
        Err(Error::Launch {
            problem: LaunchProblem::Mismatch { mismatch, .. },
            ..
        }) => *mismatch,
        other => panic!("not a mismatch: {other:?}"),
    }
}

#[test]
fn rustc_map_type_rules() {
    assert_eq!(for_pointer(true, false), TO);
    assert_eq!(for_pointer(false, true), FROM);
    assert_eq!(for_pointer(false, false), TO | FROM);
    // One-call launches: clang's numbers (0x320 literal, 0x21/0x22/0x23).
    assert_eq!(kernel(LITERAL | IMPLICIT), 0x320);
    assert_eq!(
        (kernel(TO), kernel(FROM), kernel(TO | FROM)),
        (0x21, 0x22, 0x23)
    );
}

#[test]
fn options_and_their_errors() {
    let options = |text: &str| OffloadHost::parse(text.as_bytes()).map(|p| p.options);
    let o = options("image=/x.so;teams=4;threads=64;device=0;foreign=a:b;foreign=c").unwrap();
    assert_eq!(
        (o.images.as_slice(), o.teams, o.threads, o.device),
        ([std::path::PathBuf::from("/x.so")].as_slice(), 4, 64, 0)
    );
    assert_eq!(o.foreign, ["a", "b", "c"]);
    assert!(matches!(
        options("image=a;foreign=a::b"),
        Err(ParamError::Invalid { .. })
    ));
    assert_eq!(options("image=/x.so").unwrap().device, -1);
    assert!(matches!(options("imag=x"), Err(ParamError::Unknown { .. })));
    assert!(matches!(options(""), Err(ParamError::Required { .. })));
    assert!(matches!(
        options("image=a;teams=-1"),
        Err(ParamError::NotANumber { .. })
    ));
    assert!(matches!(
        options("image=a;device=-2"),
        Err(ParamError::Invalid { .. })
    ));
    // Several images, in parameter order.
    assert_eq!(
        options("image=b;teams=1;image=a").unwrap().images,
        ["b", "a"].map(std::path::PathBuf::from)
    );
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
    assert_eq!(
        options("image=a;arch=sm_80;arch=sm_90").unwrap_err(),
        ParamError::Duplicate { key: "arch" }
    );
    // Slips: one image twice, two parameters run together.
    assert_eq!(
        options("image=/k.so;image=/k.so").unwrap_err().to_string(),
        "parameter 'image': image '/k.so' is given twice; give each image once"
    );
    assert!(matches!(
        options("image=/a.so image=/b.so"),
        Err(ParamError::Joined { inner: "image", .. })
    ));
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

#[test]
fn only_manifest_kernels_are_launched() {
    // A plain call of the exported helper is not lowered.
    let (changed, _) = run_wrapped("declare void @helper(ptr)\ndefine void @f(ptr %p) {\n  call void @helper(ptr %p)\n  ret void\n}\n").unwrap();
    assert!(!changed);
    // ... and an error when marked as a launch.
    let marked = run_wrapped(
        "declare void @helper(ptr)\ndefine void @f(ptr %p) {\n  call void @helper(ptr %p), !offload.launch !0\n  ret void\n}\n!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}\n",
    );
    assert!(
        matches!(marked, Err(Error::Launch { problem: LaunchProblem::NotInManifest { ref listed, .. }, .. }) if listed == &["scale", "step"]),
        "{marked:?}"
    );
    // A manifest kernel with the right arguments is.
    let (changed, ir) = run_wrapped("declare void @scale(ptr dereferenceable(16), i32)\ndefine void @f(ptr %p) {\n  call void @scale(ptr %p, i32 4)\n  ret void\n}\n").unwrap();
    assert!(changed);
    assert!(
        ir.contains(
            "call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.scale.region_id."
        ),
        "{ir}"
    );
}

#[test]
fn launches_must_fit_the_manifest() {
    let count = mismatch(
        "declare void @scale(ptr dereferenceable(16))\ndefine void @f(ptr %p) {\n  call void @scale(ptr %p)\n  ret void\n}\n",
    );
    assert_eq!(
        count,
        check::Mismatch::Count {
            passed: 1,
            takes: vec!["ptr".into(), "i32".into()]
        }
    );
    let width = mismatch(
        "declare void @scale(ptr dereferenceable(16), i64)\ndefine void @f(ptr %p) {\n  call void @scale(ptr %p, i64 4)\n  ret void\n}\n",
    );
    assert_eq!(
        width,
        check::Mismatch::Kind {
            index: 1,
            passed: "i64".into(),
            takes: "i32".into()
        }
    );
    let kind = mismatch(
        "declare void @scale(i64, i32)\ndefine void @f() {\n  call void @scale(i64 0, i32 4)\n  ret void\n}\n",
    );
    assert!(
        matches!(kind, check::Mismatch::Kind { index: 0, .. }),
        "{kind:?}"
    );
    let size = mismatch(
        "%T = type { double, double }\ndeclare void @step(ptr byval(%T))\ndefine void @f(ptr %p) {\n  call void @step(ptr byval(%T) %p)\n  ret void\n}\n",
    );
    assert!(
        matches!(
            size,
            check::Mismatch::ByValueSize {
                index: 0,
                size: 16,
                ..
            }
        ),
        "{size:?}"
    );
    let small = mismatch(
        "declare void @step(ptr dereferenceable(8))\ndefine void @f(ptr %p) {\n  call void @step(ptr %p)\n  ret void\n}\n",
    );
    assert!(
        matches!(
            small,
            check::Mismatch::MappedTooSmall {
                index: 0,
                size: 8,
                needed: 24,
                ..
            }
        ),
        "{small:?}"
    );
    // A pointer to the struct without a size: the manifest's size, mapped TO.
    let (_, ir) = run_wrapped("declare void @step(ptr)\ndefine void @f(ptr %p) {\n  call void @step(ptr %p)\n  ret void\n}\n").unwrap();
    assert!(
        ir.contains("@.offload_sizes.step = private unnamed_addr constant [1 x i64] [i64 24]"),
        "{ir}"
    );
    assert!(
        ir.contains("@.offload_maptypes.step = private unnamed_addr constant [1 x i64] [i64 33]"),
        "{ir}"
    );
}
