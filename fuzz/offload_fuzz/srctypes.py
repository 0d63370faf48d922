"""Source-level kernel parameter types, shared by the debuginfo and rustc
families: a small model of Rust `#[repr(C)]` types with their C layout,
how rustc 1.95 passes each to an `extern "gpu-kernel"` fn, and what the
ABI pass must make of it (clang's kernarg layout).

A type is an `Src`: kind "int" / "float" / "bool" / "ptr" (scalars), or
"struct" / "union" / "array"; size and align in bytes.
"""

SCALARS = {  # Rust name -> (kind, bytes, IR type, DWARF encoding)
    "u8": ("int", 1, "i8", "DW_ATE_unsigned"), "u16": ("int", 2, "i16", "DW_ATE_unsigned"),
    "u32": ("int", 4, "i32", "DW_ATE_unsigned"), "u64": ("int", 8, "i64", "DW_ATE_unsigned"),
    "i8": ("int", 1, "i8", "DW_ATE_signed"), "i16": ("int", 2, "i16", "DW_ATE_signed"),
    "i32": ("int", 4, "i32", "DW_ATE_signed"), "i64": ("int", 8, "i64", "DW_ATE_signed"),
    "f32": ("float", 4, "float", "DW_ATE_float"), "f64": ("float", 8, "double", "DW_ATE_float"),
    "bool": ("bool", 1, "i1", "DW_ATE_boolean"), "usize": ("int", 8, "i64", "DW_ATE_unsigned"),
}


def align_to(x, a):
    return (x + a - 1) // a * a if a else x


class Src:
    def __init__(self, kind, size, align, name=None, fields=(), elem=None, count=0,
                 repr_c=True, pointee=None):
        self.kind, self.size, self.align, self.name = kind, size, align, name
        self.fields = list(fields)   # (field name, Src, byte offset)
        self.elem, self.count = elem, count
        self.repr_c = repr_c         # False: a Rust-repr single-field wrapper
        self.pointee = pointee       # Rust type text a pointer points to

    @property
    def scalar(self):
        return self.kind in ("int", "float", "bool", "ptr")

    def ir(self):
        """The IR type of a scalar."""
        return "ptr" if self.kind == "ptr" else SCALARS[self.name][2]

    def rust(self):
        """The Rust type text."""
        if self.kind == "ptr":
            return f"*mut {self.pointee}"
        if self.kind == "array":
            return f"[{self.elem.rust()}; {self.count}]"
        return self.name


def scalar(name):
    kind, size, _, _ = SCALARS[name]
    return Src(kind, size, size, name=name)


def pointer(pointee="u32"):
    return Src("ptr", 8, 8, name=f"*mut {pointee}", pointee=pointee)


def struct(name, fields, repr_c=True, over_align=0):
    """A struct with C layout (fields in order, each at its alignment)."""
    offset, align, placed = 0, 1, []
    for fname, t in fields:
        offset = align_to(offset, t.align)
        placed.append((fname, t, offset))
        offset += t.size
        align = max(align, t.align)
    align = max(align, over_align)
    return Src("struct", align_to(offset, align), align, name=name, fields=placed, repr_c=repr_c)


def union(name, fields):
    align = max(t.align for _, t in fields)
    size = align_to(max(t.size for _, t in fields), align)
    return Src("union", size, align, name=name, fields=[(f, t, 0) for f, t in fields])


def array(elem, count):
    return Src("array", elem.size * count, elem.align, elem=elem, count=count)


def single_element(t):
    """The scalar a C single-element aggregate wraps (clang passes that
    scalar by value), else None: one field (or one array element),
    recursively, with no padding around it."""
    while not t.scalar:
        fields = [f for f in t.fields if f[1].size > 0]  # clang skips empty fields
        if t.kind == "struct" and len(fields) == 1:
            inner = fields[0][1]
        elif t.kind == "array" and t.count == 1:
            inner = t.elem
        else:
            return None
        if inner.size != t.size:
            return None
        t = inner
    return t


def rustc_form(t):
    """How rustc 1.95 passes a parameter of type t to a gpu-kernel fn:
    "ignore" (zero-sized), "direct" (one scalar: t's own or, for a Rust-repr
    wrapper, the wrapped one), "pair" (a repr(C) struct of exactly two
    scalars: two IR parameters) or "indirect" (a pointer to the value)."""
    if t.size == 0:
        return "ignore"
    if t.scalar:
        return "direct"
    if t.kind == "struct" and not t.repr_c:
        return "direct"
    if t.kind == "struct" and len(t.fields) == 2 and all(f[1].scalar for f in t.fields):
        return "pair"
    return "indirect"


def expected_param(t):
    """What the ABI pass must turn a parameter of type t into, for the
    kernarg layout to be clang's: None (no parameter: zero-sized), or
    (form, size, align) with form "value" (a scalar by value), "byref" (a
    byref aggregate) or "either" (a single-element aggregate: its scalar
    by value, or byref; same layout)."""
    if t.size == 0:
        return None
    if t.scalar:
        return ("value", t.size, t.align)
    if single_element(t) is not None:
        return ("either", t.size, t.align)
    return ("byref", t.size, t.align)


class TypeGen:
    """Random source types; named types are kept in `named` (in definition
    order) so a Rust front end can define them."""

    SCALAR_NAMES = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "bool"]

    def __init__(self, rng, prefix="S"):
        self.rng = rng
        self.prefix = prefix
        self.named = []

    def name(self):
        return f"{self.prefix}{len(self.named)}"

    def keep(self, t):
        self.named.append(t)
        return t

    def scalar(self):
        return scalar(self.rng.choice(self.SCALAR_NAMES))

    def field(self, depth):
        r = self.rng.random()
        if r < 0.6 or depth >= 2:
            return self.scalar() if self.rng.random() < 0.85 else pointer()
        if r < 0.8:
            return array(self.scalar(), self.rng.randint(1, 5))
        return self.param(depth + 1, aggregate=True)

    def param(self, depth=0, aggregate=False):
        """A parameter type (an aggregate when asked)."""
        rng = self.rng
        r = rng.uniform(0.45, 1.0) if aggregate else rng.random()
        if r < 0.33:
            return self.scalar()
        if r < 0.45:
            return pointer(rng.choice(["u32", "u8", "f64"]))
        if r < 0.63:  # a pair: rustc splits it
            return self.keep(struct(self.name(), [("a", self.scalar_or_ptr()), ("b", self.scalar_or_ptr())]))
        if r < 0.78:
            fields = [(f"f{i}", self.field(depth)) for i in range(rng.randint(1, 5))]
            return self.keep(struct(self.name(), fields))
        if r < 0.83:  # a repr(C) single-field wrapper: rustc passes it indirectly
            return self.keep(struct(self.name(), [("v", self.scalar_or_ptr())]))
        if r < 0.87:  # a Rust-repr wrapper: rustc passes the scalar
            return self.keep(struct(self.name(), [("v", self.scalar())], repr_c=False))
        if r < 0.92:
            return array(self.scalar() if rng.random() < 0.7 else self.param(depth + 1, True),
                         rng.randint(1, 6))
        if r < 0.95:
            return self.keep(union(self.name(), [(f"u{i}", self.scalar()) for i in range(rng.randint(2, 3))]))
        if r < 0.97:
            return self.keep(struct(self.name(), []))
        return self.keep(struct(self.name(), [("v", self.scalar())], over_align=rng.choice([8, 16, 32])))

    def scalar_or_ptr(self):
        return pointer() if self.rng.random() < 0.15 else self.scalar()
