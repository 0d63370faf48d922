"""IR text building blocks shared by the generators: module headers, the
type model (tuples, printed by `text`), random types, and `Body`, a list of
named instructions under construction.

Types: ('i', bits) ('f', name) ('v', n, elem) ('s', [fields]) ('a', n, elem)
('p', addrspace).
"""

import re

AMDGPU_HEADER = (
    'target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-'
    "p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-"
    'v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"\n'
    'target triple = "amdgcn-amd-amdhsa"\n'
)
X86_HEADER = (
    'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'
    'target triple = "x86_64-unknown-linux-gnu"\n'
)

FLOAT_BITS = {"half": 16, "float": 32, "double": 64}

# The function llvm-stress-22 writes, whose body the generators reuse.
STRESS_DEFINE = r"^define void @autogen_SD\d+\(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5\) \{\n"


def text(t):
    kind = t[0]
    if kind == "i":
        return f"i{t[1]}"
    if kind == "f":
        return t[1]
    if kind == "v":
        return f"<{t[1]} x {text(t[2])}>"
    if kind == "s":
        return "{ " + ", ".join(text(f) for f in t[1]) + " }"
    if kind == "a":
        return f"[{t[1]} x {text(t[2])}]"
    if kind == "p":
        return "ptr" if t[1] == 0 else f"ptr addrspace({t[1]})"
    raise ValueError(t)


def rand_scalar(rng):
    return rng.choice([("i", 8), ("i", 16), ("i", 32), ("i", 64), ("i", 1), ("f", "float"),
                       ("f", "double"), ("f", "half")])


def rand_vector(rng):
    return ("v", rng.choice([2, 3, 4, 8]), rng.choice([("i", 8), ("i", 16), ("i", 32), ("f", "float")]))


def rand_aggregate(rng, depth=0):
    """A first-class struct or array, sometimes a single-element wrapper."""
    def field():
        r = rng.random()
        if r < 0.6 or depth >= 2:
            return rand_scalar(rng) if rng.random() < 0.8 else rand_vector(rng)
        if r < 0.7:
            return ("p", rng.choice([0, 1]))
        return rand_aggregate(rng, depth + 1)
    r = rng.random()
    if r < 0.15:  # single-element wrapper: { T } / [1 x T]
        inner = field()
        return ("s", [inner]) if rng.random() < 0.5 else ("a", 1, inner)
    if r < 0.35:
        return ("a", rng.randint(2, 5), field())
    return ("s", [field() for _ in range(rng.randint(2, 4))])


def leaves(t, path=()):
    """Index paths to every non-aggregate leaf of an aggregate."""
    if t[0] == "s":
        for i, f in enumerate(t[1]):
            yield from leaves(f, path + (i,))
    elif t[0] == "a":
        for i in range(t[1]):
            yield from leaves(t[2], path + (i,))
    else:
        yield path, t


def sym(name):
    """An LLVM global name, quoted when it needs to be."""
    return "@" + name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else f'@"{name}"'


class Body:
    """Named instructions under construction (`lines`), each `%<prefix><base>.<n>`."""

    def __init__(self, prefix=""):
        self.prefix = prefix
        self.lines = []
        self.n = 0

    def fresh(self, base="h"):
        self.n += 1
        return f"%{self.prefix}{base}.{self.n}"

    def emit(self, rhs, base="h"):
        name = self.fresh(base)
        self.lines.append(f"  {name} = {rhs}")
        return name


def to_int(body, value, t, bits):
    """Instructions turning `value` of scalar/vector/pointer type `t` into an iBITS."""
    if t[0] == "v":
        value = body.emit(f"extractelement {text(t)} {value}, i32 0")
        t = t[2]
    if t[0] == "p":
        value = body.emit(f"ptrtoint {text(t)} {value} to i64")
        t = ("i", 64)
    if t[0] == "f":
        fb = FLOAT_BITS[t[1]]
        value = body.emit(f"bitcast {t[1]} {value} to i{fb}")
        t = ("i", fb)
    have = t[1]
    if have == bits:
        return value
    op = "trunc" if have > bits else "zext"
    return body.emit(f"{op} i{have} {value} to i{bits}")
