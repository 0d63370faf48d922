//! The device half: the kernel's entry point (its parameters in the
//! launch's slots, each made back into the kernel's argument) and its
//! record in the image's kernel table.

use offload_contract::{grid, record};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ItemFn, Type};

use super::safety::{allow_lint, safety};
use super::signature::Param;
use crate::classify::{Dir, Shape};

/// How a parameter reaches the entry point.
enum Entry<'a> {
    /// By value, in one slot.
    Scalar(&'a Type),
    /// A pointer, in one slot.
    Pointer(Pointer<'a>),
    /// A pointer to elements, then their count in the next slot.
    Elements(Pointer<'a>),
}

/// A pointer parameter of the entry point.
struct Pointer<'a> {
    /// Its type in the entry point's signature.
    ty: TokenStream,
    /// The `__private` function making the kernel's argument from it.
    make: TokenStream,
    /// Its map type.
    map: TokenStream,
    /// What it points at (the record's element size and layout word).
    pointee: &'a Type,
    /// Why `make` may be called on the slot (the `SAFETY:` comment of the
    /// call); `None` for a safe `make`.
    safety: Option<&'static str>,
}

/// The entry point's pointer to `pointee`, made into the kernel's argument
/// by `__private::make`.
fn pointer<'a>(
    pointee: &'a Type,
    mutable: bool,
    make: &str,
    map: TokenStream,
    safety: Option<&'static str>,
) -> Pointer<'a> {
    let p = quote!(::offload::__private);
    let make = Ident::new(make, Span::call_site());
    let ty = if mutable {
        quote!(*mut #pointee)
    } else {
        quote!(*const #pointee)
    };
    Pointer {
        ty,
        make: quote!(#p::#make),
        map,
        pointee,
        safety,
    }
}

/// How many launch slots `params` take: one each, two (pointer and
/// length) for a slice of any kind.
pub fn slot_count(params: &[Param]) -> usize {
    params
        .iter()
        .map(|p| match entry(&p.shape) {
            Entry::Elements(_) => 2,
            Entry::Scalar(_) | Entry::Pointer(_) => 1,
        })
        .sum()
}

/// Why the entry point may make each pointer parameter into the kernel's
/// argument: what its record asks the launch to map, and who else reaches
/// the data while the kernel runs.
mod why {
    pub const BY_VALUE: &str = "the slot points at the launch's device copy of the value (mapped TO), valid until the kernel returns.";
    pub const REFERENCE: &str = "the slot points at the launch's device copy of the referenced value (mapped TO), valid and unchanged until the kernel returns.";
    pub const IN_OUT_ONE: &str = "the slot points at the launch's device copy of the value (mapped TO and FROM), valid until the kernel returns; each thread reaches it only through the view it makes here, and no other parameter aliases it (the launcher takes it as `HostMut`).";
    pub const OUT_ONE: &str = "the slot points at the launch's device memory for the value (mapped FROM: maybe uninitialised, which `Out` never reads), valid until the kernel returns; each thread reaches it only through the view it makes here, and no other parameter aliases it (the launcher takes it as `HostMut`).";
    pub const ATOMIC_ONE: &str = "the slot points at the launch's device copy of the value (mapped TO and FROM), valid until the kernel returns; the threads reach it only through the atomic made here.";
    pub const SLICE: &str = "the slots are a pointer to the launch's device copy of the elements (mapped TO) and their count, valid and unchanged until the kernel returns.";
    pub const IN_OUT_SLICE: &str = "the slots are a pointer to the launch's device copy of the elements (mapped TO and FROM) and their count, valid until the kernel returns; each thread reaches them only through the view it makes here, and no other parameter aliases them (the launcher takes them as `HostMut`).";
    pub const OUT_SLICE: &str = "the slots are a pointer to the launch's device memory for the elements (mapped FROM: maybe uninitialised, which `Out` never reads) and their count, valid until the kernel returns; each thread reaches them only through the view it makes here, and no other parameter aliases them (the launcher takes them as `HostMut`).";
    pub const ATOMIC_SLICE: &str = "the slots are a pointer to the launch's device copy of the values (mapped TO and FROM) and their count, valid until the kernel returns; the threads reach them only through the atomics made here.";
}

fn entry(shape: &Shape) -> Entry<'_> {
    let p = quote!(::offload::__private);
    let to = quote!(#p::TO);
    let from = quote!(#p::FROM);
    let to_from = quote!(#p::TO | #p::FROM);
    let pointer =
        |pointee, mutable, make, map, why| pointer(pointee, mutable, make, map, Some(why));
    // `Raw*` views only carry the pointer: their accessors are `unsafe`.
    let raw =
        |elem, mutable, make, map| Entry::Elements(self::pointer(elem, mutable, make, map, None));
    match shape {
        Shape::Scalar(t) => Entry::Scalar(t),
        Shape::ByValue(t) => Entry::Pointer(pointer(t, false, "by_value", to, why::BY_VALUE)),
        Shape::Ref(ty) => Entry::Pointer(pointer(ty, false, "reference", to, why::REFERENCE)),
        Shape::InOutOne(ty) => {
            Entry::Pointer(pointer(ty, true, "in_out_one", to_from, why::IN_OUT_ONE))
        }
        Shape::OutOne(t) => Entry::Pointer(pointer(t, true, "out_one", from, why::OUT_ONE)),
        Shape::AtomicOne { atomic, value } => Entry::Pointer(Pointer {
            make: quote!(#p::atomic_one::<#atomic>),
            ..pointer(value, true, "atomic_one", to_from, why::ATOMIC_ONE)
        }),
        Shape::Slice(elem) => Entry::Elements(pointer(elem, false, "slice", to, why::SLICE)),
        Shape::InOutSlice(elem) => Entry::Elements(pointer(
            elem,
            true,
            "in_out_slice",
            to_from,
            why::IN_OUT_SLICE,
        )),
        Shape::OutSlice(elem) => {
            Entry::Elements(pointer(elem, true, "out_slice", from, why::OUT_SLICE))
        }
        Shape::AtomicSlice { atomic, value } => Entry::Elements(Pointer {
            make: quote!(#p::atomic_slice::<#atomic>),
            ..pointer(value, true, "atomic_slice", to_from, why::ATOMIC_SLICE)
        }),
        Shape::Raw { elem, dir: Dir::In } => raw(elem, false, "raw_in", to),
        Shape::Raw {
            elem,
            dir: Dir::Out,
        } => raw(elem, true, "raw_out", from),
        Shape::Raw {
            elem,
            dir: Dir::InOut,
        } => raw(elem, true, "raw_in_out", to_from),
    }
}

/// The layout word of `ty`, which also checks that it is `DeviceCopy` (the
/// error at the type).
fn layout_of(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=> <#ty as ::offload::DeviceCopy>::LAYOUT)
}

/// The entry point's parameters, the kernel call's arguments and the
/// record's arguments, slot by slot.
#[derive(Default)]
struct Slots {
    params: Vec<TokenStream>,
    /// Each parameter's name and type (the thread body's environment).
    names: Vec<Ident>,
    types: Vec<TokenStream>,
    /// The statements making the kernel's arguments from the slots, each
    /// `unsafe` call with its `SAFETY:` comment.
    bindings: Vec<TokenStream>,
    args: Vec<TokenStream>,
    records: Vec<TokenStream>,
}

impl Slots {
    fn push(&mut self, param: &Param) {
        let p = quote!(::offload::__private);
        let index = self.records.len() as u16;
        // The entry point's parameters are named by their slots: a kernel's
        // own names could shadow the kernel (`fn k(k: &mut [f32])`) or
        // collide (`x: &[f32], x_len: usize`).
        let n = &format_ident!("__offload_s{}", index);
        match entry(&param.shape) {
            Entry::Scalar(t) => {
                self.names.push(n.clone());
                self.types.push(quote!(#t));
                self.params.push(quote!(#n: #t));
                self.args.push(quote!(#n));
                self.records.push(quote!(#p::ArgRecord::scalar::<#t>()));
            }
            Entry::Pointer(Pointer {
                ty,
                make,
                map,
                pointee,
                safety,
            }) => {
                self.names.push(n.clone());
                self.types.push(ty.clone());
                self.params.push(quote!(#n: #ty));
                self.make_arg(index, quote!(#make(#n)), safety);
                let layout = layout_of(pointee);
                self.records
                    .push(quote!(#p::ArgRecord::pointer::<#pointee>(#map, #layout)));
            }
            Entry::Elements(Pointer {
                ty,
                make,
                map,
                pointee,
                safety,
            }) => {
                let len = format_ident!("__offload_s{}", index + 1);
                self.names.extend([n.clone(), len.clone()]);
                self.types.extend([ty.clone(), quote!(usize)]);
                self.params.push(quote!(#n: #ty));
                self.params.push(quote!(#len: usize));
                self.make_arg(index, quote!(#make(#n, #len)), safety);
                let layout = quote!(<#pointee as ::offload::DeviceCopy>::LAYOUT);
                self.records
                    .push(quote!(#p::ArgRecord::elements::<#pointee>(#map, #index + 1, #layout)));
                self.records.push(quote!(#p::ArgRecord::scalar::<usize>()));
            }
        }
    }

    /// The kernel's argument of slot `index`: `make`'s value, a call of an
    /// `unsafe` function bound with `why` as its `SAFETY:` comment.
    fn make_arg(&mut self, index: u16, make: TokenStream, why: Option<&str>) {
        let Some(why) = why else {
            self.args.push(make);
            return;
        };
        let arg = format_ident!("__offload_a{}", index);
        let safety = safety(why);
        self.bindings.push(quote! {
            #safety
            let #arg = unsafe { #make };
        });
        self.args.push(quote!(#arg));
    }
}

/// What an entry point calls: the kernel function (`axpy`, or an instance
/// of a generic one, `axpy::<f32>`), and the name its entry point's and
/// record's items are made from (`axpy`, `axpy_f32`).
pub struct Callee {
    pub path: TokenStream,
    pub tag: Ident,
}

/// The function as written (`None`: emitted elsewhere, once for all
/// instances of a generic kernel), the entry point of `callee` exported as
/// `symbol` (a GPU kernel on the GPU targets, a C function for
/// libomptarget's host plugin) and its record (with the crate's feature
/// word of `features`).
pub fn entry_point(
    function: Option<&ItemFn>,
    callee: &Callee,
    params: &[Param],
    symbol: &str,
    hash: u64,
    features: &[String],
) -> TokenStream {
    let name = &callee.path;
    let entry = format_ident!("__offload_entry_{}", callee.tag);
    let record = format_ident!("__OFFLOAD_RECORD_{}", callee.tag);
    let record_symbol = format!("{}{symbol}", record::SYMBOL_PREFIX);
    let p = quote!(::offload::__private);
    let mut slots = Slots::default();
    // The launch grid's hidden slots lead (offload-contract's `grid`).
    let grid: Vec<Ident> = (0..grid::SLOTS)
        .map(|i| format_ident!("__offload_grid{}", i))
        .collect();
    for _ in &grid {
        slots.records.push(quote!(#p::ArgRecord::scalar::<u64>()));
    }
    for param in params {
        slots.push(param);
    }
    let Slots {
        params: entry_params,
        names,
        types,
        bindings,
        args: call_args,
        records,
    } = slots;
    let features = super::features::word(features);
    let gpu = quote!(any(target_arch = "amdgpu", target_arch = "nvptx64"));
    let call = quote! {
        #(#bindings)*
        #name(#(#call_args),*)
    };
    let thread = format_ident!("__offload_thread_{}", callee.tag);
    let CpuEntry {
        thread: cpu_thread,
        body: cpu_body,
    } = cpu_entry(&thread, &names, &types, &call, &grid, symbol);
    let dyn_shared_mem = &grid[grid::SLOTS - 1];
    let allow = allow_lint();
    let gpu_body = quote! {
        let _ = (#(#grid),*);
        #p::gpu_enter(#dyn_shared_mem);
        #call
    };
    // The function as syn prints it: its inner attributes (`#![...]`, `//!`)
    // stay inside its block.
    quote! {
        #function

        #[doc(hidden)]
        #[cfg(not(#gpu))]
        #cpu_thread

        #[doc(hidden)]
        #[cfg(not(#gpu))]
        #[unsafe(export_name = #symbol)]
        #allow
        unsafe extern "C" fn #entry(#(#grid: u64,)* #(#entry_params),*) { #cpu_body }

        #[doc(hidden)]
        #[cfg(#gpu)]
        #[unsafe(export_name = #symbol)]
        #allow
        unsafe extern "gpu-kernel" fn #entry(#(#grid: u64,)* #(#entry_params),*) { #gpu_body }

        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #[unsafe(export_name = #record_symbol)]
        static #record: #p::KernelRecord = #p::KernelRecord::new(#symbol, #hash, &[#(#records),*])
            .with_features(#features)
            .with_crate(::core::module_path!());
    }
}

/// The x86_64 image's entry point: its thread body, one thread's `call`
/// from the arguments' tuple, and its body, which runs the whole grid.
struct CpuEntry {
    thread: TokenStream,
    body: TokenStream,
}

/// The x86_64 image's entry point of a kernel whose slots are `names` of
/// `types` after the hidden `grid` slots. The thread body `thread` is never
/// inlined: the plugin's offload-team-loops pass compiles it into the team
/// body it passes as the null argument. (A GPU runs one call per hardware
/// thread and reads its ids there.)
fn cpu_entry(
    thread: &Ident,
    names: &[Ident],
    types: &[TokenStream],
    call: &TokenStream,
    grid: &[Ident],
    symbol: &str,
) -> CpuEntry {
    let p = quote!(::offload::__private);
    let allow = allow_lint();
    let env = safety(
        "the entry point's tuple of the arguments, alive and unchanged until the whole grid has run.",
    );
    let run = safety(
        "the hidden slots are the launch's; the thread body only reads the arguments' tuple, which outlives the grid and which no thread writes, so it runs in several threads at once; no team body until the offload-team-loops pass stores one; the symbol is a `'static` string.",
    );
    CpuEntry {
        thread: quote! {
            #[inline(never)]
            #allow
            unsafe extern "C" fn #thread(__offload_env: *const ::core::ffi::c_void) {
                #env
                let (#(#names,)*) = unsafe { *__offload_env.cast::<(#(#types,)*)>() };
                #call;
            }
        },
        body: quote! {
            let __offload_env = (#(#names,)*);
            let __offload_slots = [#(#grid),*];
            #run
            unsafe {
                #p::run_grid_entry(
                    &__offload_slots,
                    (&raw const __offload_env).cast(),
                    #thread,
                    ::core::ptr::null(),
                    #symbol.as_ptr(),
                    #symbol.len(),
                )
            };
        },
    }
}
