"""The rustc family: what rustc 1.95 itself emits.

Each seed is one `#![no_core]` crate (no rust-src here, so the preamble
defines the few lang items it needs) with --rustc-kernels `extern
"gpu-kernel"` kernels of random `#[repr(C)]` signatures (srctypes.TypeGen:
scalars, pointers, split pairs, structs with arrays and nested structs,
single-field wrappers, Rust-repr wrappers, unions, zero-sized and
over-aligned structs) and a last `out: *mut u32`. Each body reads
parameter fields into a record it stores to `out` (so every read
survives -O3), and some first write a field of a by-value parameter, or
write through a pointer that is either into the parameter or `out`
(rustc assumes it owns by-value arguments). Even seeds compile at
-Copt-level=0, odd ones at 3, always -Cdebuginfo=2:

  rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a -Copt-level=O
        -Cdebuginfo=2 -Ccodegen-units=1 --crate-type cdylib --emit=llvm-ir

llvm-extract-22 then gives one module per kernel (one case per kernel and
pipeline). The oracle: the common checks, clang's kernarg layout for the
source types (srctypes.expected_param) after amdgpu-kernel-abi, no access
at a constant offset through a byref parameter past its size (also
through generic casts), and byref sizes equal to `dereferenceable`.
"""

import os
import random
import tempfile

from . import gen_debuginfo, irlayout
from .oracle import Expect
from .srctypes import TypeGen, pointer, rustc_form, scalar
from .tools import run

PREAMBLE = """#![feature(no_core, lang_items, abi_gpu_kernel, auto_traits)]
#![no_core]
#![allow(internal_features, improper_ctypes_definitions, improper_gpu_kernel_arg, dead_code, unused)]

#[lang = "pointee_sized"]
pub trait PointeeSized {}
#[lang = "meta_sized"]
pub trait MetaSized: PointeeSized {}
#[lang = "sized"]
pub trait Sized: MetaSized {}
#[lang = "freeze"]
pub unsafe auto trait Freeze {}
#[lang = "copy"]
pub trait Copy: Sized {}
impl Copy for u8 {}
impl Copy for u16 {}
impl Copy for u32 {}
impl Copy for u64 {}
impl Copy for i8 {}
impl Copy for i16 {}
impl Copy for i32 {}
impl Copy for i64 {}
impl Copy for usize {}
impl Copy for f32 {}
impl Copy for f64 {}
impl Copy for bool {}
impl<T: Copy, const N: usize> Copy for [T; N] {}
impl<T: ?Sized> Copy for *const T {}
impl<T: ?Sized> Copy for *mut T {}
"""

LITERAL = {"int": "7", "float": "1.5", "bool": "true"}


def define(t):
    """The Rust definition of a named type."""
    if t.kind == "union":
        fields = ", ".join(f"pub {f}: {ft.rust()}" for f, ft, _ in t.fields)
        return f"#[repr(C)]\npub union {t.name} {{ {fields} }}"
    fields = ", ".join(f"pub {f}: {ft.rust()}" for f, ft, _ in t.fields)
    if not t.repr_c:
        return f"pub struct {t.name} {{ {fields} }}"
    over = t.align > max([ft.align for _, ft, _ in t.fields] + [1])
    attr = f"#[repr(C, align({t.align}))]" if over else "#[repr(C)]"
    return f"{attr}\npub struct {t.name} {{ {fields} }}"


class Reads:
    """Statements and scalar expressions reading a kernel's parameters."""

    def __init__(self, rng):
        self.rng = rng
        self.stmts = []
        self.n = 0

    def leaves(self, expr, t, out):
        if t.scalar:
            out.append((expr, t))
        elif t.kind in ("struct", "union"):
            for f, ft, _ in t.fields:
                self.leaves(f"{expr}.{f}", ft, out)
        elif t.kind == "array" and t.count:
            names = []
            for i in range(t.count):
                if i in (0, t.count - 1):
                    self.n += 1
                    names.append(f"e{self.n}")
                else:
                    names.append("_")
            self.stmts.append(f"let [{', '.join(names)}] = {expr};")
            for nm, i in zip(names, range(t.count)):
                if nm != "_":
                    self.leaves(nm, t.elem, out)


def kernel(rng, index, gen):
    """(Rust text, source types) of one kernel."""
    sources = [gen.param() for _ in range(rng.randint(1, 5))]
    reads = Reads(rng)
    leaves = []
    for i, t in enumerate(sources):
        reads.leaves(f"a{i}", t, leaves)
    muts, pre = set(), []
    fields = [(i, f, ft) for i, t in enumerate(sources) if t.kind == "struct" and t.repr_c
              for f, ft, _ in t.fields if ft.kind in LITERAL]
    if fields and rng.random() < 0.4:
        i, f, ft = rng.choice(fields)
        muts.add(i)
        if rng.random() < 0.5:
            pre.append(f"a{i}.{f} = {LITERAL[ft.kind]};")
        else:  # through a pointer chosen at run time
            sources.append(None)
            pre.append(f"let q: *mut {ft.rust()} = if sel {{ &mut a{i}.{f} as *mut {ft.rust()} }} "
                       f"else {{ out as *mut {ft.rust()} }};")
            pre.append(f"*q = {LITERAL[ft.kind]};")
    sig = [("mut " if i in muts else "") + f"a{i}: {t.rust()}" for i, t in enumerate(sources) if t]
    if None in sources:
        sig.append("sel: bool")
        sources = [t for t in sources if t] + [gen_scalar("bool")]
    sig.append("out: *mut u32")
    # The kernel's own number too: identical kernels would become aliases at -O3.
    leaves = rng.sample(leaves, min(len(leaves), 12)) + [(f"{index}", gen_scalar("u32"))]
    record = f"R{index}"
    rtypes = ", ".join(t.rust() for _, t in leaves)
    text = (f"#[repr(C)]\npub struct {record}({rtypes});\n"
            f"#[unsafe(no_mangle)]\npub unsafe extern \"gpu-kernel\" fn k{index}({', '.join(sig)}) {{\n"
            "    unsafe {\n" + "".join(f"        {s}\n" for s in pre + reads.stmts)
            + f"        *(out as *mut {record}) = {record}({', '.join(e for e, _ in leaves)});\n"
            "    }\n}\n")
    return text, sources + [gen_scalar("ptr")]


def gen_scalar(name):
    return pointer() if name == "ptr" else scalar(name)


def crate(seed, count):
    rng = random.Random(f"{seed}-rustc")
    gen = TypeGen(rng)
    kernels = [kernel(rng, i, gen) for i in range(count)]
    text = PREAMBLE + "\n" + "\n".join(define(t) for t in gen.named) + "\n\n" + "\n".join(k for k, _ in kernels)
    return text, [s for _, s in kernels]


def rustc_modules(seed, target, ctx):
    """[(stem, module text, Expect)]: one per kernel of the seed's crate."""
    level = "0" if seed % 2 == 0 else "3"
    text, signatures = crate(seed, ctx.rustc_kernels)
    with tempfile.TemporaryDirectory(prefix="offload-fuzz-rustc-") as work:
        src, out = os.path.join(work, f"crate{seed}.rs"), os.path.join(work, "crate.ll")
        with open(src, "w") as f:
            f.write(text)
        cmd = [ctx.rustc, "--target", "amdgcn-amd-amdhsa", "-Ctarget-cpu=gfx90a", f"-Copt-level={level}",
               "-Cdebuginfo=2", "-Ccodegen-units=1", "--crate-type", "cdylib", "--emit=llvm-ir",
               src, "-o", out]
        r = run(cmd, env=dict(os.environ, RUSTC_BOOTSTRAP="1"))
        if r.returncode != 0:
            raise RuntimeError(f"rustc failed on seed {seed}:\n{r.stderr[-3000:]}")
        modules = []
        for i, sources in enumerate(signatures):
            path = os.path.join(work, f"k{i}.ll")
            r = run(["llvm-extract-22", "-S", f"--func=k{i}", out, "-o", path])
            if r.returncode != 0:
                raise RuntimeError(f"llvm-extract-22 k{i} failed: {r.stderr[-2000:]}")
            with open(path) as f:
                ir = f.read()
            modules.append((f"seed{seed}-O{level}-k{i}", ir, expectations(ir, f"k{i}", sources, level)))
    return modules


def expectations(ir, name, sources, level):
    e = Expect()
    e.variant = f"O{level}"
    params = irlayout.params_of(irlayout.define_line(ir, name))
    forms = [rustc_form(t) for t in sources]
    widths = {"ignore": 0, "direct": 1, "indirect": 1, "pair": 2}
    inputs, at = [], 0
    if sum(widths[f] for f in forms) == len(params):
        for f in forms:
            inputs.append(params[at:at + widths[f]])
            at += widths[f]
    else:  # rustc passes them otherwise than srctypes.rustc_form says: no "left a pointer" check
        inputs = [[] for _ in forms]
        e.variant += " (other forms)"
    e.output_checks.append(("amdgpu-kernel-abi", gen_debuginfo.layout_check(name, sources, inputs)))
    e.output_checks.append((None, gen_debuginfo.bounds_check(name, generic=True)))
    in_params = [(p.rsplit(" ", 1)[0], p.rsplit(" ", 1)[1]) for p in params]
    e.output_checks.append(("amdgpu-kernel-abi", gen_debuginfo.dereferenceable_check(name, in_params)))
    return e
