use std::path::PathBuf;

use super::*;
use crate::test_support::build_wrapped_image;

const X86: &str = "x86_64-unknown-linux-gnu";
const AMDGPU: &str = "amdgcn-amd-amdhsa";

/// An image of `triple`'s kernels `kernels` (IR functions, marked as
/// kernels: `!offload.kernel` on x86_64, `amdgpu_kernel` on AMDGPU).
fn image(triple: &str, kernels: &str) -> PathBuf {
    let marked = if triple == AMDGPU {
        kernels.replace("define void", "define amdgpu_kernel void")
    } else {
        kernels.replace(") {", ") !offload.kernel !0 {")
    };
    PathBuf::from(build_wrapped_image(
        triple,
        &format!("target triple = \"{triple}\"\n{marked}!0 = !{{}}\n"),
    ))
}

const SCALE: &str = "define void @scale(ptr %p, i32 %n) {\n  ret void\n}\n";
const STEP: &str = "define void @step(ptr %p) {\n  ret void\n}\n";

fn load(paths: &[PathBuf]) -> Result<ImageSet, LoadError> {
    ImageSet::load(paths, None, &[])
}

fn differs(paths: &[PathBuf]) -> (String, Difference) {
    match load(paths) {
        Err(LoadError::Set(error)) => match *error {
            ImageSetError::KernelDiffers {
                kernel, difference, ..
            } => (kernel, difference),
            other => panic!("not a kernel difference: {other:?}"),
        },
        other => panic!("not a kernel difference: {other:?}"),
    }
}

#[test]
fn several_images_share_kernels_and_one_digest() {
    let host = image(X86, &format!("{SCALE}{STEP}"));
    // A GPU pointer in address space 1 is a pointer as the host's is.
    let gpu = image(
        AMDGPU,
        &format!("{}{STEP}", SCALE.replace("ptr %p", "ptr addrspace(1) %p")),
    );
    let set = load(&[host.clone(), gpu.clone()]).unwrap();
    assert_eq!(set.kernels(), ["scale", "step"]);
    assert_eq!(set.images().len(), 2);
    let bytes = [std::fs::read(&host).unwrap(), std::fs::read(&gpu).unwrap()];
    assert_eq!(set.digest, images_digest(&bytes));
    assert_eq!(
        set.label(),
        format!("images '{}', '{}'", host.display(), gpu.display())
    );
    // One image: its own digest and label, as without a set.
    let one = load(std::slice::from_ref(&host)).unwrap();
    assert_eq!(
        one.digest,
        offload_contract::digest::image_digest(&bytes[0])
    );
    assert_eq!(one.label(), format!("image '{}'", host.display()));
}

#[test]
fn one_image_per_target() {
    let a = image(X86, SCALE);
    let b = image(X86, &format!("{SCALE}{STEP}"));
    match load(&[a.clone(), b.clone()]) {
        Err(LoadError::Set(error)) if matches!(*error, ImageSetError::SameTarget { .. }) => {
            assert_eq!(
                error.to_string(),
                format!(
                    "images '{}' and '{}' are both for x86_64-unknown-linux-gnu: libomptarget registers the first image that fits a device and never runs the other; give one image per target",
                    a.display(),
                    b.display()
                )
            )
        }
        other => panic!("not a same-target error: {other:?}"),
    }
}

#[test]
fn a_kernel_missing_or_different_in_one_image_is_an_error() {
    let host = image(X86, &format!("{SCALE}{STEP}"));
    let gpu = |kernels: &str| image(AMDGPU, kernels);
    assert_eq!(
        differs(&[host.clone(), gpu(SCALE)]),
        ("step".into(), Difference::Missing { in_first: true })
    );
    assert_eq!(
        differs(&[gpu(SCALE), host.clone()]),
        ("step".into(), Difference::Missing { in_first: false })
    );
    let (kernel, difference) = differs(&[
        host.clone(),
        gpu(&format!(
            "{}{STEP}",
            SCALE.replace("i32 %n", "i32 %n, i32 %m")
        )),
    ]);
    assert_eq!(kernel, "scale");
    assert!(
        matches!(difference, Difference::ParamCount { ref first, ref other } if first.len() == 2 && other.len() == 3)
    );
    let (_, difference) = differs(&[
        host.clone(),
        gpu(&format!("{}{STEP}", SCALE.replace("i32 %n", "float %n"))),
    ]);
    assert_eq!(
        difference,
        Difference::Param {
            index: 1,
            first: "'i32' (slot: the value; 4 bytes)".into(),
            other: "'float' (slot: the value; 4 bytes)".into(),
        }
    );
    // A kernel named foreign= is launched unchecked: not compared.
    ImageSet::load(&[host, gpu(SCALE)], None, &["step".into()]).unwrap();
}

#[test]
fn a_manifest_in_one_image_and_kernargs_alone_in_another_differ() {
    let host = image(X86, SCALE);
    // A clang AMDGPU OpenMP kernel: no manifest, described by its
    // .amdhsa.kernels (its kernel environment marks it OpenMP).
    let gpu = PathBuf::from(crate::test_support::build_image(
        AMDGPU,
        "@scale_kernel_environment = addrspace(1) global i8 0\n\
         define amdgpu_kernel void @scale(ptr %dyn, ptr %p, i64 %n) {\n  ret void\n}\n",
        true,
    ));
    assert_eq!(
        differs(&[host.clone(), gpu.clone()]),
        (
            "scale".into(),
            Difference::Description {
                manifest_in_first: true
            }
        )
    );
    let error = load(&[gpu.clone(), host.clone()]).unwrap_err();
    let LoadError::Set(error) = error else {
        panic!("not a set error: {error:?}")
    };
    assert_eq!(
        error.to_string(),
        format!(
            "kernel 'scale' differs between image '{gpu}' (amdgcn-amd-amdhsa gfx90a) and image '{host}' (x86_64-unknown-linux-gnu): '{host}' describes it by its kernel manifest, '{gpu}' only by its .amdhsa.kernels (no manifest: run offload-wrap-kernels on its device code too); one set of launches serves every image, so all must hold the same kernels with the same parameters (build them from one source)",
            gpu = gpu.display(),
            host = host.display()
        )
    );
}
