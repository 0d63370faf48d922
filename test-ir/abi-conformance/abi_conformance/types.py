"""The type model, leaves: scalars, pointers (raw, references, NN<T>,
Option<&T>-likes) and slices. Each type knows its size and alignment on
amdgcn, its Rust spelling, its C spelling and its JSON form; aggregates are
in aggregates.py, enums in enums.py."""


def align_to(x, a):
    return (x + a - 1) // a * a


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


def int_range(tag):
    size = SCALARS[tag][0] * 8
    if tag.startswith("i"):
        return -(1 << (size - 1)), (1 << (size - 1)) - 1
    return 0, (1 << size) - 1


def c_int_literal(v, tag):
    if tag in ("i64", "isize") and v == -(1 << 63):
        return "(-9223372036854775807LL - 1)"
    suffix = {"u64": "ULL", "i64": "LL", "u32": "U"}.get(tag, "")
    return f"{v}{suffix}"


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


def walk(ty):
    """Every type node, children first (the order declarations need)."""
    for c in ty.children():
        yield from walk(c)
    yield ty
