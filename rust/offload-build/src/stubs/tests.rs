//! The stub module's tests: what it exports, its descriptors, its SAFETY comments.

use offload_contract::record::NO_IMAGE_RULE;

use super::compile::pipeline;
use super::descriptor::{descriptor, direct_descriptor};
use super::exports::targets_text;
use super::safety::SAFETY_MARKER;
use super::*;
use crate::Image;
use crate::image::{Arg, ArgKind};

fn saxpy() -> Kernel {
    let scalar = |kind, size| Arg {
        kind,
        map: 0x300,
        size,
        len_arg: None,
        layout: size,
    };
    Kernel {
        symbol: "saxpy".into(),
        hash: 0xab,
        args: vec![
            scalar(ArgKind::Float, 4),
            Arg {
                kind: ArgKind::Pointer,
                map: 1,
                size: 4,
                len_arg: Some(2),
                layout: 4,
            },
            scalar(ArgKind::Int, 8),
            Arg {
                kind: ArgKind::Pointer,
                map: 2,
                size: 24,
                len_arg: None,
                layout: 24,
            },
        ],
        features: 3,
        crate_name: "kernels".into(),
    }
}

#[test]
fn v1_descriptor() {
    assert_eq!(
        descriptor(&saxpy(), Contract::V1, 9),
        [
            1, 0, 1, 1, 0, 1, 1, 0, 4, 0, 0, 0, 1, 4, 3, 0, 0, 0, 2, 24, 0
        ]
    );
}

#[test]
fn v2_descriptor() {
    assert_eq!(
        descriptor(&saxpy(), Contract::V2, 9),
        [2, 9, 4, 0, 0, 1, 0, 0, 0, 2, 24]
    );
}

/// The generated source's items of kind `T` (also inside `extern`
/// blocks), as token text without the trailing commas of lists that
/// prettyplease wrapped.
fn items<T: syn::parse::Parse + quote::ToTokens>(source: &str) -> Vec<String> {
    let file = syn::parse_file(source).expect("the stubs parse");
    let mut all = Vec::new();
    for item in &file.items {
        match item {
            syn::Item::ForeignMod(block) => all.extend(block.items.iter().map(|f| quote!(#f))),
            item => all.push(quote!(#item)),
        }
    }
    all.into_iter()
        .filter_map(|tokens| syn::parse2::<T>(tokens).ok())
        .map(|item| {
            quote!(#item)
                .to_string()
                .replace(" ,)", ")")
                .replace(" ,]", "]")
        })
        .collect()
}

fn image(path: &str) -> Image {
    Image {
        target: crate::Target::Host,
        path: path.into(),
        size: 0,
        digest: 9,
        kernels: vec![saxpy()],
    }
}

#[test]
fn every_image_is_a_parameter_of_offload_host() {
    assert_eq!(
        pipeline(&[
            image("/o/libk.so"),
            image("/o/k.gfx90a.elf"),
            image("/o/a;b.cubin")
        ]),
        "-Cpasses=offload-host<image=/o/libk.so;image=/o/k.gfx90a.elf;image=/o/a%3Bb.cubin>"
    );
}

#[test]
fn v2_stubs_launch_through_launch2() {
    let v2 = source(&image("i.so").kernels, 9, Contract::V2, "host");
    assert!(v2.starts_with(HEADER));
    let declarations = items::<syn::ForeignItemFn>(&v2);
    let launch = quote! {
        #[link_name = "__offload_launch2.saxpy"]
        fn k0(d: *const u64, c: *const u8, a0: f32, a1: *mut u8, a2: u64, a3: *mut u8) -> i32;
    };
    assert!(declarations.contains(&launch.to_string()), "{v2}");
    let stub = quote! {
        #[doc = " Launches kernel `saxpy`."]
        #[unsafe(export_name = "__offload_rs_launch.saxpy.00000000000000ab")]
        pub unsafe extern "C" fn s0(config: *const u8, args: *const u64) -> i32 {
            if unsafe { no_such_device(config) } {
                return NO_SUCH_DEVICE;
            }
            unsafe {
                k0(
                    &D0 as *const [u64; 11] as *const u64,
                    config,
                    f32::from_bits(*args.add(0) as u32),
                    *args.add(1) as *mut u8,
                    *args.add(2) as u64,
                    *args.add(3) as *mut u8
                )
            }
        }
    };
    assert!(
        items::<syn::ItemFn>(&v2).contains(&stub.to_string()),
        "{v2}"
    );
    let consts = items::<syn::ItemConst>(&v2);
    for named in [
        quote!(
            const D0: [u64; 11] = [2, 9, 4, 0, 0, 1, 0, 0, 0, 2, 24];
        ),
        quote!(
            const NO_SUCH_DEVICE: i32 = -100;
        ),
        quote!(
            const DEVICE_OFFSET: usize = 40;
        ),
        quote!(
            const DEFAULT_DEVICE: i64 = -1;
        ),
    ] {
        assert!(
            consts.iter().any(|c| c.ends_with(&named.to_string())),
            "{named} in {v2}"
        );
    }
}

#[test]
fn v2_direct_stubs_pass_pointers_literal() {
    assert_eq!(
        direct_descriptor(&saxpy(), 9),
        [2, 9, 4, 0, 0, 0x100, 0, 0, 0, 0x100, 0]
    );
    let v2 = source(&image("i.so").kernels, 9, Contract::V2, "host");
    let stub = quote! {
        #[doc = " Launches kernel `saxpy` on device addresses (nothing mapped)."]
        #[unsafe(export_name = "__offload_rs_direct.saxpy.00000000000000ab")]
        pub unsafe extern "C" fn d0(config: *const u8, args: *const u64) -> i32 {
            if unsafe { no_such_device(config) } {
                return NO_SUCH_DEVICE;
            }
            unsafe {
                k0(
                    &E0 as *const [u64; 11] as *const u64,
                    config,
                    f32::from_bits(*args.add(0) as u32),
                    *args.add(1) as *mut u8,
                    *args.add(2) as u64,
                    *args.add(3) as *mut u8
                )
            }
        }
    };
    assert!(
        items::<syn::ItemFn>(&v2).contains(&stub.to_string()),
        "{v2}"
    );
    // v1 has one descriptor per kernel: its direct stub refuses.
    let v1 = source(&image("i.so").kernels, 9, Contract::V1, "host");
    assert!(v1.contains("__offload_rs_direct.saxpy.00000000000000ab") && v1.contains("-106"));
}

#[test]
fn v1_stubs_call_the_kernel_with_a_descriptor_global() {
    let v1 = source(&image("i.so").kernels, 9, Contract::V1, "host");
    let launch = quote! {
        #[link_name = "saxpy"]
        fn k0(a0: f32, a1: *mut u8, a2: u64, a3: *mut u8) -> i32;
    };
    assert!(
        items::<syn::ForeignItemFn>(&v1).contains(&launch.to_string()),
        "{v1}"
    );
    let descriptor = quote! {
        #[unsafe(export_name = "__offload_launch.saxpy")]
        pub static D0: [u64; 21] = [1, 0, 1, 1, 0, 1, 1, 0, 4, 0, 0, 0, 1, 4, 3, 0, 0, 0, 2, 24, 0];
    };
    assert!(
        items::<syn::ItemStatic>(&v1).contains(&descriptor.to_string()),
        "{v1}"
    );
    assert!(!v1.contains("no_such_device"));
}

/// Every `unsafe` block of the generated module has its `// SAFETY:`
/// comment on the lines before the statement holding it.
#[test]
fn every_unsafe_block_says_why_it_is_sound() {
    for contract in [Contract::V1, Contract::V2] {
        let source = source(&image("i.so").kernels, 9, contract, "host");
        assert!(!source.contains(SAFETY_MARKER), "{source}");
        let lines: Vec<&str> = source.lines().collect();
        let mut blocks = 0;
        for (i, line) in lines.iter().enumerate() {
            for _ in line.matches("unsafe {") {
                blocks += 1;
                let comment = lines[..i]
                    .iter()
                    .rev()
                    .map(|l| l.trim_start())
                    .take_while(|l| l.starts_with("//"))
                    .last();
                assert!(
                    comment.is_some_and(|c| c.starts_with("// SAFETY: ")),
                    "line {}: {line}\n{source}",
                    i + 1
                );
            }
        }
        // v1: the launch; v2: the device check's two, and in each stub
        // the device check and the launch; both: the image targets'.
        let expected = match contract {
            Contract::V1 => 2,
            Contract::V2 => 7,
        };
        assert_eq!(blocks, expected, "{source}");
        assert!(
            source
                .lines()
                .all(|l| l.len() <= 100 || !l.contains("SAFETY"))
        );
    }
}

#[test]
fn stubs_export_the_records_layout_and_feature_words_and_the_no_image_symbol() {
    for contract in [Contract::V1, Contract::V2] {
        let source = source(&image("i.so").kernels, 9, contract, "host");
        let statics = items::<syn::ItemStatic>(&source);
        for exported in [
            quote! {
                #[unsafe(export_name = "__offload_rs_layouts.saxpy.00000000000000ab")]
                pub static L0: [u64; 4] = [4, 4, 8, 24];
            },
            quote! {
                #[unsafe(export_name = "__offload_rs_features.saxpy.00000000000000ab")]
                pub static F0: u64 = 3;
            },
            {
                let rule = format!(
                    "offload: no image in this program holds kernel `saxpy` (00000000000000ab){NO_IMAGE_RULE}"
                );
                quote! {
                    #[unsafe(export_name = #rule)]
                    #[linkage = "weak"]
                    pub static N0: u8 = 0;
                }
            },
        ] {
            assert!(statics.contains(&exported.to_string()), "{source}");
        }
    }
}

#[test]
fn stubs_export_the_targets_of_their_images_for_the_launcher() {
    let mut gpu = image("g.hsaco");
    gpu.target = crate::Target::parse("amdgcn-amd-amdhsa:gfx90a").unwrap();
    let targets = targets_text(&[image("h.so"), gpu], "x86_64-unknown-linux-gnu");
    assert_eq!(
        targets,
        "host (x86_64-unknown-linux-gnu), amdgcn-amd-amdhsa:gfx90a"
    );
    for contract in [Contract::V1, Contract::V2] {
        let source = source(&image("i.so").kernels, 9, contract, &targets);
        let function = quote! {
            #[unsafe(export_name = "__offload_rs_images.saxpy.00000000000000ab")]
            pub unsafe extern "C" fn T0(len: *mut usize) -> *const u8 {
                unsafe { *len = IMAGE_TARGETS.len() };
                IMAGE_TARGETS.as_ptr()
            }
        };
        assert!(
            items::<syn::ItemFn>(&source).contains(&function.to_string()),
            "{source}"
        );
        assert!(
            source.contains(
                "const IMAGE_TARGETS: &str = \"host (x86_64-unknown-linux-gnu), amdgcn-amd-amdhsa:gfx90a\";"
            ),
            "{source}"
        );
    }
}
