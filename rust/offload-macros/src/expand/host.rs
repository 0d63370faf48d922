//! The host half: the typed launcher, a function of the kernel's name that
//! takes a `Launch` and host values for the kernel's parameters, fills the
//! launch's argument slots and calls the kernel's launch stub. The kernel's
//! body stays in the host build under another name, so it is type-checked
//! there too.

use offload_contract::{grid, record};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, ItemFn, Type};

use super::safety::{allow_lint, safety};
use super::signature::Param;
use crate::classify::Shape;

/// One host parameter: its declaration, the statements filling its slots.
struct HostParam {
    /// The launcher's parameter.
    decl: TokenStream,
    /// Statements binding what the slots read.
    prepare: TokenStream,
    /// Per slot: its value (a scalar's bits or an address), its size in
    /// bytes (0 for a value passed in the slot itself), the layout word
    /// of the scalar or the element, as this build computes it, and the
    /// device on which the argument keeps its data mapped itself (`None`:
    /// the launch maps it).
    slots: Vec<Slot>,
}

/// One launch slot: value, size, layout word, device kept mapped on.
type Slot = (TokenStream, TokenStream, TokenStream, TokenStream);

/// Which lifetimes [`static_lifetimes`] makes `'static`.
#[derive(Clone, Copy)]
pub(super) enum Lifetimes {
    /// The kernel's named ones: the checks, the record and the entry point
    /// are outside the kernel, where none of them is declared (elided ones
    /// are fine there, and keep the errors' types as written).
    Named,
    /// Every one, elided, `'_` or named: `impl Trait` arguments (the
    /// launcher's `impl HostIn<_>`) may not elide them.
    All,
}

/// `ty` with `which` lifetimes made `'static` (a DeviceCopy type has no
/// other).
fn static_lifetimes(ty: &Type, which: Lifetimes) -> Type {
    struct Static(Lifetimes);
    impl syn::visit_mut::VisitMut for Static {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.is_none() && matches!(self.0, Lifetimes::All) {
                r.lifetime = Some(syn::parse_quote!('static));
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            if l.ident != "_" || matches!(self.0, Lifetimes::All) {
                *l = syn::parse_quote!('static);
            }
        }
    }
    let mut ty = ty.clone();
    syn::visit_mut::VisitMut::visit_type_mut(&mut Static(which), &mut ty);
    ty
}

/// `shape` with `which` lifetimes of its types made `'static`.
pub(super) fn with_static_lifetimes(shape: &Shape, which: Lifetimes) -> Shape {
    let fix = |ty: &Type| static_lifetimes(ty, which);
    match shape {
        Shape::Ref(ty) => Shape::Ref(fix(ty)),
        Shape::InOutOne(ty) => Shape::InOutOne(fix(ty)),
        Shape::OutOne(ty) => Shape::OutOne(fix(ty)),
        Shape::Slice(elem) => Shape::Slice(fix(elem)),
        Shape::InOutSlice(elem) => Shape::InOutSlice(fix(elem)),
        Shape::OutSlice(elem) => Shape::OutSlice(fix(elem)),
        Shape::ByValue(ty) => Shape::ByValue(fix(ty)),
        Shape::Raw { elem, dir } => Shape::Raw {
            elem: fix(elem),
            dir: *dir,
        },
        other => other.clone(),
    }
}

/// The launcher's parameter `index`: the host values it takes for `param`
/// and how they fill the launch's argument slots (address or value, size).
fn host_param(param: &Param, index: usize) -> HostParam {
    let p = quote!(::offload::__private);
    let n = &param.name;
    let a = format_ident!("__offload_a{}", index);
    let b = format_ident!("__offload_b{}", index);
    let c = format_ident!("__offload_c{}", index);
    let k = format_ident!("__offload_k{}", index);
    let none = quote!(::core::option::Option::None);
    let shape = with_static_lifetimes(&param.shape, Lifetimes::All);
    // Also the check that the type is DeviceCopy (the error at the type).
    let layout_of = |ty: &Type| quote_spanned!(ty.span()=> <#ty as ::offload::DeviceCopy>::LAYOUT);
    let len_layout = quote!(#p::layout::scalar::<usize>());
    let literal = |decl, slot, t: &Type| HostParam {
        decl,
        prepare: quote!(),
        slots: vec![(
            slot,
            quote!(0),
            quote!(#p::layout::scalar::<#t>()),
            none.clone(),
        )],
    };
    // `kept`: the argument's own mapping (a region or device buffer), or
    // `None` for data the launch maps.
    let pointer = |decl, prepare, pointee: &Type, kept| HostParam {
        decl,
        prepare,
        slots: vec![(quote!(#a), quote!(#c), layout_of(pointee), kept)],
    };
    let elements = |decl, prepare, elem: &Type, kept| HostParam {
        decl,
        prepare,
        slots: vec![
            (quote!(#a), quote!(#c), layout_of(elem), kept),
            (quote!(#b), quote!(0), len_layout.clone(), none.clone()),
        ],
    };
    match &shape {
        Shape::Scalar(t) => literal(quote!(#n: #t), quote!(#p::scalar::<#t>(#n)), t),
        Shape::ByValue(t) => pointer(
            quote!(#n: #t),
            quote! {
                let #b: #t = #n;
                let #a = &#b as *const #t as u64;
                let #c = ::core::mem::size_of::<#t>() as u64;
            },
            t,
            none.clone(),
        ),
        Shape::Ref(ty) => pointer(
            quote_spanned!(ty.span()=> #n: impl ::offload::HostIn<#ty>),
            quote! {
                let (#a, _, #c) = #p::host_in::<#ty, _>(&#n);
                let #k = #p::kept_in::<#ty, _>(&#n);
            },
            ty,
            quote!(#k),
        ),
        Shape::InOutOne(ty) | Shape::OutOne(ty) | Shape::AtomicOne { value: ty, .. } => pointer(
            quote_spanned!(ty.span()=> mut #n: impl ::offload::HostMut<#ty>),
            quote! {
                let (#a, _, #c) = #p::host_mut::<#ty, _>(&mut #n);
                let #k = #p::kept_mut::<#ty, _>(&#n);
            },
            ty,
            quote!(#k),
        ),
        Shape::Slice(elem) => elements(
            quote!(#n: impl ::offload::HostIn<[#elem]>),
            quote! {
                let (#a, #b, #c) = #p::host_in::<[#elem], _>(&#n);
                let #k = #p::kept_in::<[#elem], _>(&#n);
            },
            elem,
            quote!(#k),
        ),
        Shape::InOutSlice(elem)
        | Shape::OutSlice(elem)
        | Shape::AtomicSlice { value: elem, .. } => elements(
            quote!(mut #n: impl ::offload::HostMut<[#elem]>),
            quote! {
                let (#a, #b, #c) = #p::host_mut::<[#elem], _>(&mut #n);
                let #k = #p::kept_mut::<[#elem], _>(&#n);
            },
            elem,
            quote!(#k),
        ),
        Shape::Raw { elem, .. } => {
            let ty = static_lifetimes(&param.ty, Lifetimes::All);
            elements(
                quote!(#n: #ty),
                quote! {
                    let #a = #n.as_ptr() as u64;
                    let #b = #n.len() as u64;
                    let #c = (#n.len() * ::core::mem::size_of::<#elem>()) as u64;
                },
                elem,
                none.clone(),
            )
        }
    }
}

/// The launcher's parameter declarations of `params` without their `mut`
/// (a trait method's declaration takes no patterns): `x: impl HostIn<[T]>`.
pub fn plain_decls(params: &[Param]) -> Vec<TokenStream> {
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let decl = host_param(p, i).decl;
            let mut tokens = decl.into_iter().peekable();
            if tokens
                .peek()
                .is_some_and(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "mut"))
            {
                tokens.next();
            }
            tokens.collect()
        })
        .collect()
}

/// A type as source text: `&mut [f32]`, `Out<'_, [f32]>`.
fn type_text(ty: &Type) -> String {
    let raw = quote!(#ty).to_string();
    let mut out = String::new();
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let before = out.chars().last().unwrap_or(' ');
            let after = chars.get(i + 1).copied().unwrap_or(' ');
            let word = |c: char| c.is_alphanumeric() || c == '_';
            if (word(before) && (word(after) || after == '[' || after == '(' || after == '&'))
                || before == ','
            {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn is_outer_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc") && matches!(attr.style, syn::AttrStyle::Outer)
}

/// The `# Launch` section appended to the kernel's docs on its launcher.
fn launcher_doc(name: &str, symbol: &str, params: &[Param]) -> String {
    let mut doc = format!(
        "\n\n# Launch\n\nLaunches the kernel `{name}` (image symbol `{symbol}`) with `launch`'s grid \
         and waits for it; `Err` if the runtime did not launch it. Arguments:\n"
    );
    for param in params {
        let ty = &param.ty;
        doc.push_str(&format!(
            "- `{}: {}`: {}\n",
            param.name,
            type_text(ty),
            param.shape.describe()
        ));
    }
    doc
}

/// Per launch slot, the parameter it carries (`x: &[f32]`, `x` (length)),
/// for the launcher's errors.
fn slot_params(params: &[Param], host: &[HostParam]) -> Vec<String> {
    let mut out = Vec::new();
    for (param, h) in params.iter().zip(host) {
        let text = format!("{}: {}", param.name, type_text(&param.ty));
        out.push(text);
        for _ in 1..h.slots.len() {
            out.push(format!("{} (its length)", param.name));
        }
    }
    out
}

/// The launcher of the kernel `function`, whose stub is named for `symbol`
/// and `hash`, and the kernel's body under another name; the launcher
/// checks the crate's feature word (of `features`) against the image's.
pub fn launcher(
    function: &ItemFn,
    params: &[Param],
    symbol: &str,
    hash: u64,
    features: &[String],
) -> TokenStream {
    let body = body(function);
    let item = LauncherItem {
        ident: function.sig.ident.clone(),
        vis: function.vis.clone(),
        attrs: function.attrs.clone(),
        kernel: function
            .sig
            .ident
            .to_string()
            .trim_start_matches("r#")
            .to_owned(),
    };
    let launcher = launcher_fn(&item, params, symbol, hash, features);
    quote! {
        #body

        #launcher
    }
}

/// The kernel's body under another name, kept in the host build so it is
/// type-checked there too: every attribute but the outer docs (the
/// launcher's), its inner attributes (`#![...]`, `//!`) inside its block.
pub fn body(function: &ItemFn) -> ItemFn {
    let mut body = function.clone();
    body.sig.ident = format_ident!("__offload_body_{}", function.sig.ident);
    body.vis = syn::Visibility::Inherited;
    body.attrs.retain(|a| !is_outer_doc(a));
    body.attrs.push(syn::parse_quote!(
        #[allow(dead_code, non_snake_case, unused_mut, unused_variables, clippy::all)]
    ));
    body
}

/// What a launcher function is: its name, visibility and attributes (the
/// kernel's docs), and the kernel as its errors name it (`axpy`,
/// `axpy::<f32>`).
pub struct LauncherItem {
    pub ident: Ident,
    pub vis: syn::Visibility,
    pub attrs: Vec<Attribute>,
    pub kernel: String,
}

/// Why the launcher's `unsafe` blocks are sound.
mod why {
    pub const STUB_DECLS: &str = "the types are those of offload-build's definitions in the stub module for this kernel: the hash in each name is the kernel's signature's, so a kernel of other slots has other names.";
    pub const FEATURES: &str = "offload-build's stub module exports the record's feature word.";
    pub const LAYOUTS: &str = "offload-build's stub module exports the record's layout words, one per slot (the hash in the name fixes the slots).";
    pub const IMAGES: &str = "offload-build's stub module defines the function, which returns the text of the targets of the kernel's images.";
    pub const LAUNCH: &str = "the slots are the kernel's as its record describes them; each address is of an argument the launcher holds until the launch returns, valid for its size (for writing too where the record maps it FROM: those arguments are `HostMut`); a value in the slot itself has size 0; `kept` names a device only for an argument that keeps its data mapped there itself; the stubs are this kernel's.";
}

/// A launcher's slots: the launch grid's hidden ones lead
/// (offload-contract's `grid`), then its parameters' in order.
struct LaunchSlots {
    /// Each slot's parameter, for the launcher's errors.
    params: Vec<String>,
    values: Vec<TokenStream>,
    sizes: Vec<TokenStream>,
    layouts: Vec<TokenStream>,
    kept: Vec<TokenStream>,
}

fn launch_slots(params: &[Param], host: &[HostParam]) -> LaunchSlots {
    let mut slots = LaunchSlots {
        params: grid::SLOT_NAMES.iter().map(|&n| n.to_owned()).collect(),
        values: Vec::new(),
        sizes: Vec::new(),
        layouts: Vec::new(),
        kept: Vec::new(),
    };
    slots.params.extend(slot_params(params, host));
    for i in 0..grid::SLOTS {
        slots.values.push(quote!(__offload_grid[#i]));
        slots.sizes.push(quote!(0));
        slots
            .layouts
            .push(quote!(::offload::__private::layout::scalar::<u64>()));
        slots.kept.push(quote!(::core::option::Option::None));
    }
    for (value, size, layout, on) in host.iter().flat_map(|h| h.slots.iter().cloned()) {
        slots.values.push(value);
        slots.sizes.push(size);
        slots.layouts.push(layout);
        slots.kept.push(on);
    }
    slots
}

/// What offload-build's stub module defines for the kernel `symbol` whose
/// signature hashes to `hash` and whose launch has `count` slots: its two
/// launch stubs and the device build's words, each named with the hash.
fn stub_decls(symbol: &str, hash: u64, count: usize) -> TokenStream {
    let name = |prefix: &str| format!("{prefix}{symbol}.{hash:016x}");
    let stub = name(record::STUB_PREFIX);
    let direct_stub = name(record::DIRECT_STUB_PREFIX);
    let layouts_symbol = name(record::LAYOUTS_PREFIX);
    let features_symbol = name(record::FEATURES_PREFIX);
    let images_symbol = name(record::IMAGES_PREFIX);
    let no_image = format!(
        "{}`{symbol}` ({hash:016x}){}",
        record::NO_IMAGE_PREFIX,
        record::NO_IMAGE_RULE
    );
    let why = safety(why::STUB_DECLS);
    quote! {
        #why
        unsafe extern "C" {
            #[link_name = #stub]
            fn __offload_stub(config: *const ::offload::__private::LaunchConfig, args: *const u64) -> i32;
            /// The same launch on device addresses (nothing mapped).
            #[link_name = #direct_stub]
            fn __offload_direct(config: *const ::offload::__private::LaunchConfig, args: *const u64) -> i32;
            /// The device build's layout words of the slots.
            #[link_name = #layouts_symbol]
            static __offload_device_layouts: [u64; #count];
            /// The device build's feature word of the kernel crate.
            #[link_name = #features_symbol]
            static __offload_device_features: u64;
            /// The targets of the images the stubs register.
            #[link_name = #images_symbol]
            fn __offload_image_targets(len: *mut usize) -> *const u8;
            /// Defined beside the stubs; undefined, its name is the
            /// linker's message.
            #[link_name = #no_image]
            static __offload_no_image: u8;
        }
    }
}

/// The launcher function `item` of a kernel whose stub is named for
/// `symbol` and `hash`.
pub fn launcher_fn(
    item: &LauncherItem,
    params: &[Param],
    symbol: &str,
    hash: u64,
    features: &[String],
) -> TokenStream {
    let name = &item.ident;
    let name_text = &item.kernel;
    let feature_word = super::features::word(features);
    let docs = item.attrs.iter().filter(|a| is_outer_doc(a));
    let vis = &item.vis;
    let host: Vec<HostParam> = params
        .iter()
        .enumerate()
        .map(|(i, p)| host_param(p, i))
        .collect();
    let decls = host.iter().map(|h| &h.decl);
    let prepares = host.iter().map(|h| &h.prepare);
    let LaunchSlots {
        params: slot_names,
        values: slots,
        sizes,
        layouts,
        kept,
    } = launch_slots(params, &host);
    let count = slots.len();
    let stubs = stub_decls(symbol, hash, count);
    let kernel_path = quote!(::core::concat!(::core::module_path!(), "::", #name_text));
    let doc = launcher_doc(name_text, symbol, params);
    let allow = allow_lint();
    let (features_why, layouts_why, launch_why, images_why) = (
        safety(why::FEATURES),
        safety(why::LAYOUTS),
        safety(why::LAUNCH),
        safety(why::IMAGES),
    );
    quote! {
        #(#docs)*
        #[doc = #doc]
        #[allow(clippy::too_many_arguments, clippy::let_unit_value, clippy::let_and_return)]
        #allow
        #vis fn #name(
            launch: &::offload::Launch,
            #(#decls),*
        ) -> ::core::result::Result<(), ::offload::LaunchError> {
            #stubs
            // The first reference, so the linker names it first.
            ::core::hint::black_box(&raw const __offload_no_image);
            #features_why
            let __offload_device_feature_word = unsafe { __offload_device_features };
            ::offload::__private::check_features(
                #kernel_path,
                #symbol,
                &[#(#features),*],
                #feature_word,
                __offload_device_feature_word,
            )?;
            // The same types may have other layouts in the device build
            // (other features or cfgs of the kernel crate there).
            let __offload_params: [&'static str; #count] = [#(#slot_names),*];
            #layouts_why
            let __offload_device_layout_words = unsafe { &__offload_device_layouts };
            ::offload::__private::check_layouts(
                #kernel_path,
                #symbol,
                &__offload_params,
                &[#(#layouts),*],
                __offload_device_layout_words,
            )?;
            let __offload_grid = ::offload::__private::grid_slots(launch, #kernel_path, #symbol)?;
            #(#prepares)*
            let __offload_args: [u64; #count] = [#(#slots),*];
            let __offload_sizes: [u64; #count] = [#(#sizes),*];
            let __offload_kept: [::core::option::Option<i64>; #count] = [#(#kept),*];
            #launch_why
            let __offload_result = unsafe {
                ::offload::__private::launch(
                    launch,
                    #kernel_path,
                    #symbol,
                    &__offload_params,
                    &__offload_args,
                    &__offload_sizes,
                    &__offload_kept,
                    __offload_stub,
                    __offload_direct,
                )
            };
            #images_why
            let __offload_named = unsafe {
                ::offload::__private::name_images(__offload_result, __offload_image_targets)
            };
            __offload_named
        }
    }
}
