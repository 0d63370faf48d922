"""Device kernels from llvm-stress bodies (the campaign's first family).

Each seed N: llvm-stress-22 writes `@autogen_SDN(ptr %0, ptr %1, ptr %2,
i32 %3, i64 %4, i8 %5)`; `make_kernel` turns it into a kernel with a random
parameter list and a prologue that derives %0..%5 from those parameters, so
the body reads and writes through them:

- AMDGPU (`amdgpu_kernel`, gen_amdgpu_params): first-class structs and
  arrays (nested, single-element wrappers too), rustc-style `ptr
  dead_on_return noalias noundef dereferenceable(N) align A`, existing `ptr
  addrspace(4) byref(T)`, split pairs and bare `ptr align A` described by an
  `!offload.aggregate.args` hint, vectors, global/generic pointers and
  scalars; pointers reach the body through GEPs, addrspacecasts (also to
  addrspace(1), as rustc -O3 does) and selects, and some escape into calls.
- x86_64 (`!offload.kernel !{}`, gen_x86_params): pointers, integers up to
  64 bits, half/float/double and `ptr byval(T)`.

`assemble` (the prologue, the body, the module around it) is shared with
the debug-info family (gen_debuginfo), which brings its own parameters.
"""

import random
import re

from .irtext import (AMDGPU_HEADER, STRESS_DEFINE, X86_HEADER, Body, leaves, rand_aggregate,
                     rand_scalar, rand_vector, text, to_int)
from .oracle import Expect


class Kernel:
    def __init__(self, rng, target):
        self.rng = rng
        self.target = target  # "amdgpu" or "x86"
        self.params = []      # (text, name)
        self.pointers = []    # (value, type) generic-pointer sources for %0..%2
        self.ints = []        # (value, type) sources for %3..%5 (values need instructions)
        self.body = Body()
        self.hints = []       # (first, count, size, align)
        self.expect = Expect()
        self.decls = set()
        self.tail = []        # instructions after %0..%5
        self.fn_suffix = ""   # after the parameter list: attributes, !md
        self.records = []     # debug records at the top of the entry block
        self.metadata = []    # module-level metadata lines

    def param(self, ty_text, base):
        name = f"%{base}{len(self.params)}"
        self.params.append((ty_text, name))
        return name


def gen_amdgpu_params(k):
    rng = k.rng
    alloca_as = 5
    for _ in range(rng.randint(1, 7)):
        r = rng.random()
        if r < 0.22:  # first-class aggregate by value
            t = rand_aggregate(rng)
            v = k.param(text(t), "agg")
            for path, leaf in rng.sample(list(leaves(t)), min(2, len(list(leaves(t))))):
                idx = ", ".join(str(i) for i in path)
                x = k.body.emit(f"extractvalue {text(t)} {v}, {idx}")
                k.ints.append((x, leaf))
            if rng.random() < 0.3:
                k.tail.append(("store-agg", t, v))
        elif r < 0.42:  # rustc <= 1.95 indirect aggregate
            size = rng.choice([1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 128])
            align = rng.choice([1, 2, 4, 8, 16])
            attrs = "dead_on_return noalias noundef"
            if rng.random() < 0.3:
                attrs += " captures(none)"
            v = k.param(f"ptr {attrs} align {align} dereferenceable({size})", "r")
            k.pointers.append((v, ("p", 0)))
            if rng.random() < 0.5:
                k.ints.append((k.body.emit(f"load i8, ptr {v}, align 1"), ("i", 8)))
            if rng.random() < 0.2:  # rustc -O3 casts kernel pointers to global
                g = k.body.emit(f"addrspacecast ptr {v} to ptr addrspace(1)")
                k.tail.append(("store-global", g))
        elif r < 0.55:  # existing byref (clang / fixed rustc)
            t = rand_aggregate(rng) if rng.random() < 0.6 else ("a", rng.randint(1, 64), ("i", 8))
            align = rng.choice([1, 4, 8, 16])
            v = k.param(f"ptr addrspace(4) byref({text(t)}) align {align}", "b")
            c = k.body.emit(f"addrspacecast ptr addrspace(4) {v} to ptr")
            k.pointers.append((c, ("p", 0)))
            if rng.random() < 0.4:
                k.ints.append((k.body.emit(f"load i32, ptr addrspace(4) {v}, align 1"), ("i", 32)))
            if rng.random() < 0.04:
                # Genuinely unsupported: a write through a byref pointer that a
                # call needs as 'ptr addrspace(1)' cannot move to the copy.
                g = k.body.emit(f"addrspacecast ptr addrspace(4) {v} to ptr addrspace(1)")
                k.decls.add("declare void @global_only(ptr addrspace(1))")
                k.tail.append(("raw", f"  store i8 0, ptr addrspace(1) {g}, align 1"))
                k.tail.append(("raw", f"  call void @global_only(ptr addrspace(1) {g})"))
                k.expect.refuse("byref-callee-copy", "byref pointer needed as ptr addrspace(1)")
        elif r < 0.63:  # split pair + hint (rustc ScalarPair)
            a, b = rng.choice([(("i", 64), ("i", 32)), (("i", 8), ("f", "double")),
                               (("p", 0), ("i", 64)), (("i", 32), ("i", 32))])
            first = len(k.params)
            va = k.param(text(a), "t")
            vb = k.param(text(b), "t")
            k.hints.append((first, 2, 16, 8))
            k.ints.append((va, a))
            k.ints.append((vb, b))
        elif r < 0.68:  # rustc -O0: bare `ptr align A` + hint
            size = rng.choice([4, 8, 12, 16, 32])
            align = rng.choice([1, 2, 4])
            first = len(k.params)
            v = k.param(f"ptr align {align}", "o")
            k.hints.append((first, 1, size, align))
            k.pointers.append((v, ("p", 0)))
        elif r < 0.78:
            t = rand_vector(rng)
            k.ints.append((k.param(text(t), "v"), t))
        elif r < 0.88:
            a = rng.choice([0, 1])
            v = k.param(text(("p", a)), "p")
            if a:
                v = k.body.emit(f"addrspacecast ptr addrspace(1) {v} to ptr")
            k.pointers.append((v, ("p", 0)))
        else:
            t = rand_scalar(rng)
            k.ints.append((k.param(text(t), "s"), t))
    return alloca_as


def gen_x86_params(k):
    rng = k.rng
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.3:
            t = rand_aggregate(rng)
            align = rng.choice([1, 4, 8, 16])
            v = k.param(f"ptr byval({text(t)}) align {align}", "bv")
            k.pointers.append((v, ("p", 0)))
        elif r < 0.55:
            v = k.param("ptr", "p")
            k.pointers.append((v, ("p", 0)))
        elif r < 0.97:
            t = rng.choice([("i", 1), ("i", 8), ("i", 16), ("i", 32), ("i", 64), ("f", "half"),
                            ("f", "float"), ("f", "double")])
            k.ints.append((k.param(text(t), "s"), t))
        else:  # genuinely unsupported: no 8-byte launch slot holds it
            t = rng.choice([("i", 128), ("v", 2, ("f", "float")), ("s", [("i", 32), ("i", 32)])])
            v = k.param(text(t), "w")
            if t[0] != "s":
                k.ints.append((v, t))
            k.expect.refuse("offload-wrap-kernels", "parameter wider than a launch slot")
    return 0


def make_kernel(stress, seed, target):
    """The llvm-stress function as a kernel of `target`; returns (ir, Kernel)."""
    rng = random.Random(f"{seed}-{target}")
    k = Kernel(rng, target)
    alloca_as = gen_amdgpu_params(k) if target == "amdgpu" else gen_x86_params(k)
    if target == "amdgpu" and k.hints:
        k.fn_suffix = " !offload.aggregate.args !100"
        refs = ", ".join(f"!{110 + i}" for i in range(len(k.hints)))
        k.metadata.append(f"\n!100 = !{{{refs}}}")
        for i, (first, count, size, align) in enumerate(k.hints):
            k.metadata.append(f"!{110 + i} = !{{i32 {first}, i32 {count}, i64 {size}, i64 {align}}}")
    if target == "x86":
        k.fn_suffix = " !offload.kernel !101"
        k.metadata.append("\n!101 = !{}")
    return assemble(stress, k, f"k{seed}", alloca_as), k


def prologue(k):
    """The kernel's first instructions: what the parameters give (k.body),
    then the stress body's %0..%5 derived from them, then the extra uses."""
    rng, body = k.rng, k.body
    slot = body.emit("alloca [256 x i8], align 16", "slot")
    # Mostly parameter memory, so the body reads and writes through it.
    pointers = list(k.pointers)
    if not pointers or rng.random() < 0.2:
        pointers.append((slot, ("p", 0)))  # made addrspace(5) + cast with the body's allocas
    cond = None
    # %0..%2: pointers into parameter memory (or the local slot).
    unnamed = []
    for i in range(3):
        v, _ = rng.choice(pointers)
        r = rng.random()
        if r < 0.5:
            unnamed.append(f"getelementptr inbounds i8, ptr {v}, i64 {rng.choice([0, 0, 1, 4])}")
        elif r < 0.75 and len(pointers) > 1:
            if cond is None:
                cond = body.emit(f"icmp ult ptr {pointers[0][0]}, {pointers[-1][0]}")
            w, _ = rng.choice(pointers)
            unnamed.append(f"select i1 {cond}, ptr {v}, ptr {w}")
        else:
            unnamed.append(f"getelementptr i8, ptr {v}, i64 0")
    # %3..%5: integers from scalar, vector and aggregate parameters.
    for bits in (32, 64, 8):
        if k.ints and rng.random() < 0.9:
            v, t = rng.choice(k.ints)
            x = to_int(body, v, t, bits)
            unnamed.append(f"freeze i{bits} {x}")
        else:
            unnamed.append(f"add i{bits} {rng.randint(0, 100)}, 0")
    lines = list(k.records) + list(body.lines)
    lines += [f"  %{i} = {rhs}" for i, rhs in enumerate(unnamed)]
    # Extra uses once %0..%5 exist: aggregate stores, escapes into calls.
    for item in k.tail:
        if item[0] == "store-agg":
            lines.append(f"  store {text(item[1])} {item[2]}, ptr %0, align 1")
        elif item[0] == "store-global":
            lines.append(f"  store i8 1, ptr addrspace(1) {item[1]}, align 1")
        else:
            lines.append(item[1])
    if rng.random() < 0.3:
        k.decls.add("declare void @sink(ptr)")
        lines.append(f"  call void @sink(ptr %{rng.randint(0, 2)})")
    if rng.random() < 0.3:
        k.decls.add("declare void @read(ptr readonly captures(none))")
        lines.append(f"  call void @read(ptr %{rng.randint(0, 2)})")
    return lines


def assemble(stress, k, name, alloca_as):
    """The module: k's parameters and prologue in front of the stress body,
    as `@name` (an amdgpu_kernel, or an x86 function); k.fn_suffix,
    k.records and k.metadata are the caller's."""
    lines = prologue(k)
    m = re.search(STRESS_DEFINE + "BB:\n", stress, re.M)
    if not m:
        raise RuntimeError("unexpected llvm-stress output")
    params = ", ".join(f"{t} {n}" for t, n in k.params)
    cc = "amdgpu_kernel " if k.target == "amdgpu" else ""
    head = f"define {cc}void @{name}({params}){k.fn_suffix} {{\nBB:\n"
    out = stress[: m.start()] + head + "\n".join(lines) + "\n" + stress[m.end():]
    out = re.sub(r"^source_filename = .*\n", "", out, flags=re.M)
    if alloca_as:
        # The stress body's allocas must live in the alloca address space.
        out = re.sub(r"^  (%[\w.]+) = alloca (.*)$",
                     lambda a: f"  {a[1]}.as = alloca {a[2]}, addrspace({alloca_as})\n"
                               f"  {a[1]} = addrspacecast ptr addrspace({alloca_as}) {a[1]}.as to ptr",
                     out, flags=re.M)
    header = AMDGPU_HEADER if k.target == "amdgpu" else X86_HEADER
    out = header + "\n".join(sorted(k.decls)) + "\n" + out
    if k.metadata:
        out += "\n".join(k.metadata) + "\n"
    return out
