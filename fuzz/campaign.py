#!/usr/bin/env python3
"""Generator-based fuzz campaign for the offload-passes device and host passes.

Each seed N gives one random module: llvm-stress-22 -seed=N writes a function
`@autogen_SDN(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5)` with a varied
body (loops, vectors, loads and stores through %0..%2); this script turns it
into a kernel with a random parameter list and a prologue that derives
%0..%5 from those parameters, so the body reads and writes through them:

- AMDGPU variant (`amdgpu_kernel`): first-class structs and arrays (nested,
  single-element wrappers too), rustc-style `ptr dead_on_return noalias
  noundef dereferenceable(N) align A`, existing `ptr addrspace(4) byref(T)`,
  split pairs and bare `ptr align A` described by an `!offload.aggregate.args`
  hint, vectors, global/generic pointers and scalars; pointers reach the body
  through GEPs, addrspacecasts (also to addrspace(1), as rustc -O3 does) and
  selects, and some escape into calls.
- x86_64 variant (`!offload.kernel !{}`): pointers, integers up to 64 bits,
  half/float/double and `ptr byval(T)`.
- host variant, for `offload-host<image=...>` (gen_host): the stress function
  as a host function with groups of launch sites inserted at random points
  (arguments from its dominating values), plus driver functions of our own
  (nested branches, loops, data regions, return codes used or not, also as a
  later launch's argument). One x86_64 image with kernels HOST_KERNELS is
  built per run (llc-22 -O2 -relocation-model=pic, ld.lld-22 -shared).

Every module runs through each pipeline in PIPELINES. A case is one module
through one pipeline; it is
- ok: opt exits 0, the output verifies, `-passes=lint` reports no "Write to
  memory in const addrspace" (pipelines with byref-callee-copy) and running
  the pipeline again on the output changes nothing; for offload-host also:
  one `__tgt_target_kernel` call per generated launch site, no
  `__offload_data_*` call left, and `llc-22 -filetype=obj` compiles it;
- unsupported: the generator deliberately made the input one the pass must
  refuse (e.g. a byref pointer cast to addrspace(1) and passed to a call that
  needs that type), and opt failed cleanly: exit 1, "error: <pass>: ...",
  no "internal error", no output file (offload-host: the error also contains
  the text of the refusal the generator planted);
- failed: anything else (crash, signal, panic, unexpected error, output that
  does not verify, lint finding, second run changing the module, output file
  left behind by a failed run). The input and a log go to --keep.

Usage:
  fuzz/campaign.py --cases 200                # 200 seeds x every pipeline
  fuzz/campaign.py --cases 10000 --start 1000000 --jobs 2
  fuzz/campaign.py --pipelines offload-host --cases 2000
Prints per-pipeline lines and one summary line:
  campaign: 1000 cases, 1000 ok, 0 unsupported, 0 failed (200 seeds x 5 pipelines)
"""

import argparse
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 120

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

# ---------------------------------------------------------------------------
# Types: ('i', bits) ('f', name) ('v', n, elem) ('s', [fields]) ('a', n, elem) ('p', addrspace)

FLOAT_BITS = {"half": 16, "float": 32, "double": 64}


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


# ---------------------------------------------------------------------------
# Module generation


class Kernel:
    def __init__(self, rng, target):
        self.rng = rng
        self.target = target  # "amdgpu" or "x86"
        self.params = []      # (text, name)
        self.pointers = []    # (value, type) generic-pointer sources for %0..%2
        self.ints = []        # (value, type) sources for %3..%5 (values need instructions)
        self.body = Body()
        self.hints = []       # (first, count, size, align)
        self.expect_error = {}  # pass name -> why the input is unsupported
        self.expect_text = {}   # pass name -> text its error must contain
        self.expect_count = {}  # text -> times it must occur in the output (host)
        self.pipeline_params = ""  # appended to the host pass's parameters
        self.decls = set()
        self.tail = []        # instructions after %0..%5

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
                k.expect_error["byref-callee-copy"] = "byref pointer needed as ptr addrspace(1)"
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
            k.expect_error["offload-wrap-kernels"] = "parameter wider than a launch slot"
    return 0


def make_kernel(stress, seed, target):
    """The llvm-stress function as a kernel of `target`; returns (ir, Kernel)."""
    rng = random.Random(f"{seed}-{target}")
    k = Kernel(rng, target)
    alloca_as = gen_amdgpu_params(k) if target == "amdgpu" else gen_x86_params(k)
    body = k.body
    slot = body.emit("alloca [256 x i8], align 16", "slot")
    slot_generic = slot  # made addrspace(5) + cast below, with the body's allocas
    # Mostly parameter memory, so the body reads and writes through it.
    pointers = list(k.pointers)
    if not pointers or rng.random() < 0.2:
        pointers.append((slot_generic, ("p", 0)))
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
    lines = list(body.lines)
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

    m = re.search(r"^define void @autogen_SD\d+\(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5\) \{\nBB:\n",
                  stress, re.M)
    if not m:
        raise RuntimeError("unexpected llvm-stress output")
    params = ", ".join(f"{t} {n}" for t, n in k.params)
    if target == "amdgpu":
        md = ""
        if k.hints:
            md = " !offload.aggregate.args !100"
        head = f"define amdgpu_kernel void @k{seed}({params}){md} {{\nBB:\n"
    else:
        head = f"define void @k{seed}({params}) !offload.kernel !101 {{\nBB:\n"
    out = stress[: m.start()] + head + "\n".join(lines) + "\n" + stress[m.end():]
    out = re.sub(r"^source_filename = .*\n", "", out, flags=re.M)
    if alloca_as:
        # The stress body's allocas must live in the alloca address space.
        out = re.sub(r"^  (%[\w.]+) = alloca (.*)$",
                     lambda a: f"  {a[1]}.as = alloca {a[2]}, addrspace({alloca_as})\n"
                               f"  {a[1]} = addrspacecast ptr addrspace({alloca_as}) {a[1]}.as to ptr",
                     out, flags=re.M)
    header = AMDGPU_HEADER if target == "amdgpu" else X86_HEADER
    out = header + "\n".join(sorted(k.decls)) + "\n" + out
    if target == "amdgpu" and k.hints:
        refs = ", ".join(f"!{110 + i}" for i in range(len(k.hints)))
        out += f"\n!100 = !{{{refs}}}\n"
        for i, (first, count, size, align) in enumerate(k.hints):
            out += f"!{110 + i} = !{{i32 {first}, i32 {count}, i64 {size}, i64 {align}}}\n"
    if target == "x86":
        out += "\n!101 = !{}\n"
    return out, k


# ---------------------------------------------------------------------------
# offload-host: host modules with launch sites

# Kernels of the one x86_64 image built per campaign run (build_host_image);
# one name has a dot, as region-id and entry names must cope with.
HOST_KERNELS = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7.v2"]
HOST_SCALARS = [("i", 1), ("i", 8), ("i", 16), ("i", 32), ("i", 64), ("f", "half"), ("f", "float"),
                ("f", "double")]
RUNTIME_DECLS = [
    "declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)",
    "declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr) nounwind",
    "declare void @__tgt_register_lib(ptr)",
    "declare i32 @atexit(ptr)",
    "declare i32 @fprintf(ptr, ptr, ...)",
    "declare void @abort() noreturn",
]


def sym(name):
    """An LLVM global name, quoted when it needs to be."""
    return "@" + name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else f'@"{name}"'


def build_host_image(work):
    """The device image for offload-host: an x86_64 shared object whose
    exported functions are HOST_KERNELS (bodies do not matter, nothing runs).
    No manifest: the campaign launches them with random signatures, so it
    names them foreign= (the manifest checks have their own tests)."""
    dev = os.path.join(work, "dev.ll")
    with open(dev, "w") as f:
        f.write(X86_HEADER)
        for i, k in enumerate(HOST_KERNELS):
            f.write(f"define void {sym(k)}(ptr %dyn, ptr %a, i64 %n) {{\n"
                    f"  store i64 {i}, ptr %a, align 8\n  ret void\n}}\n")
    obj, so = os.path.join(work, "dev.o"), os.path.join(work, "dev.so")
    for cmd in (["llc-22", "-O2", "-relocation-model=pic", "-filetype=obj", dev, "-o", obj],
                ["ld.lld-22", "-shared", obj, "-o", so]):
        r = run(cmd)
        if r.returncode != 0:
            sys.exit(f"campaign: building the offload-host image failed: {' '.join(cmd)}\n{r.stderr}")
    return so


def const_of(rng, t):
    """A constant of scalar type t, as IR text."""
    if t[0] == "i":
        if t[1] == 1:
            return rng.choice(["true", "false"])
        return str(rng.choice([0, 1, -1, 7, 100, 2 ** (t[1] - 1) - 1]))
    if t[0] == "f":
        return rng.choice(["0.0", "1.0", "-2.5", "0x7FF0000000000000" if t[1] != "half" else "0xH7C00"])
    return "zeroinitializer"


class HostFn(Body):
    """Instructions of one host function under construction (`lines`), and
    values for launch arguments at the current point."""

    def __init__(self, rng, prefix):
        super().__init__(prefix)
        self.rng = rng

    def fresh(self, base="v"):
        return super().fresh(base)

    def emit(self, rhs, base="v"):
        return super().emit(rhs, base)

    def value(self, t, scope):
        """A value of type t at the current point: from scope, derived from
        it, or a constant."""
        rng = self.rng
        same = [v for v, vt in scope if vt == t]
        if same and rng.random() < 0.6:
            return rng.choice(same)
        if t[0] == "p":
            ptrs = [v for v, vt in scope if vt == ("p", 0)]
            if t[1] != 0:  # a field of an aggregate
                if ptrs and rng.random() < 0.5:
                    return self.emit(f"addrspacecast ptr {rng.choice(ptrs)} to {text(t)}")
                return "null"
            if not ptrs:
                return "null"
            p = rng.choice(ptrs)
            r = rng.random()
            if r < 0.3:
                return self.emit(f"getelementptr inbounds i8, ptr {p}, i64 {rng.choice([0, 4, 16])}")
            if r < 0.4 and len(ptrs) > 1:
                c = self.value(("i", 1), scope)
                return self.emit(f"select i1 {c}, ptr {p}, ptr {rng.choice(ptrs)}")
            return p
        if t[0] == "i":
            ints = [(v, vt) for v, vt in scope if vt[0] == "i" and vt != t]
            if ints and rng.random() < 0.6:
                v, vt = rng.choice(ints)
                if vt[1] > t[1]:
                    return self.emit(f"trunc {text(vt)} {v} to {text(t)}")
                return self.emit(f"{rng.choice(['zext', 'sext'])} {text(vt)} {v} to {text(t)}")
            return const_of(rng, t)
        if t[0] == "f":
            ints = [(v, vt) for v, vt in scope if vt[0] == "i"]
            if ints and rng.random() < 0.5:
                v, vt = rng.choice(ints)
                return self.emit(f"{rng.choice(['sitofp', 'uitofp'])} {text(vt)} {v} to {t[1]}")
            return const_of(rng, t)
        if t[0] == "v":
            ptrs = [v for v, vt in scope if vt == ("p", 0)]
            r = rng.random()
            if ptrs and r < 0.4:
                return self.emit(f"load {text(t)}, ptr {rng.choice(ptrs)}, align 1")
            if r < 0.7:
                e = self.value(t[2], scope)
                return self.emit(f"insertelement {text(t)} zeroinitializer, {text(t[2])} {e}, i32 0")
            return "zeroinitializer"
        # first-class struct / array: insertvalue chains over some leaves
        if rng.random() < 0.2:
            return rng.choice(["zeroinitializer", "poison"])
        agg = "poison" if rng.random() < 0.5 else "zeroinitializer"
        for path, leaf in leaves(t):
            if rng.random() < 0.7:
                lv = self.value(leaf, scope)
                agg = self.emit(f"insertvalue {text(t)} {agg}, {text(leaf)} {lv}, "
                                + ", ".join(str(i) for i in path))
        return agg


class HostKernel:
    """A launched kernel's declaration, descriptor and per-site argument kinds."""

    def __init__(self, rng, name):
        self.name = name
        self.params = []    # dicts: kind, type, decl (attrs), call (attrs), spec (map, size, len)
        self.ret = rng.choice(["void", "void", "i32"])
        self.needs_descriptor = False
        self.cc = "fastcc " if rng.random() < 0.05 else ""
        for _ in range(rng.randint(0, 6)):
            self.add_param(rng)
        r = rng.random()
        if self.needs_descriptor:
            self.desc = rng.choice(["global", "md", "both"])
        else:
            self.desc = rng.choice([None, None, None, "global", "md-some", "both"])
        self.infer_all = not self.needs_descriptor and rng.random() < 0.3
        self.words = self.descriptor_words(rng)
        self.global_form = rng.choice(["i64", "i64", "i8", "struct"])

    def add_param(self, rng):
        r = rng.random()
        p = {"decl": "", "call": "", "spec": (0, 0, 0)}
        if r < 0.3:  # pointer: size from dereferenceable, access from readonly/writeonly
            n = rng.choice([1, 4, 8, 16, 24, 64, 4096])
            size = rng.choice(["dereferenceable", "dereferenceable", "dereferenceable_or_null"]) + f"({n})"
            access = rng.choice(["", "readonly", "writeonly", "readonly", "writeonly"])
            extra = rng.choice(["", "", "noundef", "nonnull", "noalias", "align 8", "captures(none)"])
            where = rng.choice(["decl", "call"])
            p[where] += " " + size
            p[rng.choice(["decl", "call"])] += (" " + access) if access else ""
            p["decl"] += (" " + extra) if extra else ""
            p.update(kind="ptr", type=("p", 0))
            m = rng.random()
            if m < 0.15:
                p["spec"] = (rng.choice([1, 2, 3]), rng.choice([0, n]), 0)
            elif m < 0.2:
                p["spec"] = (rng.choice([0x100, 0x300]), 0, 0)
        elif r < 0.38:  # pointer sized by the descriptor only
            p.update(kind="ptr", type=("p", 0))
            p["spec"] = (rng.choice([0, 1, 2, 3]), rng.choice([1, 8, 100]), 0)
            if rng.random() < 0.5:
                p["call"] += " " + rng.choice(["readonly", "writeonly"])
            self.needs_descriptor = True
        elif r < 0.46:  # slice: pointer + element count argument
            it = rng.choice([("i", 8), ("i", 16), ("i", 32), ("i", 64), ("i", 64)])
            ln = {"kind": "len", "type": it, "decl": "", "call": "", "spec": (0, 0, 0)}
            p.update(kind="ptr", type=("p", 0))
            if rng.random() < 0.5:
                self.params.append(ln)
                at = len(self.params) - 1
                self.params.append(p)
            else:
                self.params.append(p)
                self.params.append(ln)
                at = len(self.params) - 1
            p["spec"] = (rng.choice([1, 2, 3]), rng.choice([1, 2, 4, 8, 12]), at + 1)
            self.needs_descriptor = True
            return
        elif r < 0.56:  # struct by value through byval(T)
            t = rand_aggregate(rng) if rng.random() < 0.8 else rand_scalar(rng)
            attr = f" byval({text(t)}) align {rng.choice([1, 4, 8, 16])}"
            p["decl"] += attr
            if rng.random() < 0.5:
                p["call"] += attr
            p.update(kind="byval", type=("p", 0), byval=t)
            if rng.random() < 0.15:
                p["spec"] = (rng.choice([0, 1]), 0, 0)
        elif r < 0.68:  # first-class aggregate or vector by value
            t = rand_aggregate(rng) if rng.random() < 0.7 else rand_vector(rng)
            p.update(kind="agg", type=t)
            if rng.random() < 0.15:
                p["spec"] = (rng.choice([0, 1]), 0, 0)
        else:
            t = rng.choice(HOST_SCALARS)
            p.update(kind="scalar", type=t)
            if t == ("i", 1) and rng.random() < 0.3:
                p["decl"] += " " + rng.choice(["zeroext", "noundef"])
            if rng.random() < 0.15:
                p["spec"] = (rng.choice([0, 0x100, 0x300]), 0, 0)
        self.params.append(p)

    def descriptor_words(self, rng):
        big = lambda: rng.choice([0, 0, 1, 2, 64, 256, 1024, 2 ** 32 - 1])
        words = [1, big(), big(), big(), big(), big(), big(), rng.choice([0, 0, 64, 4096])]
        if self.infer_all:
            return words + [0]
        words.append(len(self.params))
        for p in self.params:
            words += list(p["spec"])
        return words

    def declaration(self):
        params = ", ".join(f"{text(p['type'])}{p['decl']}" for p in self.params)
        return f"declare {self.cc}{self.ret} {sym(self.name)}({params})"

    def global_descriptor(self):
        w = self.words
        name = sym(DESCRIPTOR_NAME + self.name)
        if self.global_form == "i8":  # rustc's lowering of a [u64; N] static
            b = b"".join(x.to_bytes(8, "little") for x in w)
            s = "".join(f"\\{c:02X}" for c in b)
            return f"{name} = constant [{len(b)} x i8] c\"{s}\", align 8"
        if self.global_form == "struct":
            head = ", ".join(f"i64 {x}" for x in w[:9])
            tail = ", ".join(f"i64 {x}" for x in w[9:])
            ty = f"{{ [9 x i64], [{len(w) - 9} x i64] }}"
            return f"{name} = internal constant {ty} {{ [9 x i64] [{head}], [{len(w) - 9} x i64] [{tail}] }}"
        return f"{name} = constant [{len(w)} x i64] [" + ", ".join(f"i64 {x}" for x in w) + "]"


DESCRIPTOR_NAME = "__offload_launch."


def md_words(rng, words):
    """Metadata operands: any integer width that holds the value."""
    out = []
    for x in words:
        widths = [64] + [b for b in (32, 16) if x < 2 ** (b - 1)]
        out.append(f"i{rng.choice(widths)} {x}")
    return "!{" + ", ".join(out) + "}"


class HostModule:
    def __init__(self, rng, seed):
        self.rng = rng
        self.seed = seed
        self.kernels = {}       # name -> HostKernel
        self.top = []           # globals and declarations
        self.decls = set()
        self.md = []            # metadata definitions
        self.md_next = 200
        self.sites = 0          # good launch sites (each becomes one __tgt_target_kernel)
        self.data_calls = 0
        self.data_decl = "i64"
        self.expect = {}        # pass -> message fragment of the refusal
        self.params = ""
        self.reserved = None    # the kernel a bad case uses, kept out of the good launches

    def metadata(self, body):
        n = self.md_next
        self.md_next += 1
        self.md.append(f"!{n} = {body}")
        return f"!{n}"

    def kernel(self):
        name = self.rng.choice([k for k in HOST_KERNELS if k != self.reserved])
        if name not in self.kernels:
            k = HostKernel(self.rng, name)
            self.kernels[name] = k
            self.top.append(k.declaration())
            if k.desc in ("global", "both"):
                self.top.append(k.global_descriptor())
        return self.kernels[name]

    def site(self, fn, scope, kernel=None, result=None):
        """Emits one launch into fn; returns its i32 result if it is used."""
        rng = self.rng
        k = kernel or self.kernel()
        args = []
        for p in k.params:
            v = fn.value(p["type"], scope)
            args.append(f"{text(p['type'])}{p['call']} {v}")
        md = ""
        if k.desc == "md" or (k.desc in ("md-some", "both") and rng.random() < 0.5):
            words = k.words
            if k.desc == "both":  # a per-call override, same arguments
                words = [1, rng.randint(0, 8), 0, 0, rng.randint(0, 128), 0, 0, 0] + k.words[8:]
            md = ", !offload.launch " + self.metadata(md_words(rng, words))
        call = f"call {k.cc}{k.ret} {sym(k.name)}({', '.join(args)}){md}"
        if rng.random() < 0.1:
            call = rng.choice(["tail ", "notail "]) + call
        self.sites += 1
        if k.ret == "i32":
            used = rng.random() < 0.6 if result is None else result
            if used or rng.random() < 0.3:
                rc = fn.fresh("rc")
                fn.lines.append(f"  {rc} = {call}")
                return rc if used else None
        fn.lines.append(f"  {call}")
        return None

    def use_rc(self, fn, rc, scope):
        """A use of a launch's return code: kept in scope (a later launch may
        take it as an i32 argument), stored, or compared."""
        r = self.rng.random()
        ptrs = [v for v, t in scope if t == ("p", 0)]
        if r < 0.4 and ptrs:
            fn.lines.append(f"  store i32 {rc}, ptr {self.rng.choice(ptrs)}, align 4")
        else:
            c = fn.emit(f"icmp eq i32 {rc}, 0", "ok")
            scope.append((c, ("i", 1)))
        scope.append((rc, ("i", 32)))

    def data_call(self, fn, scope, op, ptr=None, size=None):
        self.decls.add(f"declare void @__offload_data_{op}(ptr, {self.data_decl}, i64)")
        ptr = ptr or fn.value(("p", 0), scope)
        size = size or fn.value(("i", 64 if self.data_decl == "i64" else 32), scope)
        fn.lines.append(f"  call void @__offload_data_{op}(ptr {ptr}, {self.data_decl} {size}, "
                      f"i64 {self.rng.choice([1, 2, 3])})")
        self.data_calls += 1
        return ptr, size

    # -- launch sites inside the llvm-stress function ------------------------

    def stress_function(self, stress):
        """Inserts groups of launch sites at random points of the llvm-stress
        function; arguments come from its values (loads, casts, selects,
        compares, allocas) that dominate the point, its parameters and
        constants."""
        rng = self.rng
        m = re.search(r"^define void @autogen_SD\d+\(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5\) \{\n(.*?)^\}\n",
                      stress, re.M | re.S)
        if not m:
            raise RuntimeError("unexpected llvm-stress output")
        blocks = []  # [label, [lines]]
        for line in m[1].splitlines():
            lm = re.match(r"^([\w.]+):", line)
            if lm:
                blocks.append([lm[1], []])
            elif line.strip():
                blocks[-1][1].append(line)
        params = [("%0", ("p", 0)), ("%1", ("p", 0)), ("%2", ("p", 0)), ("%3", ("i", 32)),
                  ("%4", ("i", 64)), ("%5", ("i", 8))]
        entry_defs = [d for line in blocks[0][1] for d in [stress_def(line)] if d]
        fn = HostFn(rng, "hs")
        scalar_types = {text(t): t for t in HOST_SCALARS}
        for _ in range(rng.randint(1, 4)):
            bi = rng.randrange(len(blocks))
            label, lines = blocks[bi]
            first = next(i for i, l in enumerate(lines) if " = phi " not in l)
            at = rng.randint(first, len(lines) - 1)
            own = [d for d in (stress_def(l) for l in lines[:at]) if d]
            scope = list(params) + own + ([] if bi == 0 else entry_defs)
            fn.lines = []
            for _ in range(rng.randint(1, 3)):
                rc = self.site(fn, scope)
                if rc:
                    self.use_rc(fn, rc, scope)
            if rng.random() < 0.15:
                p, s = self.data_call(fn, scope, "begin")
                self.site(fn, scope)
                self.data_call(fn, scope, "end", p, s)
            lines[at:at] = fn.lines
        body = "\n".join(f"{label}:\n" + "\n".join(lines) for label, lines in blocks)
        name = f"@host{self.seed}"
        if rng.random() < 0.1:
            # An entry block that starts with (empty) phis: the pass's
            # entry-block allocas must go after them.
            body = body.replace("BB:\n", "BB:\n  %hs.phi0 = phi i32\n  %hs.phi1 = phi ptr\n", 1)
        return f"define void {name}(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {{\n{body}\n}}\n"

    # -- a structured random CFG of our own --------------------------------

    def driver(self, index):
        rng = self.rng
        fn = HostFn(rng, "d")
        self.block = "entry"
        fn.lines = ["entry:"]
        scope = [("%p", ("p", 0)), ("%q", ("p", 0)), ("%n", ("i", 64)), ("%x", ("i", 32)),
                 ("%d", ("f", "double"))]
        for i in range(rng.randint(0, 3)):
            t = rng.choice(["[64 x i8]", "i64", "{ i32, double }", "[4 x float]"])
            scope.append((fn.emit(f"alloca {t}, align 16", "buf"), ("p", 0)))
        acc = fn.emit("alloca i32, align 4", "acc")
        fn.lines.append(f"  store i32 0, ptr {acc}, align 4")
        self.acc = acc
        self.seq(fn, scope, 0)
        res = fn.emit(f"load i32, ptr {acc}, align 4")
        fn.lines.append(f"  ret i32 {res}")
        return (f"define i32 @driver{index}(ptr %p, ptr %q, i64 %n, i32 %x, double %d) {{\n"
                + "\n".join(fn.lines) + "\n}\n")

    def label(self, fn, base):
        return fn.fresh(base)[1:]

    def start(self, fn, label):
        fn.lines.append(f"{label}:")
        self.block = label

    def seq(self, fn, scope, depth):
        rng = self.rng
        scope = list(scope)
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            if r < 0.45 or depth >= 3:
                rc = self.site(fn, scope)
                if rc:
                    if rng.random() < 0.5:
                        s = fn.emit(f"load i32, ptr {self.acc}, align 4")
                        s = fn.emit(f"or i32 {s}, {rc}")
                        fn.lines.append(f"  store i32 {s}, ptr {self.acc}, align 4")
                    self.use_rc(fn, rc, scope)
            elif r < 0.65:  # if / else, a phi of return codes at the join
                c = fn.value(("i", 1), scope)
                then, other, join = (self.label(fn, "then"), self.label(fn, "else"),
                                     self.label(fn, "join"))
                fn.lines.append(f"  br i1 {c}, label %{then}, label %{other}")
                ends = []
                for lab in (then, other):
                    self.start(fn, lab)
                    inner = self.seq(fn, scope, depth + 1)
                    ends.append((self.block, inner))
                    fn.lines.append(f"  br label %{join}")
                self.start(fn, join)
                vals = [next((v for v, t in inner[::-1] if t == ("i", 32) and v not in dict(scope)), "0")
                        for _, inner in ends]
                if any(v != "0" for v in vals):
                    phi = fn.emit("phi i32 " + ", ".join(f"[ {v}, %{b} ]" for v, (b, _) in zip(vals, ends)))
                    scope.append((phi, ("i", 32)))
            elif r < 0.85:  # counted loop
                head, body, exit_ = (self.label(fn, "loop"), self.label(fn, "body"),
                                     self.label(fn, "exit"))
                pre = self.block
                fn.lines.append(f"  br label %{head}")
                self.start(fn, head)
                i = fn.fresh("i")
                nxt = fn.fresh("inext")
                fn.lines.append(f"  {i} = phi i64 [ 0, %{pre} ], [ {nxt}, %LATCH ]")
                latch_line = len(fn.lines) - 1
                c = fn.emit(f"icmp ult i64 {i}, %n")
                fn.lines.append(f"  br i1 {c}, label %{body}, label %{exit_}")
                self.start(fn, body)
                self.seq(fn, scope + [(i, ("i", 64))], depth + 1)
                fn.lines.append(f"  {nxt} = add i64 {i}, 1")
                fn.lines.append(f"  br label %{head}")
                fn.lines[latch_line] = fn.lines[latch_line].replace("%LATCH", "%" + self.block)
                self.start(fn, exit_)
            else:  # a data region around launches
                p, s = self.data_call(fn, scope, "begin")
                self.seq(fn, scope, depth + 1)
                if rng.random() < 0.5:
                    self.data_call(fn, scope, "update", p, s)
                self.data_call(fn, scope, "end", p, s)
        return scope


def stress_def(line):
    """(value, type) of an llvm-stress instruction whose result type is easy
    to read and a launch can take, else None."""
    m = re.match(r"^  (%[\w.]+) = (.*)$", line)
    if not m:
        return None
    v, rhs = m[1], m[2]
    t = None
    if rhs.startswith("alloca "):
        return v, ("p", 0)
    for pat in (r"^load (\S+), ptr", r"^(?:trunc|zext|sext|fptrunc|fpext|fptoui|fptosi|uitofp|sitofp|bitcast) .* to (\S+)$",
                r"^extractelement <\d+ x (\w+)>", r"^select i1 [^,]+, (\w+) ",
                r"^(?:add|sub|mul|and|or|xor|shl|lshr|ashr|udiv|sdiv|urem|srem|fadd|fsub|fmul|fdiv|frem) (\w+) "):
        mm = re.match(pat, rhs)
        if mm:
            t = mm[1]
            break
    if re.match(r"^[if]cmp \w+ (i\d+|float|double|half|ptr) ", rhs):
        t = "i1"
    types = {text(s): s for s in HOST_SCALARS}
    return (v, types[t]) if t in types else None


def host_bad_case(h, rng):
    """One input the pass must refuse, in a function of its own, launching
    h.reserved (no good launch uses it); returns (function text, the text the
    pass's error must contain)."""
    kinds = ["unsized", "not-in-image", "md-not-in-image", "i128", "fp80", "i64-result",
                       "count", "version", "scalar-to", "body", "data-shape", "len-not-int",
                       "invoke", "addrspace", "agg-from", "literal-to", "md-string", "odd-bytes",
                       "no-init", "teams-wide", "runtime-decl"]
    if any("__offload_data_update" in d for d in h.decls):
        kinds.remove("data-shape")
    kind = rng.choice(kinds)
    k = h.reserved
    s = sym(k)
    hdr = "1, 0, 0, 0, 0, 0, 0, 0"
    f = "define void @bad(ptr %p, i64 %n) {\n"
    if kind == "unsized":
        h.top.append(f"declare void {s}(ptr)")
        return f + f"  call void {s}(ptr %p)\n  ret void\n}}\n", "a pointer of unknown size"
    if kind == "not-in-image":
        h.top.append('@"__offload_launch.nope" = constant [9 x i64] [i64 1, i64 0, i64 0, i64 0, '
                     'i64 0, i64 0, i64 0, i64 0, i64 0]')
        h.top.append("declare void @nope()")
        return f + "  call void @nope()\n  ret void\n}\n", "kernel 'nope' is not in image"
    if kind == "md-not-in-image":
        h.top.append("declare void @helper(i64)")
        m = h.metadata("!{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}")
        return (f + f"  call void @helper(i64 %n), !offload.launch {m}\n  ret void\n}}\n",
                "kernel 'helper' is not in image")
    if kind == "i128":
        h.top.append(f"declare void {s}(i128)")
        return (f + f"  %w = zext i64 %n to i128\n  call void {s}(i128 %w)\n  ret void\n}}\n",
                "an integer of 128 bits")
    if kind == "fp80":
        h.top.append(f"declare void {s}(x86_fp80)")
        return (f + f"  %w = uitofp i64 %n to x86_fp80\n  call void {s}(x86_fp80 %w)\n  ret void\n}}\n",
                "only half, float and double fit a slot")
    if kind == "i64-result":
        h.top.append(f"declare i64 {s}()")
        return (f + f"  %r = call i64 {s}()\n  store i64 %r, ptr %p\n  ret void\n}}\n",
                "a launch returns void or i32")
    if kind == "count":
        h.top.append(f"declare void {s}(i64, i64)")
        h.top.append(f"{sym(DESCRIPTOR_NAME + k)} = constant [12 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, "
                     "i64 0, i64 0, i64 0, i64 1, i64 0, i64 0, i64 0]")
        return (f + f"  call void {s}(i64 %n, i64 %n)\n  ret void\n}}\n",
                "the launch descriptor describes 1 arguments, the call passes 2")
    if kind == "version":
        m = h.metadata("!{i64 2, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}")
        h.top.append(f"declare void {s}()")
        return f + f"  call void {s}(), !offload.launch {m}\n  ret void\n}}\n", "has layout version 2"
    if kind == "scalar-to":
        m = h.metadata(f"!{{i64 {hdr.replace(', ', ', i64 ')}, i64 1, i64 1, i64 0, i64 0}}")
        h.top.append(f"declare void {s}(i64)")
        return (f + f"  call void {s}(i64 %n), !offload.launch {m}\n  ret void\n}}\n",
                "a scalar cannot be mapped TO/FROM")
    if kind == "body":
        h.top.append(f"{sym(DESCRIPTOR_NAME + k)} = constant [9 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, "
                     "i64 0, i64 0, i64 0, i64 0]")
        h.top.append(f"define void {s}() {{\n  ret void\n}}")
        return f + f"  call void {s}()\n  ret void\n}}\n", "has a body; a launch calls an external declaration"
    if kind == "data-shape":
        h.top.append("declare void @__offload_data_update(ptr, i64)")
        return (f + "  call void @__offload_data_update(ptr %p, i64 %n)\n  ret void\n}\n",
                "expected (__offload_data_update ptr, i64 size, i64 maptype) returning void")
    if kind == "len-not-int":
        m = h.metadata(f"!{{i64 {hdr.replace(', ', ', i64 ')}, i64 2, i64 3, i64 4, i64 2, i64 0, i64 0, i64 0}}")
        h.top.append(f"declare void {s}(ptr, double)")
        return (f + f"  call void {s}(ptr %p, double 1.0), !offload.launch {m}\n  ret void\n}}\n",
                "its length argument 1 is not an integer argument of the call")
    if kind == "invoke":
        h.top.append(f"declare void {s}(i64)")
        h.top.append("declare i32 @__gxx_personality_v0(...)")
        return ("define void @bad(ptr %p, i64 %n) personality ptr @__gxx_personality_v0 {\n"
                f"  invoke void {s}(i64 %n) to label %ok unwind label %lp\nok:\n  ret void\n"
                "lp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\n}\n",
                "an invoke; launches must be plain calls")
    if kind == "addrspace":
        h.top.append(f"declare void {s}(ptr addrspace(1) dereferenceable(8))")
        return (f + f"  %g = addrspacecast ptr %p to ptr addrspace(1)\n  call void {s}(ptr addrspace(1) %g)\n"
                "  ret void\n}\n", "a pointer outside address space 0")
    if kind == "agg-from":
        m = h.metadata(f"!{{i64 {hdr.replace(', ', ', i64 ')}, i64 1, i64 2, i64 0, i64 0}}")
        h.top.append(f"declare void {s}({{ i32, i32 }})")
        return (f + f"  call void {s}({{ i32, i32 }} zeroinitializer), !offload.launch {m}\n  ret void\n}}\n",
                "an aggregate passed by value is mapped TO")
    if kind == "literal-to":
        m = h.metadata(f"!{{i64 {hdr.replace(', ', ', i64 ')}, i64 1, i64 257, i64 8, i64 0}}")
        h.top.append(f"declare void {s}(ptr)")
        return (f + f"  call void {s}(ptr %p), !offload.launch {m}\n  ret void\n}}\n",
                "is both LITERAL and mapped")
    if kind == "md-string":
        m = h.metadata('!{i64 1, !"teams", i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}')
        h.top.append(f"declare void {s}()")
        return (f + f"  call void {s}(), !offload.launch {m}\n  ret void\n}}\n",
                "operand 1 is not a constant integer")
    if kind == "odd-bytes":
        h.top.append(f"{sym(DESCRIPTOR_NAME + k)} = constant [12 x i8] zeroinitializer")
        h.top.append(f"declare void {s}()")
        return f + f"  call void {s}()\n  ret void\n}}\n", "is 12 bytes, not a whole number of 64-bit words"
    if kind == "no-init":
        h.top.append(f"{sym(DESCRIPTOR_NAME + k)} = external constant [9 x i64]")
        h.top.append(f"declare void {s}()")
        return f + f"  call void {s}()\n  ret void\n}}\n", "has no initializer here"
    if kind == "teams-wide":
        m = h.metadata("!{i64 1, i64 4294967296, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}")
        h.top.append(f"declare void {s}()")
        return (f + f"  call void {s}(), !offload.launch {m}\n  ret void\n}}\n",
                "teams 4294967296 does not fit in 32 bits")
    # runtime-decl: the module declares a runtime function with another type
    h.top = [t for t in h.top if "@__tgt_target_kernel(" not in t]
    h.top.append("declare void @__tgt_target_kernel()")
    h.top.append(f"declare void {s}(i64)")
    return (f + f"  call void {s}(i64 %n)\n  ret void\n}}\n",
            "the module declares '__tgt_target_kernel' as void ()")


def gen_host(stress, seed):
    """A host module for `offload-host<image=...>`: the llvm-stress function
    with groups of launch sites inserted at random points (arguments from its
    dominating values) and 0-2 driver functions of our own with nested
    branches, loops, data regions and return codes used or not. Kernels are
    HOST_KERNELS with random declarations (pointers with dereferenceable and
    readonly/writeonly/neither on the declaration or the call, byval structs,
    first-class aggregates and vectors, scalars of every launchable width,
    pointer + length slices) and launch descriptors as metadata, a global
    (i64 array, rustc's i8 bytes, a struct) or both. Sometimes an existing
    @llvm.global_ctors / @llvm.compiler.used / @llvm.used, runtime
    declarations, @stderr or an "openmp" module flag. About 8% of modules
    get one input the pass must refuse (Kernel.expect_error)."""
    rng = random.Random(f"{seed}-host")
    k = Kernel(rng, "host")
    h = HostModule(rng, seed)
    if rng.random() < 0.08:
        h.reserved = rng.choice(HOST_KERNELS)
    if rng.random() < 0.2:
        h.data_decl = "i32"
    if rng.random() < 0.15:
        h.params = rng.choice([";teams=4;threads=64", ";device=0", ";device=3;teams=1"])
    funcs = [h.stress_function(stress)]
    for i in range(rng.choice([0, 1, 1, 2])):
        funcs.append(h.driver(i))
    extra = []
    if rng.random() < 0.2:
        h.top.append("@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
                     "[{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]")
        extra.append("define internal void @init() {\n  ret void\n}\n")
    if rng.random() < 0.2:
        h.top.append("@kept = internal global i32 0")
        h.top.append('@llvm.compiler.used = appending global [1 x ptr] [ptr @kept], section "llvm.metadata"')
    if rng.random() < 0.1:
        h.top.append('@llvm.used = appending global [1 x ptr] [ptr @kept.u], section "llvm.metadata"')
        h.top.append("@kept.u = internal global i64 0")
    if rng.random() < 0.15:
        h.top.extend(rng.sample(RUNTIME_DECLS, rng.randint(1, len(RUNTIME_DECLS))))
    if rng.random() < 0.1:
        h.top.append("@stderr = external global ptr, align 8")
    if rng.random() < 0.1:
        h.top.append("@.k0.region_id = internal global i8 0")  # a name the pass wants
    flags = ""
    if rng.random() < 0.1:
        flags = "!llvm.module.flags = !{!900}\n!900 = !{i32 7, !\"openmp\", i32 51}\n"
    if h.reserved:
        fn, fragment = host_bad_case(h, rng)
        funcs.append(fn)
        k.expect_error["offload-host"] = "deliberately bad input"
        k.expect_text["offload-host"] = fragment
    k.expect_count = {"@__tgt_target_kernel(": h.sites, "@__offload_data_": 0}
    k.pipeline_params = h.params
    out = (X86_HEADER + "\n".join(h.top) + "\n" + "\n".join(sorted(h.decls)) + "\n\n"
           + "\n".join(funcs + extra) + "\n" + "\n".join(h.md) + "\n" + flags)
    return out, k


# (name, pipeline text, generator target, extra checks: "lint" = no write to
# constant memory, "llc" = the output compiles to an object)
PIPELINES = [
    ("amdgpu-kernel-abi", "amdgpu-kernel-abi", "amdgpu", ()),
    ("byref-callee-copy", "byref-callee-copy", "amdgpu", ("lint",)),
    ("abi+copy", "amdgpu-kernel-abi,byref-callee-copy", "amdgpu", ("lint",)),
    ("offload-wrap-kernels", "offload-wrap-kernels", "x86", ()),
    # The pass text gets `<image=...>` (the campaign's image) and the
    # module's own extra parameters in one_seed.
    ("offload-host", "offload-host", "host", ("llc",)),
]


# ---------------------------------------------------------------------------
# Running


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, -999, "", f"timeout after {TIMEOUT}s")


def strip_id(path):
    with open(path) as f:
        return "".join(line for line in f if not line.startswith("; ModuleID"))


def pass_name(p):
    return p.split("<")[0]


def check_case(opt, plugin, name, pipeline, checks, src, kernel, work):
    """Returns ('ok'|'unsupported'|'failed', detail)."""
    expect, lint = kernel.expect_error, "lint" in checks
    out1 = os.path.join(work, f"{name}.1.ll")
    out2 = os.path.join(work, f"{name}.2.ll")
    base = [opt, f"-load-pass-plugin={plugin}", f"-passes={pipeline}", "-S"]
    r = run(base + [src, "-o", out1])
    if r.returncode != 0:
        err = r.stderr.strip()
        clean = (r.returncode == 1 and "error: " in err and "internal error" not in err
                 and "Stack dump" not in err and not os.path.exists(out1))
        passes = [pass_name(p) for p in pipeline.split(",") if pass_name(p) in expect]
        if clean and passes and any(f"error: {p}: " in err for p in passes):
            # Refused for the reason the generator put in, not another one.
            wrong = [p for p in passes if p in kernel.expect_text and kernel.expect_text[p] not in err]
            if not wrong:
                return "unsupported", err.splitlines()[-1]
            return "failed", (f"refused, but not with '{kernel.expect_text[wrong[0]]}':\n"
                              f"{err[-4000:]}")
        return "failed", f"opt exited {r.returncode}:\n{err[-4000:]}"
    # The second run checks the first one's output: opt verifies its input,
    # lint (run first, on that input) finds no write to the constant address
    # space, and the pipeline then changes nothing.
    second = [opt, f"-load-pass-plugin={plugin}", "-S",
              f"-passes={'function(lint),' if lint else ''}{pipeline}"]
    r = run(second + [out1, "-o", out2])
    if "input module is broken" in r.stderr:
        return "failed", f"output does not verify:\n{r.stderr[-4000:]}"
    if r.returncode != 0:
        return "failed", f"second run exited {r.returncode}:\n{r.stderr[-4000:]}"
    if lint and "Write to memory in const addrspace" in r.stderr:
        return "failed", f"lint after {pipeline}:\n{r.stderr[-4000:]}"
    if strip_id(out1) != strip_id(out2):
        d = run(["diff", out1, out2])
        return "failed", f"second run changed the module:\n{d.stdout[-4000:]}"
    if kernel.expect_count:
        with open(out1) as f:
            calls = [line for line in f if " call " in line or "= call " in line]
        for needle, want in kernel.expect_count.items():
            got = sum(line.count(needle) for line in calls)
            if got != want:
                return "failed", f"{got} calls of {needle} in the output, expected {want}"
    if "llc" in checks:
        r = run(["llc-22", "-filetype=obj", out1, "-o", os.path.join(work, f"{name}.o")])
        if r.returncode != 0:
            return "failed", f"llc-22 on the output exited {r.returncode}:\n{r.stderr[-4000:]}"
    return "ok", ""


def one_seed(job):
    seed, size, pipelines, opt, plugin, keep, deadline, image = job
    results = []
    if deadline and time.time() > deadline:
        return seed, None
    with tempfile.TemporaryDirectory(prefix="offload-fuzz-") as work:
        stress = run(["llvm-stress-22", f"-seed={seed}", f"-size={size}", "-o", "-"]).stdout
        modules = {}
        for name, pipeline, target, checks in pipelines:
            if target not in modules:
                src = os.path.join(work, f"{target}.ll")
                if target == "host":
                    ir, kernel = gen_host(stress, seed)
                else:
                    ir, kernel = make_kernel(stress, seed, target)
                with open(src, "w") as f:
                    f.write(ir)
                modules[target] = (src, kernel)
            src, kernel = modules[target]
            if target == "host":
                # The image's kernels have no manifest (random host signatures
                # launch them): named foreign, they are launched unchecked.
                foreign = ":".join(HOST_KERNELS)
                pipeline = f"{pipeline}<image={image};foreign={foreign}{kernel.pipeline_params}>"
            status, detail = check_case(opt, plugin, name.replace("+", "-"), pipeline, checks, src,
                                        kernel, work)
            if status == "failed" and keep:
                os.makedirs(keep, exist_ok=True)
                stem = os.path.join(keep, f"seed{seed}-{name.replace('+', '-')}")
                shutil.copy(src, stem + ".ll")
                with open(stem + ".log", "w") as f:
                    f.write(f"seed {seed} size {size} pipeline {pipeline}\n{detail}\n")
            results.append((name, status, detail))
    return seed, results


def plugin_has_pass(opt, plugin, name):
    with tempfile.NamedTemporaryFile("w", suffix=".ll") as f:
        f.write("")
        f.flush()
        r = run([opt, f"-load-pass-plugin={plugin}", f"-passes={name}", "-disable-output", f.name])
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=200, help="seeds (each runs every pipeline)")
    ap.add_argument("--start", type=int, default=1, help="first seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--size", type=int, default=0, help="llvm-stress -size (0: random 10..80 per seed)")
    ap.add_argument("--pipelines", default="", help="comma-separated PIPELINES names (default: all available)")
    ap.add_argument("--keep", default=os.path.join(ROOT, "fuzz", "failures"), help="where failing inputs go")
    ap.add_argument("--plugin", default=os.environ.get(
        "OFFLOAD_PASSES_PLUGIN", os.path.join(ROOT, "target", "release", "liboffload_passes.so")))
    ap.add_argument("--opt", default="opt-22")
    ap.add_argument("--max-time", type=float, default=0,
                    help="stop starting seeds after this many seconds (the summary counts the seeds run)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = ap.parse_args()

    wanted = [p for p in args.pipelines.split(",") if p]
    pipelines = []
    image = None
    image_dir = tempfile.TemporaryDirectory(prefix="offload-fuzz-image-")
    for entry in PIPELINES:
        name, pipeline, target, checks = entry
        if wanted and name not in wanted:
            continue
        if target == "host":
            # One x86_64 device image for the whole run.
            image = image or build_host_image(image_dir.name)
            if not plugin_has_pass(args.opt, args.plugin, f"offload-host<image={image}>"):
                print("campaign: the plugin has no offload-host pass; skipped", file=sys.stderr)
                continue
        pipelines.append(entry)
    if not pipelines:
        sys.exit("campaign: no pipelines to run")

    deadline = time.time() + args.max_time if args.max_time else 0
    started = time.time()
    jobs = []
    for i in range(args.cases):
        seed = args.start + i
        size = args.size or random.Random(seed).randint(10, 80)
        jobs.append((seed, size, pipelines, args.opt, args.plugin, args.keep, deadline, image))
    counts = {name: {"ok": 0, "unsupported": 0, "failed": 0} for name, *_ in pipelines}
    with multiprocessing.Pool(args.jobs) as pool:
        done = 0
        for seed, results in pool.imap_unordered(one_seed, jobs, chunksize=4):
            if results is None:
                continue
            done += 1
            for name, status, detail in results:
                counts[name][status] += 1
                if status == "failed" and args.verbose:
                    print(f"FAILED seed {seed} {name}: {detail}", file=sys.stderr)
    for name, c in counts.items():
        print(f"  {name}: {c['ok']} ok, {c['unsupported']} unsupported, {c['failed']} failed")
    total = {s: sum(c[s] for c in counts.values()) for s in ("ok", "unsupported", "failed")}
    n = done * len(pipelines)
    print(f"campaign: {n} cases, {total['ok']} ok, {total['unsupported']} unsupported, "
          f"{total['failed']} failed ({done} seeds x {len(pipelines)} pipelines, "
          f"seeds {args.start}..{args.start + args.cases - 1}, {time.time() - started:.0f} s)")
    image_dir.cleanup()
    sys.exit(1 if total["failed"] else 0)


if __name__ == "__main__":
    main()
