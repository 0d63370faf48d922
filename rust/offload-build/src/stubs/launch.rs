//! The stubs themselves: per kernel its descriptor, its launch declaration
//! (which `offload-host` lowers), the stub taking the launcher's slots and
//! the direct stub; and the v2 stubs' device check.

use offload_contract::descriptor::{v1, v2};
use offload_contract::record::{DIRECT_STUB_PREFIX, STUB_PREFIX};
use offload_contract::{launch_code, launch_config};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::Contract;
use super::descriptor::{descriptor, direct_descriptor};
use super::exports::{features, image_targets, layouts, no_image};
use super::safety::safety;
use crate::image::{ArgKind, Kernel};

/// Why reading the config's device is sound ([`device_check`]).
pub(super) const SAFETY_CONFIG: &str =
    "`config` is a `LaunchConfig` (the stubs' contract), which `no_such_device` reads.";

pub(super) fn rust_type(kind: ArgKind, size: u64) -> TokenStream {
    match (kind, size) {
        (ArgKind::Pointer, _) => quote!(*mut u8),
        (ArgKind::Bool, _) => quote!(bool),
        (ArgKind::Float, 4) => quote!(f32),
        (ArgKind::Float, _) => quote!(f64),
        (ArgKind::Int, 1) => quote!(u8),
        (ArgKind::Int, 2) => quote!(u16),
        (ArgKind::Int, 4) => quote!(u32),
        (ArgKind::Int, _) => quote!(u64),
    }
}

/// The argument of type [`rust_type`] from its 8-byte launch slot.
pub(super) fn from_slot(kind: ArgKind, size: u64, slot: &TokenStream) -> TokenStream {
    match (kind, size) {
        (ArgKind::Pointer, _) => quote!(#slot as *mut u8),
        (ArgKind::Bool, _) => quote!(#slot != 0),
        (ArgKind::Float, 4) => quote!(f32::from_bits(#slot as u32)),
        (ArgKind::Float, _) => quote!(f64::from_bits(#slot)),
        (kind, size) => {
            let ty = rust_type(kind, size);
            quote!(#slot as #ty)
        }
    }
}

/// The direct stub of kernel `i` (`__offload_rs_direct.<symbol>.<hash>`):
/// in v2 the launch with [`direct_descriptor`], through the same launch
/// declaration `k{i}`; in v1 (one descriptor per kernel) it refuses with
/// `NO_DIRECT`, and the launcher maps the arguments instead.
pub(super) fn direct_stub(
    i: usize,
    kernel: &Kernel,
    contract: Contract,
    digest: u64,
) -> TokenStream {
    let (descriptor_name, launch, stub_fn) = (
        format_ident!("E{i}"),
        format_ident!("k{i}"),
        format_ident!("d{i}"),
    );
    let symbol = format!("{DIRECT_STUB_PREFIX}{}.{:016x}", kernel.symbol, kernel.hash);
    let doc = format!(
        " Launches kernel `{}` on device addresses (nothing mapped).",
        kernel.symbol
    );
    if contract == Contract::V1 {
        let no_direct = Literal::i32_unsuffixed(launch_code::NO_DIRECT);
        return quote! {
            #[doc = #doc]
            #[unsafe(export_name = #symbol)]
            pub unsafe extern "C" fn #stub_fn(config: *const u8, args: *const u64) -> i32 {
                let _ = (config, args);
                #no_direct
            }
        };
    }
    let words = direct_descriptor(kernel, digest);
    let count = Literal::usize_unsuffixed(words.len());
    let words = words.into_iter().map(Literal::u64_unsuffixed);
    let values = kernel.args.iter().enumerate().map(|(a, arg)| {
        let a = Literal::usize_unsuffixed(a);
        from_slot(arg.kind, arg.size, &quote!(*args.add(#a)))
    });
    let config_read = safety(SAFETY_CONFIG);
    let launch_call = safety(
        "`args` holds a slot per kernel argument, each pointer a device address \
         (the stubs' contract), which the descriptor passes LITERAL: nothing is \
         mapped; offload-host replaces the call with the launch.",
    );
    quote! {
        const #descriptor_name: [u64; #count] = [#(#words),*];
        #[doc = #doc]
        #[unsafe(export_name = #symbol)]
        pub unsafe extern "C" fn #stub_fn(config: *const u8, args: *const u64) -> i32 {
            #config_read
            if unsafe { no_such_device(config) } {
                return NO_SUCH_DEVICE;
            }
            #launch_call
            unsafe {
                #launch(&#descriptor_name as *const [u64; #count] as *const u64, config, #(#values),*)
            }
        }
    }
}

/// The v2 stubs' device check. libomptarget aborts the process
/// (OMP_TARGET_OFFLOAD=MANDATORY) on a device number out of range: the
/// stubs refuse it with offload's `NO_SUCH_DEVICE` instead.
pub(super) fn device_check() -> TokenStream {
    let no_such_device = Literal::i32_unsuffixed(launch_code::NO_SUCH_DEVICE);
    let device_offset = Literal::usize_unsuffixed(launch_config::DEVICE_OFFSET);
    let default_device = Literal::i64_unsuffixed(launch_config::DEFAULT_DEVICE);
    let device_read = safety(
        "`config` points to a `LaunchConfig` (the caller's contract), whose `device` \
         is the 8-aligned `i64` at `DEVICE_OFFSET`.",
    );
    let device_count =
        safety("libomptarget's `omp_get_num_devices` takes nothing and only reads the runtime.");
    quote! {
        /// `offload_contract::launch_code::NO_SUCH_DEVICE`.
        const NO_SUCH_DEVICE: i32 = #no_such_device;
        /// `offload_contract::launch_config::DEVICE_OFFSET`: the byte offset of
        /// `LaunchConfig::device`.
        const DEVICE_OFFSET: usize = #device_offset;
        /// `offload_contract::launch_config::DEFAULT_DEVICE`.
        const DEFAULT_DEVICE: i64 = #default_device;
        unsafe extern "C" {
            fn omp_get_num_devices() -> i32;
        }
        /// The config's device is not a device of the runtime.
        ///
        /// # Safety
        /// `config` points to a `LaunchConfig`.
        unsafe fn no_such_device(config: *const u8) -> bool {
            #device_read
            let device = unsafe { config.add(DEVICE_OFFSET).cast::<i64>().read() };
            #device_count
            device < DEFAULT_DEVICE || device >= i64::from(unsafe { omp_get_num_devices() })
        }
    }
}

/// The descriptor, the launch declaration and the stub of kernel `i`.
pub(super) fn kernel_stub(
    i: usize,
    kernel: &Kernel,
    contract: Contract,
    digest: u64,
) -> TokenStream {
    let words = descriptor(kernel, contract, digest);
    let count = Literal::usize_unsuffixed(words.len());
    let words = words.into_iter().map(Literal::u64_unsuffixed);
    let (descriptor_name, launch, stub_fn) = (
        format_ident!("D{i}"),
        format_ident!("k{i}"),
        format_ident!("s{i}"),
    );
    let params = kernel.args.iter().enumerate().map(|(a, arg)| {
        let name = format_ident!("a{a}");
        let ty = rust_type(arg.kind, arg.size);
        quote!(#name: #ty)
    });
    let values = kernel.args.iter().enumerate().map(|(a, arg)| {
        let a = Literal::usize_unsuffixed(a);
        from_slot(arg.kind, arg.size, &quote!(*args.add(#a)))
    });
    let symbol = &kernel.symbol;
    let stub = format!("{STUB_PREFIX}{symbol}.{:016x}", kernel.hash);
    let layouts = layouts(i, kernel);
    let features = features(i, kernel);
    let targets = image_targets(i, kernel);
    let no_image = no_image(i, kernel);
    let direct = direct_stub(i, kernel, contract, digest);
    let doc = format!(" Launches kernel `{symbol}`.");
    let launch_call = safety(match contract {
        Contract::V1 => {
            "`args` holds a slot per kernel argument, each pointer valid for the size its \
             descriptor triple gives (the stubs' contract); offload-host replaces the call \
             with the launch that maps them."
        }
        Contract::V2 => {
            "`args` holds a slot per kernel argument, each pointer valid for the size the \
             config's sizes or the descriptor give (the stubs' contract); offload-host \
             replaces the call with the launch that maps them."
        }
    });
    let (descriptor, declaration, guard) = match contract {
        Contract::V1 => {
            let global = format!("{}{symbol}", v1::SYMBOL_PREFIX);
            (
                quote! {
                    #[unsafe(export_name = #global)]
                    pub static #descriptor_name: [u64; #count] = [#(#words),*];
                },
                quote! {
                    #[link_name = #symbol]
                    fn #launch(#(#params),*) -> i32;
                },
                quote!(let _ = config;),
            )
        }
        Contract::V2 => {
            let launch_symbol = format!("{}{symbol}", v2::LAUNCH_PREFIX);
            (
                quote!(const #descriptor_name: [u64; #count] = [#(#words),*];),
                quote! {
                    #[link_name = #launch_symbol]
                    fn #launch(d: *const u64, c: *const u8, #(#params),*) -> i32;
                },
                {
                    let config_read = safety(SAFETY_CONFIG);
                    quote! {
                        #config_read
                        if unsafe { no_such_device(config) } {
                            return NO_SUCH_DEVICE;
                        }
                    }
                },
            )
        }
    };
    let arguments = match contract {
        Contract::V1 => quote!(#(#values),*),
        Contract::V2 => {
            quote!(&#descriptor_name as *const [u64; #count] as *const u64, config, #(#values),*)
        }
    };
    quote! {
        #descriptor
        #layouts
        #features
        #targets
        #no_image
        unsafe extern "C" {
            #declaration
        }
        #[doc = #doc]
        #[unsafe(export_name = #stub)]
        pub unsafe extern "C" fn #stub_fn(config: *const u8, args: *const u64) -> i32 {
            #guard
            #launch_call
            unsafe { #launch(#arguments) }
        }
        #direct
    }
}
