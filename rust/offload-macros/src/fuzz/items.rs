//! Random items aimed at the macros: kernel functions with their
//! `#[kernel(...)]` options, and structs, enums, unions for the derive.
//! Mostly well-formed Rust (so the macros see more than parse errors),
//! with the qualifiers, patterns, attributes and types a kernel must refuse.

use super::rng::Rng;
use super::types::{field_ty, ident, kernel_ty, ty};

/// One generated case: the attribute's arguments and the item, as source.
pub struct Case {
    pub attr: String,
    pub item: String,
}

/// `#[kernel(...)]`'s arguments: none, valid names, garbage.
fn kernel_options(rng: &mut Rng) -> String {
    if rng.one_in(2) {
        return String::new();
    }
    match rng.below(14) {
        0 => "name = \"saxpy_v2\"".to_owned(),
        1 => format!("name = \"{}\"", "s".repeat(1 + rng.below(2000))),
        2 => rng
            .pick(&[
                "name = \"\"",
                "name = \"a b\"",
                "name = \"ü\"",
                "name = \"a\\0b\"",
            ])
            .to_owned(),
        3 => rng
            .pick(&[
                "name = 5",
                "name",
                "name(\"x\")",
                "name = r\"raw\"",
                "name = b\"x\"",
            ])
            .to_owned(),
        4 => "name = \"a\", name = \"b\"".to_owned(),
        5 => rng
            .pick(&[
                "name = \"x\",",
                ",",
                "name = \"x\" name",
                "= =",
                "::name = \"x\"",
            ])
            .to_owned(),
        6 => rng
            .pick(&[
                "device",
                "host, name = \"x\"",
                "r#name = \"x\"",
                "self",
                "crate::name",
            ])
            .to_owned(),
        7 => "name = concat!(\"a\", \"b\")".to_owned(),
        8 => "name = \"$.x_1\"".to_owned(),
        9 => rng
            .pick(&["42", "\"name\"", "name = 'c'", "#[x]", "name = -1"])
            .to_owned(),
        _ => format!("name = \"{}\"", ident(rng).trim_start_matches("r#")),
    }
}

/// Attributes and doc comments on a kernel, one per line.
fn fn_attributes(rng: &mut Rng) -> String {
    const ATTRS: &[&str] = &[
        "/// Adds.",
        "/** Block doc. */",
        "#[doc = \"x\"]",
        "#[doc(hidden)]",
        "#[inline]",
        "#[inline(never)]",
        "#[cfg(all())]",
        "#[cfg(any())]",
        "#[cfg_attr(all(), inline)]",
        "#[allow(unused)]",
        "#[must_use]",
        "#[unsafe(no_mangle)]",
        "#[export_name = \"e\"]",
        "#[track_caller]",
        "#[deprecated]",
        "#[cold]",
        "#[kernel]",
        "#[offload::kernel]",
        "#[rustfmt::skip]",
        "#[test]",
        "#[doc = concat!(\"a\", \"b\")]",
        "#[cfg(feature = \"x\")]",
    ];
    let mut out = String::new();
    for _ in 0..rng.below(4) {
        out.push_str(rng.pick(ATTRS));
        out.push('\n');
    }
    out
}

fn visibility(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        "",
        "",
        "pub ",
        "pub(crate) ",
        "pub(super) ",
        "pub(self) ",
        "pub(in crate) ",
    ])
}

/// `const`, `async`, `unsafe`, `extern`, in the order Rust requires.
fn qualifiers(rng: &mut Rng) -> String {
    let mut out = String::new();
    for (q, odds) in [("const ", 12), ("async ", 12), ("unsafe ", 12)] {
        if rng.one_in(odds) {
            out.push_str(q);
        }
    }
    if rng.one_in(12) {
        out.push_str(rng.pick(&["extern \"C\" ", "extern ", "extern \"gpu-kernel\" "]));
    }
    out
}

fn generics(rng: &mut Rng) -> &'static str {
    if rng.below(3) > 0 {
        return "";
    }
    rng.pick(&[
        "<'a>",
        "<'a, 'b: 'a>",
        "<T>",
        "<T: Copy>",
        "<const N: usize>",
        "<'a, T>",
        "<>",
    ])
}

fn where_clause(rng: &mut Rng) -> &'static str {
    if !rng.one_in(10) {
        return "";
    }
    rng.pick(&[
        " where",
        " where T: Copy",
        " where 'a: 'static",
        " where u32: Copy,",
    ])
}

/// A parameter pattern: mostly a name, sometimes what a kernel refuses.
fn pattern(rng: &mut Rng) -> String {
    let name = ident(rng);
    match rng.below(16) {
        0 => format!("mut {name}"),
        1 => format!("ref {name}"),
        2 => format!("ref mut {name}"),
        3 => "_".to_owned(),
        4 => "(a, b)".to_owned(),
        5 => "[a, b]".to_owned(),
        6 => "&x".to_owned(),
        7 => "Point { x, y }".to_owned(),
        8 => format!("{name} @ _"),
        _ => name,
    }
}

fn receiver(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        "self",
        "&self",
        "&'a mut self",
        "mut self",
        "self: Box<Self>",
    ])
}

fn parameters(rng: &mut Rng) -> String {
    let mut params = Vec::new();
    if rng.one_in(20) {
        params.push(receiver(rng).to_owned());
    }
    let count = if rng.one_in(30) {
        40 + rng.below(100)
    } else {
        rng.below(6)
    };
    for _ in 0..count {
        params.push(format!("{}: {}", pattern(rng), ty(rng, 3)));
    }
    if rng.one_in(40) {
        params.push("...".to_owned());
    }
    params.join(", ")
}

fn return_type(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => format!(" -> {}", ty(rng, 2)),
        1 => rng
            .pick(&[" -> ()", " -> ( )", " -> !", " -> Self", " -> impl Tr"])
            .to_owned(),
        _ => String::new(),
    }
}

fn body(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        "{}",
        "{ return; }",
        "{ return 0; }",
        "{ let _ = 1; }",
        "{ loop {} }",
        "{ unimplemented!() }",
        "{ if true { return; } }",
        "{ ; }",
        "{ #![allow(unused)] }",
        "{ //! Inner doc.\n }",
        "{ fn inner() {} inner() }",
        "{ let _ = async {}; }",
        "{ let x = 1; x }",
    ])
}

/// A kernel most of whose signature passes the checks: a plain function
/// with named parameters of the shapes a kernel takes.
fn tame_kernel(rng: &mut Rng) -> Case {
    let count = rng.below(7);
    let params: Vec<String> = (0..count)
        .map(|i| {
            let name = if rng.one_in(4) {
                ident(rng)
            } else {
                format!("p{i}")
            };
            let name = if name == "_" || name == "launch" {
                format!("q{i}")
            } else {
                name
            };
            format!("{}{name}: {}", rng.pick(&["", "mut "]), kernel_ty(rng))
        })
        .collect();
    let attr = if rng.one_in(3) {
        kernel_options(rng)
    } else {
        String::new()
    };
    let item = format!(
        "{}{}fn {}{}({}) {}",
        fn_attributes(rng),
        visibility(rng),
        ident(rng),
        rng.pick(&["", "", "<'a>", "<'a, 'b>"]),
        params.join(", "),
        body(rng),
    );
    Case { attr, item }
}

/// A kernel function with its options.
pub fn kernel(rng: &mut Rng) -> Case {
    if rng.one_in(2) {
        return tame_kernel(rng);
    }
    let item = format!(
        "{}{}{}fn {}{}({}){}{} {}",
        fn_attributes(rng),
        visibility(rng),
        qualifiers(rng),
        ident(rng),
        generics(rng),
        parameters(rng),
        return_type(rng),
        where_clause(rng),
        body(rng),
    );
    Case {
        attr: kernel_options(rng),
        item,
    }
}

/// `#[repr(...)]` and other attributes of a derive input.
fn type_attributes(rng: &mut Rng) -> String {
    const REPRS: &[&str] = &[
        "C",
        "C",
        "C",
        "transparent",
        "packed",
        "C, packed",
        "C, align(8)",
        "align(0)",
        "u8",
        "Rust",
        "C(x)",
        "",
        "packed(2)",
        "\"C\"",
        "C = 1",
        "C, C",
        "align",
        "align(x, y)",
        "simd",
        "C, packed(1), align(4)",
        "i32, C",
    ];
    let mut out = String::new();
    for _ in 0..rng.below(3) {
        match rng.below(10) {
            0 => out.push_str(rng.pick(&["#[repr]\n", "#[repr = \"C\"]\n", "#[repr[C]]\n"])),
            1 => {
                out.push_str(rng.pick(&["/// Doc.\n", "#[cfg(all())]\n", "#[allow(dead_code)]\n"]))
            }
            2 => out.push_str("#[derive(Clone, Copy)]\n"),
            _ => out.push_str(&format!("#[repr({})]\n", rng.pick(REPRS))),
        }
    }
    out
}

fn type_generics(rng: &mut Rng) -> &'static str {
    if rng.below(3) > 0 {
        return "";
    }
    rng.pick(&[
        "<T>",
        "<'a>",
        "<const N: usize>",
        "<T: Copy = u8>",
        "<T, U>",
        "<'a, T: 'a>",
        "<>",
    ])
}

fn fields(rng: &mut Rng, named: bool) -> String {
    let count = if rng.one_in(40) {
        50 + rng.below(200)
    } else {
        rng.below(5)
    };
    let mut out = Vec::new();
    for i in 0..count {
        let attr = rng.pick(&[
            "",
            "",
            "",
            "/// F.\n",
            "#[cfg(any())] ",
            "#[allow(unused)] ",
        ]);
        let vis = visibility(rng);
        let ty = ty(rng, 3);
        if named {
            let name = if rng.one_in(3) {
                ident(rng)
            } else {
                format!("f{i}")
            };
            out.push(format!("{attr}{vis}{name}: {ty}"));
        } else {
            out.push(format!("{attr}{vis}{ty}"));
        }
    }
    out.join(", ")
}

/// The item's keyword, name, generics, where clause and body.
fn type_body(rng: &mut Rng, name: &str, generics: &str, wc: &str) -> String {
    match rng.below(10) {
        0 => format!("struct {name}{generics}({}){wc};", fields(rng, false)),
        1 => format!("struct {name}{generics}{wc};"),
        2 => format!(
            "enum {name}{generics}{wc} {{ A, B(u8), C {{ x: {} }}, D = 1 }}",
            ty(rng, 2)
        ),
        3 => format!("enum {name}{generics}{wc} {{}}"),
        4 => format!("union {name}{generics}{wc} {{ {} }}", fields(rng, true)),
        5 => rng
            .pick(&[
                "fn f() {}",
                "type A = u8;",
                "impl X {}",
                "struct",
                "struct S { x }",
            ])
            .to_owned(),
        _ => format!("struct {name}{generics}{wc} {{ {} }}", fields(rng, true)),
    }
}

/// A `#[repr(C)]` struct that is valid Rust: plain fields, a generic
/// parameter used or not.
fn tame_derive_input(rng: &mut Rng) -> Case {
    let generic = rng.one_in(3);
    let fields: Vec<String> = (0..rng.below(5))
        .map(|i| {
            let ty = if generic && rng.one_in(2) {
                "T".to_owned()
            } else {
                field_ty(rng)
            };
            format!("{}f{i}: {ty}", rng.pick(&["", "pub "]))
        })
        .collect();
    let (generics, marker) = if generic {
        let marker = "core::marker::PhantomData<T>";
        (
            rng.pick(&["<T: Copy>", "<T: Copy + 'static>"]),
            format!("_m: {marker}, "),
        )
    } else {
        ("", String::new())
    };
    let item = format!(
        "#[repr({})]\n#[derive(Clone, Copy)]\n{}struct {}{generics} {{ {marker}{} }}",
        rng.pick(&["C", "C", "C, align(16)", "C, packed", "transparent"]),
        visibility(rng),
        ident(rng),
        fields.join(", "),
    );
    Case {
        attr: String::new(),
        item,
    }
}

/// A struct, enum or union for `#[derive(DeviceCopy)]`.
pub fn derive_input(rng: &mut Rng) -> Case {
    if rng.one_in(3) {
        return tame_derive_input(rng);
    }
    let attrs = if rng.one_in(2) {
        format!("#[repr(C)]\n{}", type_attributes(rng))
    } else {
        type_attributes(rng)
    };
    let vis = visibility(rng);
    let name = ident(rng);
    let generics = type_generics(rng);
    let wc = where_clause(rng);
    let body = type_body(rng, &name, generics, wc);
    Case {
        attr: String::new(),
        item: format!("{attrs}{vis}{body}"),
    }
}
