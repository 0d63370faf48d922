//! Random identifiers and types, as source text: every kind of Rust type,
//! the ones a kernel takes and the ones it must refuse.

use super::rng::Rng;

/// An identifier: ordinary, raw, non-ASCII, very long, or one the
/// expansion itself uses.
pub fn ident(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => rng
            .pick(&["r#type", "r#fn", "r#match", "r#async", "r#dyn"])
            .to_owned(),
        1 => rng
            .pick(&["größe", "λ", "ÿ_1", "naïve", "変数", "ℕ"])
            .to_owned(),
        2 => format!("k{}", "x".repeat(200 + rng.below(800))),
        3 => rng
            .pick(&[
                "launch",
                "x_len",
                "a_len",
                "__offload_a0",
                "__offload_args",
                "__offload_stub",
            ])
            .to_owned(),
        4 => rng
            .pick(&["_x", "_", "A", "T", "Self_", "kernel"])
            .to_owned(),
        _ => rng
            .pick(&["a", "b", "x", "y", "n", "data", "out", "v"])
            .to_owned(),
    }
}

const LEAVES: &[&str] = &[
    "u8",
    "u16",
    "u32",
    "u64",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "isize",
    "f32",
    "f64",
    "bool",
    "char",
    "u128",
    "i128",
    "str",
    "String",
    "Self",
    "!",
    "()",
    "_",
    "Point",
    "NotCopy",
    "T",
    "::core::primitive::u32",
    "core::sync::atomic::AtomicU32",
    "core::sync::atomic::AtomicBool",
    "<u32 as Tr>::Assoc",
    "crate::Point",
    "ty_mac!()",
    "ty_mac![]",
    "Ö",
    "r#u32",
    "Out",
    "offload::RawInOut",
    "Option<u32>",
    "[u8; 0]",
    "core::num::NonZeroU32",
    "dyn Tr",
];

/// A type of nesting at most `depth`.
pub fn ty(rng: &mut Rng, depth: usize) -> String {
    if depth == 0 || rng.one_in(3) {
        return rng.pick(LEAVES).to_owned();
    }
    let inner = ty(rng, depth - 1);
    match rng.below(26) {
        0 => format!("&{inner}"),
        1 => format!("&mut {inner}"),
        2 => format!("&'a {inner}"),
        3 => format!("&'static mut {inner}"),
        4 => format!("[{inner}]"),
        5 => format!("&[{inner}]"),
        6 => format!("&mut [{inner}]"),
        7 => format!(
            "[{inner}; {}]",
            rng.pick(&["0", "4", "N", "{ 1 + 1 }", "usize::MAX"])
        ),
        8 => format!("*const {inner}"),
        9 => format!("*mut {inner}"),
        10 => format!(
            "{}fn({inner}) -> {inner}",
            rng.pick(&["", "unsafe ", "extern \"C\" "])
        ),
        11 => format!("dyn Tr<Assoc = {inner}> + Send + 'a"),
        12 => format!("impl Fn({inner}) -> {inner}"),
        13 => format!("({inner},)"),
        14 => format!("({inner}, {})", ty(rng, depth - 1)),
        15 => format!("({inner})"),
        16 => format!("Option<{inner}>"),
        17 => format!("offload::Out<'_, {inner}>"),
        18 => format!("Out<'a, [{inner}]>"),
        19 => format!("offload::RawIn<{inner}>"),
        20 => format!("RawOut<{inner}, {inner}>"),
        21 => format!("offload::RawInOut<'a, {inner}>"),
        22 => format!("Out<'_, {inner}, u8>"),
        23 => format!("Box<{inner}>"),
        24 => format!("Wrap<{inner}>"),
        _ => format!("impl Tr<Assoc = {inner}> + 'a"),
    }
}

/// A type in a shape a kernel takes (its element any type): most kernels
/// of a campaign get past the signature checks to the expansion.
pub fn kernel_ty(rng: &mut Rng) -> String {
    let inner = if rng.below(4) > 0 {
        field_ty(rng)
    } else {
        ty(rng, 2)
    };
    match rng.below(18) {
        0 => format!("&{inner}"),
        1 => format!("&mut {inner}"),
        2 => format!("&'a [{inner}]"),
        3 => format!("&mut [{inner}]"),
        4 => format!("offload::Out<'_, {inner}>"),
        5 => format!("Out<'_, [{inner}]>"),
        6 => format!("offload::RawIn<{inner}>"),
        7 => format!("RawOut<{inner}>"),
        8 => format!("RawInOut<{inner}>"),
        9 => format!("[{inner}; 3]"),
        10 => format!("offload::InOut<'_, {inner}>"),
        11 => format!("InOut<'a, [{inner}]>"),
        12 => format!("&[{}]", atomic_ty(rng)),
        13 => format!("&'a {}", atomic_ty(rng)),
        14 => format!(
            "{}<'_, [{inner}], {}>",
            rng.pick(&["Out", "offload::InOut"]),
            rng.pick(&[
                "offload::partition::Chunks<4>",
                "offload::partition::FirstThread",
                "Strided",
                "u8",
            ])
        ),
        _ => inner,
    }
}

/// An atomic type: the ones a kernel takes by reference, and others.
fn atomic_ty(rng: &mut Rng) -> String {
    rng.pick(&[
        "core::sync::atomic::AtomicU32",
        "offload::atomic::AtomicI64",
        "offload::atomic::AtomicF32",
        "AtomicF64",
        "AtomicUsize",
        "core::sync::atomic::AtomicBool",
        "AtomicU8",
        "AtomicPtr<u8>",
    ])
    .to_owned()
}

/// A type valid as a field of a plain struct: DeviceCopy ones and some
/// that are not (so the macros' own checks fire).
pub fn field_ty(rng: &mut Rng) -> String {
    rng.pick(&[
        "f32",
        "u32",
        "i64",
        "Point",
        "[f32; 4]",
        "bool",
        "usize",
        "u8",
        "[Point; 2]",
        "char",
        "NotCopy",
        "*const u8",
        "Option<u32>",
        "crate::Point",
        "core::num::NonZeroU32",
        "()",
        "[u8; 0]",
        "(u8, u16)",
        "fn(u8)",
        "core::sync::atomic::AtomicU32",
        "u128",
        "Wrap<u8>",
    ])
    .to_owned()
}
