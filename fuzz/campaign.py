#!/usr/bin/env python3
"""Generator-based fuzz campaign for the offload-passes device passes.

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

Every module runs through each pipeline in PIPELINES. A case is one module
through one pipeline; it is
- ok: opt exits 0, the output verifies, `-passes=lint` reports no "Write to
  memory in const addrspace" (pipelines with byref-callee-copy) and running
  the pipeline again on the output changes nothing;
- unsupported: the generator deliberately made the input one the pass must
  refuse (e.g. a byref pointer cast to addrspace(1) and passed to a call that
  needs that type), and opt failed cleanly: exit 1, "LLVM ERROR: <pass>: ...",
  no "internal error", no output file;
- failed: anything else (crash, signal, panic, unexpected error, output that
  does not verify, lint finding, second run changing the module, output file
  left behind by a failed run). The input and a log go to --keep.

Usage:
  fuzz/campaign.py --cases 200                # 200 seeds x every pipeline
  fuzz/campaign.py --cases 10000 --start 1000000 --jobs 2
Prints per-pipeline lines and one summary line:
  campaign: 800 cases, 800 ok, 0 unsupported, 0 failed (200 seeds x 4 pipelines)

Host pass hook: `offload-host` (not in this tree yet) has a PIPELINES entry
with generator `gen_host`; fill that in (a host module with launch sites, see
/work/shared/reference/offload-runtime.md) and the entry runs when the plugin
registers the pass (`--pipelines offload-host` to run it alone).
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
    """Named helper instructions of the prologue."""

    def __init__(self):
        self.lines = []
        self.n = 0

    def fresh(self, base="h"):
        self.n += 1
        return f"%{base}.{self.n}"

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


def gen_host(stress, seed):
    """Hook for `offload-host`: a host module with launch sites (begin mapper,
    __tgt_target_kernel, end mapper; see offload-runtime.md). Not written yet:
    the pass and its input contract are on another branch."""
    raise NotImplementedError("offload-host generator: add it when the pass lands")


# (name, pipeline text, generator target, check lint?)
PIPELINES = [
    ("amdgpu-kernel-abi", "amdgpu-kernel-abi", "amdgpu", False),
    ("byref-callee-copy", "byref-callee-copy", "amdgpu", True),
    ("abi+copy", "amdgpu-kernel-abi,byref-callee-copy", "amdgpu", True),
    ("offload-wrap-kernels", "offload-wrap-kernels", "x86", False),
    # Enabled when the plugin registers the pass and gen_host is written.
    ("offload-host", "offload-host", "host", False),
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


def check_case(opt, plugin, name, pipeline, lint, src, expect, work):
    """Returns ('ok'|'unsupported'|'failed', detail)."""
    out1 = os.path.join(work, f"{name}.1.ll")
    out2 = os.path.join(work, f"{name}.2.ll")
    base = [opt, f"-load-pass-plugin={plugin}", f"-passes={pipeline}", "-S"]
    r = run(base + [src, "-o", out1])
    if r.returncode != 0:
        err = r.stderr.strip()
        clean = (r.returncode == 1 and "LLVM ERROR: " in err and "internal error" not in err
                 and "Stack dump" not in err and not os.path.exists(out1))
        passes = [p for p in pipeline.split(",") if p in expect]
        if clean and passes and any(f"LLVM ERROR: {p}: " in err for p in passes):
            return "unsupported", err.splitlines()[-1]
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
    return "ok", ""


def one_seed(job):
    seed, size, pipelines, opt, plugin, keep, deadline = job
    results = []
    if deadline and time.time() > deadline:
        return seed, None
    with tempfile.TemporaryDirectory(prefix="offload-fuzz-") as work:
        stress = run(["llvm-stress-22", f"-seed={seed}", f"-size={size}", "-o", "-"]).stdout
        modules = {}
        for name, pipeline, target, lint in pipelines:
            if target not in modules:
                src = os.path.join(work, f"{target}.ll")
                ir, kernel = make_kernel(stress, seed, target)
                with open(src, "w") as f:
                    f.write(ir)
                modules[target] = (src, kernel)
            src, kernel = modules[target]
            status, detail = check_case(opt, plugin, name.replace("+", "-"), pipeline, lint, src,
                                        kernel.expect_error, work)
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
    for entry in PIPELINES:
        name, pipeline, target, lint = entry
        if wanted and name not in wanted:
            continue
        if target == "host" and not (wanted and plugin_has_pass(args.opt, args.plugin, "offload-host")):
            continue  # the hook: see gen_host
        pipelines.append(entry)
    if not pipelines:
        sys.exit("campaign: no pipelines to run")

    deadline = time.time() + args.max_time if args.max_time else 0
    started = time.time()
    jobs = []
    for i in range(args.cases):
        seed = args.start + i
        size = args.size or random.Random(seed).randint(10, 80)
        jobs.append((seed, size, pipelines, args.opt, args.plugin, args.keep, deadline))
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
    sys.exit(1 if total["failed"] else 0)


if __name__ == "__main__":
    main()
