"""Writes into by-value arguments: the leaves a kernel can write, their
Rust and C access expressions, and the literal written."""

import struct

from .aggregates import Array, Struct, Wrapper
from .enums import CEnum
from .types import Scalar


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
