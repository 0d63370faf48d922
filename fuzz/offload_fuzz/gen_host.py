"""Host modules for `offload-host<image=...>` (the stress family's host
target): the llvm-stress function with groups of launch sites at random
points (arguments from its dominating values), driver functions of our own
(nested branches, loops, data regions, return codes used or not, also as a
later launch's argument), random kernel declarations and launch
descriptors (host_kernels), and sometimes one planted refusal (host_bad).
One x86_64 image with kernels HOST_KERNELS is built per run
(build_host_image: llc-22 -O2 -relocation-model=pic, ld.lld-22 -shared).
"""

import os
import random
import re
import sys

from .host_bad import plant_bad_case
from .host_kernels import HOST_SCALARS, HostFn, HostKernel, md_words
from .irtext import X86_HEADER, sym, text
from .oracle import Expect
from .tools import run

# Kernels of the one x86_64 image built per campaign run (build_host_image);
# one name has a dot, as region-id and entry names must cope with.
HOST_KERNELS = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7.v2"]
RUNTIME_DECLS = [
    "declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)",
    "declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr) nounwind",
    "declare void @__tgt_register_lib(ptr)",
    "declare i32 @atexit(ptr)",
    "declare i32 @fprintf(ptr, ptr, ...)",
    "declare void @abort() noreturn",
]


def build_host_image(work):
    """The device image for offload-host: an x86_64 shared object whose
    exported functions are HOST_KERNELS (bodies do not matter, nothing runs)."""
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
    get one input the pass must refuse (host_bad)."""
    rng = random.Random(f"{seed}-host")
    expect = Expect()
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
        fn, fragment = plant_bad_case(h, rng)
        funcs.append(fn)
        expect.refuse("offload-host", "deliberately bad input", text=fragment)
    expect.counts = {"@__tgt_target_kernel(": h.sites, "@__offload_data_": 0}
    expect.pipeline_params = h.params
    out = (X86_HEADER + "\n".join(h.top) + "\n" + "\n".join(sorted(h.decls)) + "\n\n"
           + "\n".join(funcs + extra) + "\n" + "\n".join(h.md) + "\n" + flags)
    return out, expect


# (name, pipeline text, generator target, extra checks: "lint" = no write to
