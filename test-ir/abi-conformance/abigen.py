"""Random Rust kernel signatures and their HIP C equivalents.

A kernel (`Kernel`) is a list of parameters, each a type (`Ty`) with one
concrete value, an output parameter `out: *mut R<k>` at a random position and,
for about a third of the kernels, writes into a by-value argument before the
body reads it. From a kernel this module emits

- Rust for `#![no_core]` rustc 1.95 (`extern "gpu-kernel"`), whose body
  stores every field of every parameter into the `#[repr(C)]` record `*out`
  (one record field per leaf, or per whole aggregate now and then);
- the equivalent HIP C: the same types (`#[repr(C)]` structs and unions as C
  structs and unions, `#[repr(Int)]` enums as C++ enums with that underlying
  type, references and `Option<&T>`-like enums as pointers, slices as
  `struct { const T *ptr; usize len; }`, top-level Rust arrays as a struct
  around the array since C has no array parameters) and the same body;
- `static_assert`s (C) and `const` array-length checks (Rust) that both
  compilers agree with this module's layout model (sizes, alignments, field
  offsets), so the two signatures are equivalent by construction and checked;
- the kernarg bytes of its values (`Kernel.arg_bytes`) and the record bytes
  the body must store (`Kernel.expected_record`).

Everything is deterministic in (seed, kernel id); a kernel is also a JSON
value (`to_json` / `kernel_from_json`), which the reducer and the stored
failing cases use.
"""

import random
import struct

# Addresses the x86_64 driver (driver.c) maps at a fixed place: pointer
# values point into the arena; `out` is OUT_ADDR.
ARENA = 0x200000000000
ARENA_SIZE = 1 << 20
OUT_ADDR = ARENA + ARENA_SIZE
OUT_SIZE = 1 << 16
FILL = 0xCD  # the driver fills the record with this before each call


def align_to(x, a):
    return (x + a - 1) // a * a


# ---------------------------------------------------------------------------
# Types

# name: (size, align, kind). Rust i128/u128 have alignment 8 on amdgcn
# (the data layout has no i128 entry); C's __int128 has 16, so the C
# typedefs lower it (checked by static_assert).
SCALARS = {
    "u8": (1, 1, "uint"), "i8": (1, 1, "sint"),
    "u16": (2, 2, "uint"), "i16": (2, 2, "sint"),
    "u32": (4, 4, "uint"), "i32": (4, 4, "sint"),
    "u64": (8, 8, "uint"), "i64": (8, 8, "sint"),
    "u128": (16, 8, "uint"), "i128": (16, 8, "sint"),
    "usize": (8, 8, "uint"), "isize": (8, 8, "sint"),
    "f16": (2, 2, "float"), "f32": (4, 4, "float"), "f64": (8, 8, "float"),
    "bool": (1, 1, "bool"), "char": (4, 4, "char"),
}
C_SCALAR = {"char": "rchar"}  # everything else has a typedef of its own name

INT_REPRS = ["u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64"]


class Ty:
    """A type. Subclasses set size, align; named ones get a name from the kernel."""
    named = False
    name = None

    def children(self):
        return []

    def copy(self):
        return all(c.copy() for c in self.children())

    def c(self):
        return self.name


class Scalar(Ty):
    def __init__(self, name):
        self.sname = name
        self.size, self.align, self.kind = SCALARS[name]

    def rust(self):
        return self.sname

    def c(self):
        return C_SCALAR.get(self.sname, self.sname)

    def json(self):
        return ["scalar", self.sname]

    def shape(self):
        return self.sname


PTR_KINDS = {"const": "*const {}", "mut": "*mut {}", "ref": "&'static {}",
             "mutref": "&'static mut {}", "nn": "NN<{}>"}
OPT_KINDS = {"ref": "OptRef<'static, {}>", "mutref": "OptMut<'static, {}>",
             "nn": "OptNN<{}>", "maybe": "Maybe<'static, {}>"}


class Pointer(Ty):
    """A pointer-sized, pointer-aligned pointer type spelled from `KINDS`."""
    named = True
    size = align = 8
    KINDS = {}    # kind -> Rust spelling with {} for the pointee
    TAG = ""      # json tag
    MUTABLE = ()  # kinds whose C typedef is not const
    LIFETIME = ""  # dropped from the shape

    def __init__(self, kind, pointee):
        self.kind, self.pointee = kind, pointee

    def children(self):
        return [self.pointee]

    def copy(self):
        return self.kind != "mutref"

    def rust(self):
        return self.KINDS[self.kind].format(self.pointee.rust())

    def json(self):
        return [self.TAG, self.kind, self.pointee.json()]

    def shape(self):
        return self.KINDS[self.kind].format("T").replace(self.LIFETIME, "")

    def c_decl(self):
        const = "" if self.kind in self.MUTABLE else "const "
        return f"typedef {const}{self.pointee.c()} *{self.name};"


class Ptr(Pointer):
    """Raw pointers, references and NN<T> (a NonNull-like wrapper)."""
    KINDS, TAG, MUTABLE, LIFETIME = PTR_KINDS, "ptr", ("mut", "mutref"), "'static "


class Opt(Pointer):
    """Option<&T>-like enums: a niche-optimised pointer (null is None)."""
    KINDS, TAG, MUTABLE, LIFETIME = OPT_KINDS, "opt", ("mutref",), "'static, "


SLICE_KINDS = {"ref": "&'static [{}]", "raw": "*const [{}]", "mutraw": "*mut [{}]", "str": "&'static str"}


class Slice(Ty):
    named = True
    size = 16
    align = 8

    def __init__(self, kind, elem):
        self.kind = kind
        self.elem = Scalar("u8") if kind == "str" else elem

    def children(self):
        return [self.elem]

    def copy(self):
        return True

    def rust(self):
        return SLICE_KINDS[self.kind].format(self.elem.rust())

    def json(self):
        return ["slice", self.kind, self.elem.json()]

    def shape(self):
        return SLICE_KINDS[self.kind].format("T").replace("'static ", "")

    def c_decl(self):
        const = "" if self.kind == "mutraw" else "const "
        return f"struct {self.name} {{ {const}{self.elem.c()} *ptr; usize len; }};"

    def c_asserts(self):
        return [f"static_assert(offsetof({self.name}, len) == 8, \"{self.name}\");"]


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


class CEnum(Ty):
    """A fieldless enum: #[repr(C)] (C int) or #[repr(<int>)]."""
    named = True

    def __init__(self, repr_, values):
        self.repr_, self.values = repr_, values
        tag = "i32" if repr_ == "C" else repr_
        self.size, self.align, _ = SCALARS[tag]
        self.tag = tag

    def json(self):
        return ["enum", self.repr_, self.values]

    def shape(self):
        return f"enum({self.repr_})"

    def rust_decl(self):
        vs = ", ".join(f"V{i} = {v}" for i, v in enumerate(self.values))
        return f"#[repr({self.repr_})] pub enum {self.name} {{ {vs} }}"

    def c_decl(self):
        vs = ", ".join(f"{self.name}_V{i} = {c_int_literal(v, self.tag)}" for i, v in enumerate(self.values))
        return f"enum {self.name} : {self.tag} {{ {vs} }};"

    def rust(self):
        return self.name

    def c(self):
        return self.name


class DataEnum(Ty):
    """An enum with fields and a defined layout (RFC 2195):
    #[repr(C)] / #[repr(C, Int)]: struct { tag; union { struct {fields} V0; ... } u; }
    #[repr(Int)]:                  union { struct { Int tag; fields } V0; ... }."""
    named = True

    def __init__(self, repr_, variants, discriminants):
        self.repr_, self.variants, self.discriminants = repr_, variants, discriminants
        if repr_ == "C":
            self.tag, self.tagged_union = "i32", False
        elif repr_.startswith("C,"):
            self.tag, self.tagged_union = repr_[2:].strip(), False
        else:
            self.tag, self.tagged_union = repr_, True
        tsize, talign, _ = SCALARS[self.tag]
        self.tag_size = tsize
        # offsets of each variant's fields, from the start of the enum
        self.field_offsets_v = []
        if self.tagged_union:
            size, al = tsize, talign
            for fields in variants:
                off, val = tsize, talign
                offs = []
                for f in fields:
                    off = align_to(off, f.align)
                    offs.append(off)
                    off += f.size
                    val = max(val, f.align)
                self.field_offsets_v.append(offs)
                size, al = max(size, align_to(off, val)), max(al, val)
            self.align, self.size = al, align_to(size, al)
        else:
            usize_, ual = 0, 1
            rel = []
            for fields in variants:
                off, val = 0, 1
                offs = []
                for f in fields:
                    off = align_to(off, f.align)
                    offs.append(off)
                    off += f.size
                    val = max(val, f.align)
                rel.append(offs)
                if fields:
                    usize_, ual = max(usize_, align_to(off, val)), max(ual, val)
            self.union_offset = align_to(tsize, ual)
            self.align = max(talign, ual)
            self.size = align_to(self.union_offset + align_to(usize_, ual), self.align)
            self.field_offsets_v = [[self.union_offset + o for o in offs] for offs in rel]

    def children(self):
        return [f for fields in self.variants for f in fields]

    def json(self):
        return ["dataenum", self.repr_, [[f.json() for f in v] for v in self.variants], self.discriminants]

    def shape(self):
        vs = " | ".join("(" + ", ".join(f.shape() for f in v) + ")" for v in self.variants)
        return f"enum({self.repr_}){{{vs}}}"

    def rust_decl(self):
        vs = []
        for i, fields in enumerate(self.variants):
            v = f"V{i}"
            if fields:
                v += "(" + ", ".join(f.rust() for f in fields) + ")"
            if self.repr_ != "C":
                v += f" = {self.discriminants[i]}"
            vs.append(v)
        return f"#[repr({self.repr_})] pub enum {self.name} {{ {', '.join(vs)} }}"

    def c_decl(self):
        if self.tagged_union:
            members = []
            for i, fields in enumerate(self.variants):
                fs = " ".join(f"{f.c()} _{j};" for j, f in enumerate(fields))
                members.append(f"struct {{ {self.tag} tag; {fs} }} V{i};")
            return f"union {self.name} {{ {' '.join(members)} }};"
        members = []
        for i, fields in enumerate(self.variants):
            if fields:
                fs = " ".join(f"{f.c()} _{j};" for j, f in enumerate(fields))
                members.append(f"struct {{ {fs} }} V{i};")
        return f"struct {self.name} {{ {self.tag} tag; union {{ {' '.join(members)} }} u; }};"

    def c_tag(self, cexpr):
        return f"{cexpr}.V0.tag" if self.tagged_union else f"{cexpr}.tag"

    def c_field(self, cexpr, v, j):
        return f"{cexpr}.V{v}._{j}" if self.tagged_union else f"{cexpr}.u.V{v}._{j}"

    def c_asserts(self):
        out = []
        for v, offs in enumerate(self.field_offsets_v):
            for j, o in enumerate(offs):
                member = f"V{v}._{j}" if self.tagged_union else f"u.V{v}._{j}"
                out.append(f"static_assert(offsetof({self.name}, {member}) == {o}, \"{self.name}\");")
        return out

    def rust(self):
        return self.name

    def c(self):
        return self.name


def c_int_literal(v, tag):
    if tag in ("i64", "isize") and v == -(1 << 63):
        return "(-9223372036854775807LL - 1)"
    suffix = {"u64": "ULL", "i64": "LL", "u32": "U"}.get(tag, "")
    return f"{v}{suffix}"


def ty_from_json(j):
    k = j[0]
    if k == "scalar":
        return Scalar(j[1])
    if k == "ptr":
        return Ptr(j[1], ty_from_json(j[2]))
    if k == "opt":
        return Opt(j[1], ty_from_json(j[2]))
    if k == "slice":
        return Slice(j[1], ty_from_json(j[2]))
    if k == "struct":
        return Struct([ty_from_json(f) for f in j[1]], j[2])
    if k == "wrapper":
        return Wrapper(ty_from_json(j[1]), j[2], j[3])
    if k == "array":
        return Array(ty_from_json(j[1]), j[2])
    if k == "union":
        return Union([ty_from_json(f) for f in j[1]])
    if k == "enum":
        return CEnum(j[1], j[2])
    if k == "dataenum":
        return DataEnum(j[1], [[ty_from_json(f) for f in v] for v in j[2]], j[3])
    raise ValueError(j)


def walk(ty):
    """Every type node, children first (the order declarations need)."""
    for c in ty.children():
        yield from walk(c)
    yield ty


# ---------------------------------------------------------------------------
# Random types

class TypeGen:
    def __init__(self, rng):
        self.rng = rng

    def scalar(self):
        r = self.rng
        names = list(SCALARS)
        # favour the common widths; every one appears
        weights = [3 if n in ("u8", "u32", "u64", "f32", "bool", "i32", "usize") else 1 for n in names]
        return Scalar(r.choices(names, weights)[0])

    def pointee(self, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.6:
            return self.scalar()
        return self.ty(depth - 1, copy_only=True, no_ptr=True)

    def ty(self, depth, copy_only=False, no_ptr=False, top=False):
        r = self.rng
        kinds = ["scalar", "ptr", "opt", "slice", "struct", "pair", "wrapper", "array", "union", "enum", "dataenum"]
        weights = [22, 9, 7, 6, 16, 10, 12, 6, 4, 4, 4]
        if depth <= 0:
            kinds, weights = ["scalar", "ptr", "opt", "enum"], [70, 12, 10, 8]
        if no_ptr:
            weights = [w if k not in ("ptr", "opt", "slice") else 0 for k, w in zip(kinds, weights)]
        k = r.choices(kinds, weights)[0]
        if k == "scalar":
            return self.scalar()
        if k == "ptr":
            kinds_ = ["const", "mut", "ref", "nn"] + ([] if copy_only else ["mutref"])
            return Ptr(r.choice(kinds_), self.pointee(depth - 1))
        if k == "opt":
            kinds_ = ["ref", "nn", "maybe"] + ([] if copy_only else ["mutref"])
            return Opt(r.choice(kinds_), self.pointee(depth - 1))
        if k == "slice":
            return Slice(r.choice(["ref", "raw", "mutraw", "str"]), self.scalar())
        if k == "struct":
            n = r.choice([1, 2, 2, 3, 3, 4])
            fields = [self.ty(depth - 1, copy_only, no_ptr) for _ in range(n)]
            return Struct(fields, self.align_attr(fields))
        if k == "pair":
            # two scalar leaves: the ScalarPair rustc splits into two parameters
            # (also around single-field wrappers)
            fields = []
            for _ in range(2):
                f = self.leafish(no_ptr)
                if r.random() < 0.2:
                    f = Wrapper(f, r.choice(["rust", "transparent", "c"]))
                fields.append(f)
            s = Struct(fields)
            if r.random() < 0.15:
                return Wrapper(s, r.choice(["rust", "transparent", "c"]))
            return s
        if k == "wrapper":
            kind = r.choice(WRAPPER_KINDS)
            inner = self.leafish(no_ptr) if r.random() < 0.6 else self.ty(depth - 1, copy_only, no_ptr)
            al = None
            if kind in ("c_align", "rust_align"):
                al = r.choice([2, 4, 8, 16, 32])
            return Wrapper(inner, kind, al)
        if k == "array":
            return Array(self.ty(depth - 1, copy_only, no_ptr) if r.random() < 0.3 else self.leafish(no_ptr),
                         r.choice([1, 1, 2, 2, 3, 4]))
        if k == "union":
            n = r.choice([2, 2, 3])
            return Union([self.ty(depth - 1, True, no_ptr) for _ in range(n)])
        if k == "enum":
            return self.c_enum()
        if k == "dataenum":
            return self.data_enum(depth, copy_only, no_ptr)
        raise AssertionError(k)

    def leafish(self, no_ptr=False):
        r = self.rng
        if no_ptr or r.random() < 0.7:
            return self.scalar()
        return r.choice([lambda: Ptr(r.choice(["const", "mut", "ref", "nn"]), self.scalar()),
                         lambda: Opt(r.choice(["ref", "nn"]), self.scalar()),
                         lambda: self.c_enum()])()

    def align_attr(self, fields):
        if self.rng.random() < 0.12:
            return self.rng.choice([4, 8, 16, 32])
        return None

    def c_enum(self):
        r = self.rng
        repr_ = r.choice(["C"] + INT_REPRS)
        tag = "i32" if repr_ == "C" else repr_
        lo, hi = int_range(tag)
        n = r.choice([1, 2, 3, 4])
        values = sorted(set(r.choice([lo, hi, 0, 1, r.randint(lo, hi)]) for _ in range(n)))
        return CEnum(repr_, values)

    def data_enum(self, depth, copy_only, no_ptr):
        r = self.rng
        repr_ = r.choice(["C", "C, u8", "C, u32", "u8", "u16", "i32", "u64"])
        nv = r.choice([2, 2, 3])
        variants = []
        for _ in range(nv):
            nf = r.choice([0, 1, 1, 2])
            variants.append([self.ty(depth - 2, copy_only, no_ptr) if r.random() < 0.2 else self.leafish(no_ptr)
                             for _ in range(nf)])
        if not any(variants):
            variants[0] = [self.scalar()]
        tag = "i32" if repr_ == "C" else repr_.replace("C,", "").strip()
        lo, hi = int_range(tag)
        discs = []
        while len(discs) < nv:
            d = r.choice([r.randint(0, 5), r.randint(max(lo, -100), min(hi, 1000)), hi])
            if d not in discs:
                discs.append(d)
        if repr_ == "C":
            discs = list(range(nv))
        return DataEnum(repr_, variants, discs)


def int_range(tag):
    size = SCALARS[tag][0] * 8
    if tag.startswith("i"):
        return -(1 << (size - 1)), (1 << (size - 1)) - 1
    return 0, (1 << size) - 1


# ---------------------------------------------------------------------------
# Values (JSON-able): scalars and pointers are ints (raw bits); slices
# [ptr, len]; structs, wrappers, arrays lists; unions [index, value]; data
# enums [variant, [field values]]; fieldless enums the discriminant.

def rand_value(ty, r):
    if isinstance(ty, Scalar):
        return rand_scalar(ty, r)
    if isinstance(ty, (Ptr, Opt)):
        if (isinstance(ty, Opt) or ty.kind in ("const", "mut")) and r.random() < 0.25:
            return 0
        return ARENA + align_to(r.randrange(0, ARENA_SIZE // 2), max(ty.pointee.align, 1))
    if isinstance(ty, Slice):
        n = r.randrange(0, 64)
        return [ARENA + align_to(r.randrange(0, ARENA_SIZE // 2), ty.elem.align), n]
    if isinstance(ty, Struct):
        return [rand_value(f, r) for f in ty.fields]
    if isinstance(ty, Wrapper):
        return [rand_value(ty.inner, r)]
    if isinstance(ty, Array):
        return [rand_value(ty.elem, r) for _ in range(ty.n)]
    if isinstance(ty, Union):
        i = r.randrange(len(ty.fields))
        return [i, rand_value(ty.fields[i], r)]
    if isinstance(ty, CEnum):
        return r.choice(ty.values)
    if isinstance(ty, DataEnum):
        v = r.randrange(len(ty.variants))
        return [v, [rand_value(f, r) for f in ty.variants[v]]]
    raise AssertionError(ty)


def rand_scalar(ty, r):
    bits = ty.size * 8
    if ty.kind == "bool":
        return r.randrange(2)
    if ty.kind == "char":
        return r.choice([r.randrange(0, 0xD800), r.randrange(0xE000, 0x110000), 0x41])
    if ty.kind == "float":
        # random sign and mantissa, exponent neither 0 nor all ones (no
        # NaN, infinity or subnormal: every value survives any float move)
        ebits, mbits = {16: (5, 10), 32: (8, 23), 64: (11, 52)}[bits]
        e = r.randrange(1, (1 << ebits) - 1)
        return (r.randrange(2) << (bits - 1)) | (e << mbits) | r.randrange(1 << mbits)
    c = r.random()
    if c < 0.3:
        return r.randrange(0, 256)
    if c < 0.4:
        return (1 << bits) - 1
    return r.randrange(0, 1 << bits)


def serialize(ty, value, buf, off, mask):
    """Writes value at buf[off:]; sets mask[i] for every byte that carries
    the value (padding and inactive union bytes stay unset)."""
    if isinstance(ty, (Scalar, Ptr, Opt, CEnum)):
        size = ty.size
        v = value & ((1 << (size * 8)) - 1)
        buf[off:off + size] = v.to_bytes(size, "little")
        for i in range(size):
            mask[off + i] = 1
    elif isinstance(ty, Slice):
        serialize(Scalar("u64"), value[0], buf, off, mask)
        serialize(Scalar("u64"), value[1], buf, off + 8, mask)
    elif isinstance(ty, Struct):
        for f, o, v in zip(ty.fields, ty.offsets, value):
            serialize(f, v, buf, off + o, mask)
    elif isinstance(ty, Wrapper):
        serialize(ty.inner, value[0], buf, off, mask)
    elif isinstance(ty, Array):
        for i, v in enumerate(value):
            serialize(ty.elem, v, buf, off + i * ty.elem.size, mask)
    elif isinstance(ty, Union):
        serialize(ty.fields[value[0]], value[1], buf, off, mask)
    elif isinstance(ty, DataEnum):
        vi, fvals = value
        serialize(Scalar(ty.tag), ty.discriminants[vi], buf, off, mask)
        for f, o, v in zip(ty.variants[vi], ty.field_offsets_v[vi], fvals):
            serialize(f, v, buf, off + o, mask)
    else:
        raise AssertionError(ty)


# ---------------------------------------------------------------------------
# Literals for writes

def write_literal(ty, r):
    """(rust literal, C literal, value bits) for a value to write into a leaf."""
    if isinstance(ty, CEnum):
        i = r.randrange(len(ty.values))
        return f"{ty.name}::V{i}", f"{ty.name}_V{i}", ty.values[i]
    k, bits = ty.kind, ty.size * 8
    if k == "bool":
        v = r.randrange(2)
        return ("true" if v else "false"), ("true" if v else "false"), v
    if k == "char":
        v = r.choice([0x41, 0x7A, 0x263A])
        return f"'\\u{{{v:x}}}'", f"(rchar){v}", v
    if k == "float":
        x = r.choice([2.5, -0.75, 100.0, 0.5, -3.0])
        fmt = {16: "e", 32: "f", 64: "d"}[bits]
        v = int.from_bytes(struct.pack("<" + fmt, x), "little")
        return f"{x!r}{ty.sname}", f"({ty.c()}){x!r}", v
    lo, hi = (0, (1 << bits) - 1) if k == "uint" else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    v = r.choice([7, 0, 1, min(hi, 0x12345678), max(lo, -2)])
    lit_c = f"({ty.c()}){v}" if bits <= 64 else f"(({ty.c()}){v})"
    return f"{v}{ty.sname}", lit_c, v & ((1 << bits) - 1)


def writable(ty):
    return isinstance(ty, CEnum) or (isinstance(ty, Scalar))


def write_paths(ty, path=()):
    """Paths to scalar leaves reachable through struct fields and wrappers,
    with at most one array step, at the end (arrays are written by rebuilding
    them: Rust cannot index without core)."""
    if writable(ty):
        yield path, ty
    elif isinstance(ty, Struct):
        for i, f in enumerate(ty.fields):
            yield from write_paths(f, path + (("f", i),))
    elif isinstance(ty, Wrapper):
        yield from write_paths(ty.inner, path + (("w", 0),))
    elif isinstance(ty, Array) and writable(ty.elem) and ty.elem.copy():
        for i in range(ty.n):
            yield path + (("a", i),), ty.elem


def path_exprs(name, path, cname=None):
    rust, c = name, cname or name
    for step, i in path:
        if step == "f":
            rust, c = f"{rust}.f{i}", f"{c}.f{i}"
        elif step == "w":
            rust, c = f"{rust}.0", f"{c}.f0"
        elif step == "a":
            c = f"{c}[{i}]"
    return rust, c


def value_at(value, path):
    for step, i in path:
        value = value[i]
    return value


def set_value_at(value, path, v):
    for step, i in path[:-1]:
        value = value[i]
    value[path[-1][1]] = v


# ---------------------------------------------------------------------------
# Kernels

class Kernel:
    """params: list of [name, Ty, value]; out_pos: index of `out` among the
    parameters; writes: list of dicts (see gen_writes)."""

    def __init__(self, kid, params, out_pos, writes, read_seed):
        self.kid, self.params, self.out_pos, self.writes, self.read_seed = kid, params, out_pos, writes, read_seed
        self.name = f"k{kid}"
        self._build()

    # -- JSON
    def to_json(self):
        return {"id": self.kid, "params": [[n, t.json(), v] for n, t, v in self.params],
                "out_pos": self.out_pos, "writes": self.writes, "read_seed": self.read_seed}

    # -- naming and body
    def _build(self):
        self.types = []  # named type nodes in declaration order
        seen = {}
        for _, ty, _ in self.params:
            for node in walk(ty):
                if node.named:
                    key = repr(node.json())
                    if key in seen:
                        node.name = seen[key].name
                        continue
                    node.name = f"T{self.kid}_{len(self.types)}"
                    seen[key] = node
                    self.types.append(node)
        self._body()

    def _body(self):
        r = random.Random(self.read_seed)
        self.rec = []  # [Ty, expected value or None]
        self.rec_src = []  # the Rust expression each record field stores
        self.rec_param = []  # and the parameter it comes from
        rust, c = [], []
        # writes first: they change the values the reads see
        values = {n: deep_copy(v) for n, _, v in self.params}
        types = {n: t for n, t, _ in self.params}
        # a top-level array parameter is a struct around the array in C
        self.cnames = {n: f"{n}.a" if isinstance(t, Array) else n for n, t, _ in self.params}
        for w in self.writes:
            self._emit_write(w, types, values, rust, c)
        order = list(range(len(self.params)))
        r.shuffle(order)
        self._fresh = 0
        for i in order:
            n, ty, _ = self.params[i]
            self._root = n
            self._reads(ty, n, self.cnames[n], values[n], r, rust, c)
        self.rust_body, self.c_body = rust, c
        rec_fields = [t for t, _ in self.rec]
        self.rec_ty = Struct(rec_fields) if rec_fields else Struct([Scalar("u8")])
        if not rec_fields:
            self.rec.append([Scalar("u8"), None])
            self.rec_src.append("(unused)")
            self.rec_param.append(None)
        self.rec_ty.name = f"R{self.kid}"
        self.rec_ty.prefix = "r"

    def _emit_write(self, w, types, values, rust, c):
        kind = w["kind"]
        tgt = [(p, [tuple(s) for s in path]) for p, path in w["targets"]]
        ty = self._leaf_type(types[tgt[0][0]], tgt[0][1])
        lit_r, lit_c, bits = w["lit"]
        if kind == "select":
            # a store through a pointer chosen at run time: it stays a store
            # into the argument's memory after optimisation; the other
            # choice is another leaf of that type, or a local
            n = len(rust)
            (pa, ka) = tgt[0]
            ra, ca = path_exprs(pa, ka, self.cnames[pa])
            assert not any(s == "a" for s, _ in ka)
            if len(tgt) > 1:
                (pb, kb) = tgt[1]
                rb, cb = path_exprs(pb, kb, self.cnames[pb])
                pre_r = pre_c = ""
            else:
                pb = None
                rb, cb = f"l{n}", f"l{n}"
                pre_r, pre_c = f"let mut l{n}: {ty.rust()} = {lit_r}; ", f"{ty.c()} l{n} = {lit_c}; "
            rust.append(f"{pre_r}let q{n}: *mut {ty.rust()} = if {w['cond']} {{ &raw mut {ra} }} else {{ &raw mut {rb} }}; *q{n} = {lit_r};")
            c.append(f"{{ {pre_c}{ty.c()} *q = {w['cond']} ? &{ca} : &{cb}; *q = {lit_c}; }}")
            if values[w["cond"]]:
                set_value_at(values[pa], ka, bits) if ka else values.__setitem__(pa, bits)
            elif pb is not None:
                set_value_at(values[pb], kb, bits) if kb else values.__setitem__(pb, bits)
            return
        p, path = tgt[0]
        rx, cx = path_exprs(p, path, self.cnames[p])
        if path and path[-1][0] == "a":
            arr_r, _ = path_exprs(p, path[:-1])
            n = self._leaf_type(types[p], path[:-1]).n
            names = [f"e{len(rust)}_{i}" for i in range(n)]
            rebuilt = [lit_r if i == path[-1][1] else names[i] for i in range(n)]
            stmt = f"let [{', '.join(names)}] = {arr_r}; {arr_r} = [{', '.join(rebuilt)}];"
        else:
            stmt = f"{rx} = {lit_r};"
        if kind == "cond":
            rust.append(f"if {w['cond']} {{ {stmt} }}")
            c.append(f"if ({w['cond']}) {cx} = {lit_c};")
            if not values[w["cond"]]:
                return
        else:
            rust.append(stmt)
            c.append(f"{cx} = {lit_c};")
        if path:
            set_value_at(values[p], path, bits)
        else:
            values[p] = bits

    def _leaf_type(self, ty, path):
        for step, i in path:
            ty = {"f": lambda: ty.fields[i], "w": lambda: ty.inner, "a": lambda: ty.elem}[step]()
        return ty

    def _rec(self, ty, value, src):
        self.rec.append([ty, value])
        self.rec_src.append(src)
        self.rec_param.append(self._root)
        return f"r{len(self.rec) - 1}"

    def _reads(self, ty, rx, cx, value, r, rust, c):
        leaf = isinstance(ty, (Scalar, Ptr, Opt, Slice, CEnum))
        whole = isinstance(ty, (Struct, Wrapper, Array)) and r.random() < 0.2
        if leaf or whole:
            f = self._rec(ty, value, rx)
            rust.append(f"(*out).{f} = {rx};")
            if isinstance(ty, Array):
                c.append(f"__builtin_memcpy(&out->{f}, &{cx}, sizeof(out->{f}));")
            else:
                c.append(f"out->{f} = {cx};")
        elif isinstance(ty, Struct):
            for i, fty in enumerate(ty.fields):
                self._reads(fty, f"{rx}.f{i}", f"{cx}.f{i}", None if value is None else value[i], r, rust, c)
        elif isinstance(ty, Wrapper):
            self._reads(ty.inner, f"{rx}.0", f"{cx}.f0", None if value is None else value[0], r, rust, c)
        elif isinstance(ty, Array):
            self._fresh += 1
            names = [f"a{self._fresh}_{i}" for i in range(ty.n)]
            rust.append(f"let [{', '.join(names)}] = {rx};")
            for i in range(ty.n):
                self._reads(ty.elem, names[i], f"{cx}[{i}]", None if value is None else value[i], r, rust, c)
        elif isinstance(ty, Union):
            # read the field the value was written as (others are not valid)
            i, v = value if value is not None else (0, None)
            self._reads(ty.fields[i], f"{rx}.u{i}", f"{cx}.u{i}", v, r, rust, c)
        elif isinstance(ty, DataEnum):
            active = None if value is None else value[0]
            self._fresh += 1
            arms_r, arms_c = [], []
            for vi, fields in enumerate(ty.variants):
                names = [f"x{self._fresh}_{vi}_{j}" for j in range(len(fields))]
                on = value is not None and active == vi
                mark = self._rec(Scalar("u8"), vi + 1 if on else None, f"{rx} is V{vi}")
                br, bc = [f"(*out).{mark} = {vi + 1}u8;"], [f"out->{mark} = {vi + 1};"]
                for j, fty in enumerate(fields):
                    self._reads(fty, names[j], ty.c_field(cx, vi, j), value[1][j] if on else None, r, br, bc)
                pat = f"{ty.name}::V{vi}" + (f"({', '.join(names)})" if fields else "")
                arms_r.append(f"{pat} => {{ {' '.join(br)} }}")
                arms_c.append(f"case {c_int_literal(ty.discriminants[vi], ty.tag)}: {{ {' '.join(bc)} break; }}")
            rust.append(f"match {rx} {{ {' '.join(arms_r)} }}")
            c.append(f"switch ({ty.c_tag(cx)}) {{ {' '.join(arms_c)} }}")
        else:
            raise AssertionError(ty)

    # -- signatures
    def sig_params(self):
        """[(name, Ty or None for out)] in parameter order."""
        ps = [(n, t) for n, t, _ in self.params]
        ps.insert(self.out_pos, ("out", None))
        return ps

    def rust_signature(self):
        written = {p for w in self.writes for p, _ in w["targets"]}
        parts = []
        for n, t in self.sig_params():
            if t is None:
                parts.append(f"out: *mut {self.rec_ty.name}")
            else:
                parts.append(f"{'mut ' if n in written else ''}{n}: {t.rust()}")
        return f"pub unsafe extern \"gpu-kernel\" fn {self.name}({', '.join(parts)})"

    def c_param_type(self, t):
        return f"AW_{t.name}" if isinstance(t, Array) else t.c()

    def rust(self):
        out = []
        for t in self.types:
            if hasattr(t, "rust_decl"):
                out.append(t.rust_decl())
                if t.copy():
                    out.append(f"impl Copy for {t.name} {{}}")
        rec = self.rec_ty
        fields = ", ".join(f"pub r{i}: {t.rust()}" for i, (t, _) in enumerate(self.rec))
        out.append(f"#[repr(C)] pub struct {rec.name} {{ {fields} }}")
        out += self.rust_asserts()
        out.append("#[unsafe(no_mangle)]")
        out.append(self.rust_signature() + " {")
        out.append("    unsafe {")
        out += [f"        {s}" for s in self.rust_body]
        out.append("    }")
        out.append("}")
        return "\n".join(out) + "\n"

    def rust_asserts(self):
        out = []
        for t in self.types + [self.rec_ty]:
            if isinstance(t, (Ptr, Array)):
                continue
            rt = t.rust() if t is not self.rec_ty else t.name
            out.append(f"const _: [(); {t.size}] = [(); size_of::<{rt}>()];")
            out.append(f"const _: [(); {t.align}] = [(); align_of::<{rt}>()];")
            if isinstance(t, (Struct, Wrapper)):
                for f, o in t.field_offsets():
                    out.append(f"const _: [(); {o}] = [(); builtin # offset_of({rt}, {f})];")
        return out

    def c(self):
        out = []
        for t in self.types:
            out.append(t.c_decl())
        for _, t, _ in self.params:
            if isinstance(t, Array):
                out.append(f"struct AW_{t.name} {{ {t.name} a; }};")
        rec = self.rec_ty
        fields = " ".join(f"{t.c()} r{i};" for i, (t, _) in enumerate(self.rec))
        out.append(f"struct {rec.name} {{ {fields} }};")
        out += self.c_asserts()
        parts = []
        for n, t in self.sig_params():
            parts.append(f"{rec.name} *out" if t is None else f"{self.c_param_type(t)} {n}")
        out.append(f"extern \"C\" __global__ void {self.name}({', '.join(parts)}) {{")
        out += [f"  {s}" for s in self.c_body]
        out.append("}")
        return "\n".join(out) + "\n"

    def c_asserts(self):
        out = []
        for t in self.types + [self.rec_ty]:
            n = t.name
            out.append(f"static_assert(sizeof({n}) == {t.size} && alignof({n}) == {t.align}, \"{n}\");")
            if isinstance(t, Struct):
                for f, o in t.field_offsets():
                    out.append(f"static_assert(offsetof({n}, {f}) == {o}, \"{n}.{f}\");")
            if isinstance(t, Wrapper):
                out.append(f"static_assert(offsetof({n}, f0) == 0, \"{n}\");")
            if hasattr(t, "c_asserts"):
                out += t.c_asserts()
        return out

    # -- bytes
    def arg_types(self):
        """Source types in parameter order, `out` included (as a pointer)."""
        return [Ptr("mut", self.rec_ty) if t is None else t for _, t in self.sig_params()]

    def arg_values(self):
        vals = [v for _, _, v in self.params]
        vals.insert(self.out_pos, OUT_ADDR)
        return vals

    def arg_bytes(self):
        """[(bytes, mask)] for each parameter's value."""
        out = []
        for t, v in zip(self.arg_types(), self.arg_values()):
            buf, mask = bytearray(t.size), bytearray(t.size)
            serialize(t, v, buf, 0, mask)
            out.append((bytes(buf), bytes(mask)))
        return out

    def expected_record(self):
        """(bytes, mask): what the body must leave in *out; unwritten fields
        keep the driver's FILL bytes and are compared as such."""
        size = self.rec_ty.size
        buf, mask = bytearray([FILL]) * size, bytearray(size)
        for (t, v), o in zip(self.rec, self.rec_ty.offsets):
            if v is None:
                for i in range(t.size):
                    mask[o + i] = 1
            else:
                serialize(t, v, buf, o, mask)
        return bytes(buf), bytes(mask)

    def describe(self):
        """One line: the Rust signature with types spelled out."""
        parts = []
        for n, t in self.sig_params():
            parts.append(f"out: *mut R" if t is None else f"{n}: {t.shape()}")
        w = f"  [writes: {', '.join(w['kind'] for w in self.writes)}]" if self.writes else ""
        return f"{self.name}({', '.join(parts)}){w}"


def deep_copy(v):
    return [deep_copy(x) for x in v] if isinstance(v, list) else v


def kernel_from_json(j):
    params = [[n, ty_from_json(t), v] for n, t, v in j["params"]]
    return Kernel(j["id"], params, j["out_pos"], j["writes"], j["read_seed"])


def gen_kernel(seed, kid):
    r = random.Random(f"{seed}:{kid}")
    tg = TypeGen(r)
    n = r.choice([1, 1, 2, 2, 3, 3, 4, 5, 6])
    params = []
    for i in range(n):
        ty = tg.ty(r.choice([1, 2, 2, 3]), top=True)
        params.append([f"p{i}", ty, rand_value(ty, r)])
    writes = []
    if r.random() < 1 / 3:
        writes = gen_writes(params, r, tg)
    out_pos = r.randrange(len(params) + 1)
    return Kernel(kid, params, out_pos, writes, r.randrange(1 << 30))


def gen_writes(params, r, tg):
    """Writes into by-value arguments: plain, under a bool parameter, or
    through a pointer selected by a bool parameter. Adds a by-value
    aggregate (and a bool) when the kernel has none to write."""
    def targets():
        return [(n, path, leaf) for n, t, _ in params if not isinstance(t, (Scalar, CEnum))
                for path, leaf in write_paths(t)]
    if not targets():
        ty = Struct([tg.scalar() for _ in range(r.choice([1, 2, 3]))])
        params.insert(r.randrange(len(params) + 1), [f"p{len(params)}", ty, rand_value(ty, r)])
    bools = [n for n, t, _ in params if isinstance(t, Scalar) and t.sname == "bool"]
    writes = []
    for _ in range(r.choice([1, 1, 1, 2])):
        ts = targets()
        n, path, leaf = r.choice(ts)
        kind = r.choice(["plain", "cond", "select"])
        same = [(n2, p2) for n2, p2, l2 in ts if l2.json() == leaf.json() and (n2, p2) != (n, path)
                and not any(s == "a" for s, _ in p2)]
        if kind == "select" and any(s == "a" for s, _ in path):
            kind = "cond"
        w = {"kind": kind, "targets": [[n, [list(s) for s in path]]]}
        if kind != "plain":
            if not bools:
                ty = Scalar("bool")
                name = f"p{len(params)}"
                params.insert(r.randrange(len(params) + 1), [name, ty, r.randrange(2)])
                bools.append(name)
            w["cond"] = r.choice(bools)
        if kind == "select" and same and r.random() < 0.5:
            n2, p2 = r.choice(same)
            w["targets"].append([n2, [list(s) for s in p2]])
        w["lit"] = None  # filled below: needs the names
        writes.append(w)
    # literals need named enum types: build a throwaway kernel to name them
    tmp = Kernel(0, params, 0, [], 0)
    types = {n: t for n, t, _ in params}
    for w in writes:
        p, path = w["targets"][0]
        leaf = tmp._leaf_type(types[p], [tuple(s) for s in path])
        lit = write_literal(leaf, r)
        w["lit"] = list(lit)
        if isinstance(leaf, CEnum):
            # names are per kernel: store the variant index and rename later
            w["lit_enum"] = [leaf.json(), leaf.values.index(lit[2])]
    return writes


RUST_PRELUDE = """\
#![feature(no_core, lang_items, abi_gpu_kernel, intrinsics, rustc_attrs, auto_traits, builtin_syntax, f16)]
#![no_core]
#![allow(internal_features, improper_ctypes_definitions, improper_gpu_kernel_arg, improper_ctypes)]
#![allow(dead_code, unused, non_camel_case_types, non_snake_case)]
#[lang = "pointee_sized"] pub trait PointeeSized {}
#[lang = "meta_sized"] pub trait MetaSized: PointeeSized {}
#[lang = "sized"] pub trait Sized: MetaSized {}
#[lang = "copy"] pub trait Copy {}
#[lang = "freeze"] pub unsafe auto trait Freeze {}
#[lang = "unpin"] pub auto trait Unpin {}
#[lang = "unsafe_unpin"] pub unsafe auto trait UnsafeUnpin {}
#[lang = "neg"] pub trait Neg { type Output; fn neg(self) -> Self::Output; }
#[rustc_intrinsic] pub const fn size_of<T>() -> usize;
#[rustc_intrinsic] pub const fn align_of<T>() -> usize;
#[lang = "offset_of"] #[rustc_intrinsic] pub const fn offset_of<T: PointeeSized>(variant: u32, field: u32) -> usize;
macro_rules! scalars { ($($t:ty)*) => { $(impl Copy for $t {})* } }
scalars!(u8 i8 u16 i16 u32 i32 u64 i64 u128 i128 usize isize f16 f32 f64 bool char);
macro_rules! neg { ($($t:ty)*) => { $(impl Neg for $t { type Output = $t; fn neg(self) -> $t { -self } })* } }
neg!(i8 i16 i32 i64 i128 isize f16 f32 f64);
impl<T: Copy, const N: usize> Copy for [T; N] {}
impl<T: ?Sized> Copy for *const T {}
impl<T: ?Sized> Copy for *mut T {}
impl<'a, T: ?Sized> Copy for &'a T {}
/// NonNull<T>: a pointer that is never null (the niche Option uses).
#[rustc_layout_scalar_valid_range_start(1)] #[repr(transparent)] pub struct NN<T>(*const T);
impl<T> Copy for NN<T> {}
pub enum OptRef<'a, T> { None, Some(&'a T) }
impl<'a, T> Copy for OptRef<'a, T> {}
pub enum OptMut<'a, T> { None, Some(&'a mut T) }
pub enum OptNN<T> { None, Some(NN<T>) }
impl<T> Copy for OptNN<T> {}
pub enum Maybe<'a, T> { Some(&'a T), Nothing }
impl<'a, T> Copy for Maybe<'a, T> {}
const _: [(); 8] = [(); size_of::<OptRef<'static, u8>>()];
const _: [(); 8] = [(); size_of::<OptNN<u8>>()];
const _: [(); 8] = [(); size_of::<Maybe<'static, u64>>()];
const _: [(); 8] = [(); align_of::<u128>()];
"""

C_PRELUDE = """\
#define __global__ __attribute__((global))
#define offsetof(t, f) __builtin_offsetof(t, f)
typedef unsigned char u8; typedef signed char i8;
typedef unsigned short u16; typedef short i16;
typedef unsigned int u32; typedef int i32;
typedef unsigned long long u64; typedef long long i64;
/* Rust's i128/u128 have alignment 8 on amdgcn; C's __int128 has 16. */
typedef unsigned __int128 u128 __attribute__((aligned(8)));
typedef __int128 i128 __attribute__((aligned(8)));
typedef unsigned long usize; typedef long isize;
typedef _Float16 f16; typedef float f32; typedef double f64;
typedef unsigned int rchar; /* Rust char: a Unicode scalar value in 4 bytes */
static_assert(sizeof(u128) == 16 && alignof(u128) == 8, "u128");
static_assert(sizeof(usize) == 8 && sizeof(bool) == 1 && sizeof(void *) == 8, "sizes");
"""


def fix_enum_literals(k):
    """Write literals of enum leaves name the kernel's enum type."""
    types = {n: t for n, t, _ in k.params}
    for w in k.writes:
        if "lit_enum" in w:
            p, path = w["targets"][0]
            leaf = k._leaf_type(types[p], [tuple(s) for s in path])
            i = w["lit_enum"][1]
            w["lit"] = [f"{leaf.name}::V{i}", f"{leaf.name}_V{i}", leaf.values[i]]
    k._body()
    return k


def make_kernel(seed, kid):
    return fix_enum_literals(gen_kernel(seed, kid))


def crate_sources(kernels):
    rust = RUST_PRELUDE + "\n" + "\n".join(k.rust() for k in kernels)
    c = C_PRELUDE + "\n" + "\n".join(k.c() for k in kernels)
    return rust, c
