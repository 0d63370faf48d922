"""The type model, aggregates: #[repr(C)] structs, single-field wrappers,
arrays and #[repr(C)] unions, with their fields' offsets."""

from .types import Ty, align_to


class Struct(Ty):
    """#[repr(C)] or #[repr(C, align(N))] struct with fields f0, f1, ..."""
    named = True
    prefix = "f"  # field names; the record's are r0, r1, ... (f16 is a type)

    def __init__(self, fields, align_attr=None):
        self.fields, self.align_attr = fields, align_attr
        off, al = 0, 1
        self.offsets = []
        for f in fields:
            off = align_to(off, f.align)
            self.offsets.append(off)
            off += f.size
            al = max(al, f.align)
        if align_attr:
            al = max(al, align_attr)
        self.align, self.size = al, align_to(off, al)

    def children(self):
        return list(self.fields)

    def json(self):
        return ["struct", [f.json() for f in self.fields], self.align_attr]

    def shape(self):
        inner = ", ".join(f.shape() for f in self.fields)
        return f"C{{{inner}}}" + (f"a{self.align_attr}" if self.align_attr else "")

    def rust_decl(self):
        attr = f"#[repr(C, align({self.align_attr}))]" if self.align_attr else "#[repr(C)]"
        fields = ", ".join(f"pub f{i}: {f.rust()}" for i, f in enumerate(self.fields))
        return f"{attr} pub struct {self.name} {{ {fields} }}"

    def c_decl(self):
        # C++ refuses alignas below the natural alignment; repr(align) ignores it
        alignas = f"alignas({self.align}) " if self.align_attr else ""
        fields = " ".join(f"{f.c()} f{i};" for i, f in enumerate(self.fields))
        return f"struct {alignas}{self.name} {{ {fields} }};"

    def rust(self):
        return self.name

    def c(self):
        return self.name

    def field_offsets(self):
        return [(f"{self.prefix}{i}", o) for i, o in enumerate(self.offsets)]


WRAPPER_KINDS = ["rust", "transparent", "c", "c_align", "rust_align"]


class Wrapper(Ty):
    """A single-field tuple struct: Rust repr, transparent, C, over-aligned."""
    named = True

    def __init__(self, inner, kind, align_attr=None):
        self.inner, self.kind, self.align_attr = inner, kind, align_attr
        al = inner.align
        if kind in ("c_align", "rust_align"):
            al = max(al, align_attr)
        self.align, self.size = al, align_to(inner.size, al)

    def children(self):
        return [self.inner]

    def json(self):
        return ["wrapper", self.inner.json(), self.kind, self.align_attr]

    def shape(self):
        tag = {"rust": "W", "transparent": "T", "c": "C", "c_align": f"Ca{self.align_attr}",
               "rust_align": f"Wa{self.align_attr}"}[self.kind]
        return f"{tag}({self.inner.shape()})"

    def rust_decl(self):
        attr = {"rust": "", "transparent": "#[repr(transparent)] ", "c": "#[repr(C)] ",
                "c_align": f"#[repr(C, align({self.align_attr}))] ",
                "rust_align": f"#[repr(align({self.align_attr}))] "}[self.kind]
        return f"{attr}pub struct {self.name}(pub {self.inner.rust()});"

    def c_decl(self):
        alignas = f"alignas({self.align}) " if self.kind in ("c_align", "rust_align") else ""
        return f"struct {alignas}{self.name} {{ {self.inner.c()} f0; }};"

    def rust(self):
        return self.name

    def c(self):
        return self.name

    def field_offsets(self):
        return [("0", 0)]


class Array(Ty):
    named = True  # a C typedef

    def __init__(self, elem, n):
        self.elem, self.n = elem, n
        self.size, self.align = elem.size * n, elem.align

    def children(self):
        return [self.elem]

    def json(self):
        return ["array", self.elem.json(), self.n]

    def shape(self):
        return f"[{self.elem.shape()}; {self.n}]"

    def rust(self):
        return f"[{self.elem.rust()}; {self.n}]"

    def c_decl(self):
        return f"typedef {self.elem.c()} {self.name}[{self.n}];"


class Union(Ty):
    named = True

    def __init__(self, fields):
        self.fields = fields
        self.align = max(f.align for f in fields)
        self.size = align_to(max(f.size for f in fields), self.align)

    def children(self):
        return list(self.fields)

    def json(self):
        return ["union", [f.json() for f in self.fields]]

    def shape(self):
        return "union{" + ", ".join(f.shape() for f in self.fields) + "}"

    def rust_decl(self):
        fields = ", ".join(f"pub u{i}: {f.rust()}" for i, f in enumerate(self.fields))
        return f"#[repr(C)] pub union {self.name} {{ {fields} }}"

    def c_decl(self):
        fields = " ".join(f"{f.c()} u{i};" for i, f in enumerate(self.fields))
        return f"union {self.name} {{ {fields} }};"

    def rust(self):
        return self.name

    def c(self):
        return self.name

    def field_offsets(self):
        return [(f"u{i}", 0) for i in range(len(self.fields))]
