"""The special family: kernels a signature change can break.

Each seed: one kind from KINDS (those its target allows: musttail,
varargs and calls of a kernel exist only for x86 !offload.kernel
functions, the verifier refuses them on amdgpu_kernel), a random parameter
list from the stress family's generators, and a body: the llvm-stress body
behind the usual prologue, or a small one that uses every parameter
(`small_body`). The kinds: naked, musttail forwarding (to another function
or to itself), optnone noinline, varargs with va_start, called directly by
another function, invoke with a personality, blockaddress of one of its
blocks, prefix and prologue data, its address taken (global, alias,
@llvm.used), linkage / visibility / section / comdat / align / gc / string
attributes, a `returned` parameter, sret / swiftself / nest / inalloca
parameters, a declaration without a body, noreturn with an endless loop.

The oracle: any pass may refuse one with an error naming the kernel;
otherwise, besides the common checks, the kernel keeps its function
properties (linkage, visibility, attributes, section, comdat, align, gc,
prefix, prologue, personality), a blockaddress of it still refers to it,
and every direct call of it passes as many arguments as it has parameters.
"""

import random
import re

from . import irlayout
from .gen_device import Kernel, assemble, gen_amdgpu_params, gen_x86_params, prologue
from .irtext import AMDGPU_HEADER, STRESS_DEFINE, X86_HEADER

PASSES = ["amdgpu-kernel-abi", "byref-callee-copy", "offload-wrap-kernels"]
PERSONALITY = "declare i32 @__gxx_personality_v0(...)"
ASM = {"amdgpu": "s_endpgm", "x86": "ret"}

# kind -> targets it applies to
KINDS = {
    "naked": ("amdgpu", "x86"), "musttail": ("x86",), "musttail-self": ("x86",),
    "optnone": ("amdgpu", "x86"), "varargs": ("x86",), "called": ("x86",),
    "invoke": ("amdgpu", "x86"), "blockaddress": ("amdgpu", "x86"), "prefix": ("amdgpu", "x86"),
    "address-taken": ("amdgpu", "x86"), "properties": ("amdgpu", "x86"), "returned": ("x86",),
    "abi-params": ("x86",), "declaration": ("amdgpu", "x86"), "noreturn": ("amdgpu", "x86"),
}


def alloca_as5(text):
    return re.sub(r"^  (%[\w.]+) = alloca (.*)$",
                  lambda a: f"  {a[1]}.as = alloca {a[2]}, addrspace(5)\n"
                            f"  {a[1]} = addrspacecast ptr addrspace(5) {a[1]}.as to ptr",
                  text, flags=re.M)


def small_module(k, define_head, blocks):
    """A module around `define_head {` + blocks (text after the entry label)."""
    text = f"{define_head} {{\nBB:\n" + blocks + "}\n"
    if k.target == "amdgpu":
        text = alloca_as5(text)
    header = AMDGPU_HEADER if k.target == "amdgpu" else X86_HEADER
    return header + "\n".join(sorted(k.decls)) + "\n" + text + "\n".join(k.metadata) + "\n"


def small_body(k):
    """The prologue and plain uses of %0..%5 (every parameter feeds them)."""
    lines = prologue(k)
    lines += ["  store i8 %5, ptr %0, align 1", "  store i32 %3, ptr %1, align 1",
              "  store i64 %4, ptr %2, align 1"]
    return "\n".join(lines) + "\n"


def head(k, name, ret="void", extra_params=(), suffix="", prefix=""):
    params = ", ".join([*extra_params, *(f"{t} {n}".strip() for t, n in k.params)])
    cc = "amdgpu_kernel " if k.target == "amdgpu" else ""
    md = " !offload.kernel !101" if k.target == "x86" else ""
    return f"define {prefix}{cc}{ret} @{name}({params}){suffix}{md}"


def build(kind, k, name, stress):
    """The module text for one kind; may add checks to k.expect."""
    rng = k.rng
    stress_kernel = lambda: assemble(stress, k, name, 5 if k.target == "amdgpu" else 0)
    if kind == "naked":
        return small_module(k, head(k, name, suffix=" naked noinline"),
                            f'  call void asm sideeffect "{ASM[k.target]}", ""()\n  unreachable\n')
    if kind in ("musttail", "musttail-self"):
        callee = name if kind == "musttail-self" else "impl"
        if callee == "impl":
            k.decls.add(f"declare void @impl({', '.join(t for t, _ in k.params)})")
        args = ", ".join(f"{t} {n}" for t, n in k.params)
        body = small_body(k) + f"  musttail call void @{callee}({args})\n  ret void\n"
        return small_module(k, head(k, name), body)
    if kind == "optnone":
        k.fn_suffix += " optnone noinline"
        return stress_kernel()
    if kind == "varargs":
        k.decls |= {"declare void @llvm.va_start.p0(ptr)", "declare void @llvm.va_end.p0(ptr)"}
        body = small_body(k) + ("  %va = alloca [24 x i8], align 8\n  call void @llvm.va_start.p0(ptr %va)\n"
                                "  call void @llvm.va_end.p0(ptr %va)\n  ret void\n")
        k.params.append(("...", ""))
        return small_module(k, head(k, name), body)
    if kind == "called":
        return stress_kernel() + caller(k, name)
    if kind == "invoke":
        k.decls |= {PERSONALITY, "declare void @may_throw(ptr)"}
        body = (small_body(k) + "  invoke void @may_throw(ptr %0) to label %ok unwind label %lp\n"
                "ok:\n  ret void\nlp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\n")
        return small_module(k, head(k, name, suffix=" personality ptr @__gxx_personality_v0"), body)
    if kind == "blockaddress":
        labels = re.findall(r"^(\w+):", stress[re.search(STRESS_DEFINE, stress, re.M).end():], re.M)[1:]
        if not labels:
            return build("optnone", k, name, stress)
        k.metadata.insert(0, f"@ba = global ptr blockaddress(@{name}, %{rng.choice(labels)})")
        k.expect.output_checks.append((None, lambda out: None if f"blockaddress(@{name}, " in out else
                                       ("blockaddress of the kernel lost", "no blockaddress(@k, ...) left")))
        return move_globals(stress_kernel())
    if kind == "prefix":
        k.fn_suffix += rng.choice([" prefix i32 7", " prologue i32 9", " prefix i64 1 prologue i8 2"])
        return stress_kernel()
    if kind == "address-taken":
        fnty = "void (" + ", ".join(bare_type(t) for t, _ in k.params) + ")"
        k.metadata[:0] = [f"@fp = global ptr @{name}", f"@{name}.alias = alias {fnty}, ptr @{name}",
                          f'@llvm.used = appending global [1 x ptr] [ptr @{name}], section "llvm.metadata"']
        return move_globals(stress_kernel())
    if kind == "properties":
        return properties(k, name, stress_kernel)
    if kind == "returned":
        ptrs = [n for t, n in k.params if t.split(" ")[0] == "ptr" and "byval" not in t]
        if not ptrs:
            k.params.insert(0, ("ptr", "%ret0"))
            ptrs = ["%ret0"]
        p = rng.choice(ptrs)
        k.params = [(t + " returned" if n == p else t, n) for t, n in k.params]
        return small_module(k, head(k, name, ret="ptr"), small_body(k) + f"  ret ptr {p}\n")
    if kind == "abi-params":
        return abi_params(k, name)
    if kind == "declaration":
        params = ", ".join(t for t, _ in k.params)
        cc = "amdgpu_kernel " if k.target == "amdgpu" else ""
        md = " !offload.kernel !101" if k.target == "x86" else ""
        header = AMDGPU_HEADER if k.target == "amdgpu" else X86_HEADER
        return header + f"declare{md} {cc}void @{name}({params})\n" + "\n".join(k.metadata) + "\n"
    # noreturn: an endless loop after the uses
    return small_module(k, head(k, name, suffix=" noreturn"), small_body(k) + "  br label %spin\nspin:\n  br label %spin\n")


def bare_type(param_text):
    return irlayout.leading_type(param_text)[0]


def insert_top(text, line):
    """`line` after the module header (data layout and triple)."""
    lines = text.split("\n")
    return "\n".join(lines[:2] + [line] + lines[2:])


def move_globals(text):
    """Globals the builders put in front of the metadata go before the code."""
    lines = text.split("\n")
    globs = [l for l in lines if l.startswith("@")]
    rest = [l for l in lines if not l.startswith("@")]
    return "\n".join(rest[:2] + globs + rest[2:])


def caller(k, name):
    """A function calling the kernel directly."""
    args, allocas = [], []
    for i, (t, _) in enumerate(k.params):
        ty = bare_type(t)
        if "byval(" in t:
            allocas.append(f"  %a{i} = alloca [256 x i8], align 16")
            args.append(f"ptr %a{i}")
        else:
            args.append(f"{ty} zeroinitializer" if ty[0] in "<{[" else f"{ty} {'null' if ty == 'ptr' else 'poison'}")
    k.expect.output_checks.append((None, calls_match(name)))
    return ("define void @caller() {\n" + "\n".join(allocas + [f"  call void @{name}({', '.join(args)})"])
            + "\n  ret void\n}\n")


def calls_match(name):
    def check(out):
        define = irlayout.define_line(out, name)
        n = len(irlayout.params_of(define))
        for m in re.finditer(r"call \w* ?void @" + re.escape(name) + r"\((.*)\)", out):
            if len(irlayout.split_top(m[1])) != n:
                return "call of the kernel no longer matches it", f"{m[0]}\n{define}"
        return None
    return check


def properties(k, name, stress_kernel):
    rng = k.rng
    link = rng.choice(["", "weak ", "linkonce_odr ", "weak_odr ", "dso_local "])
    vis = rng.choice(["", "protected ", "hidden "]) if link != "dso_local " else ""
    k.fn_suffix += rng.choice(["", " unnamed_addr", " local_unnamed_addr"])
    k.fn_suffix += rng.choice(["", ' "amdgpu-flat-work-group-size"="1,256"', ' "uniform-work-group-size"="true"'])
    k.fn_suffix += rng.choice(["", ' section ".text.k"', " align 64"])
    comdat = rng.random() < 0.3
    if comdat:
        k.fn_suffix += " comdat"
    if rng.random() < 0.3:
        k.fn_suffix += ' gc "statepoint-example"'
    text = stress_kernel().replace(f"define {'amdgpu_kernel ' if k.target == 'amdgpu' else ''}void @{name}(",
                                   f"define {link}{vis}{'amdgpu_kernel ' if k.target == 'amdgpu' else ''}"
                                   f"void @{name}(", 1)
    return insert_top(text, f"${name} = comdat any") if comdat else text


def abi_params(k, name):
    """x86 parameters with ABI attributes the verifier places rules on."""
    rng = k.rng
    extra = []
    if rng.random() < 0.5:
        extra.append(("ptr sret([16 x i8]) align 8", "%sret"))
    if rng.random() < 0.5:
        extra.append(("ptr swiftself", "%self"))
    if rng.random() < 0.4:
        extra.append(("ptr nest", "%nest"))
    k.params = extra + k.params
    if rng.random() < 0.4:
        k.params.append(("ptr inalloca(<{ i32, i64 }>)", "%ia"))
    for _, n in extra:
        k.pointers.append((n, ("p", 0)))
    return small_module(k, head(k, name), small_body(k) + "  ret void\n")


def make_special_kernel(stress, seed, target, kind=None):
    rng = random.Random(f"{seed}-special-{target}")
    kind = kind or rng.choice([kd for kd, ts in KINDS.items() if target in ts])
    k = Kernel(rng, target)
    if target == "amdgpu":
        gen_amdgpu_params(k)
    else:
        gen_x86_params(k)
    name = f"k{seed}"
    if target == "x86":
        k.metadata.append("\n!101 = !{}")
    ir = build(kind, k, name, stress)
    e = k.expect
    e.variant = kind
    for p in PASSES:
        if p not in e.refusals:
            e.refuse(p, f"a {kind} kernel", kernel=name)
    if kind not in ("declaration",):
        if target == "amdgpu":
            # amdgpu-kernel-abi clears unnamed_addr on every kernel (a kernel
            # is found by its symbol: MergeFunctions must not make it an
            # alias); everything else is kept, by byref-callee-copy too.
            e.output_checks.append(("amdgpu-kernel-abi", properties_kept(name, ir, ignore=UNNAMED)))
            e.output_checks.append(("amdgpu-kernel-abi", unnamed_addr_cleared(name)))
            e.output_checks.append(("!amdgpu-kernel-abi", properties_kept(name, ir)))
        else:
            e.output_checks.append((None, properties_kept(name, ir)))
    return ir, e


UNNAMED = {"unnamed_addr", "local_unnamed_addr"}


def properties_kept(name, ir, ignore=frozenset()):
    before = irlayout.fn_props(ir, name) - ignore

    def check(out):
        lost = before - irlayout.fn_props(out, name)
        if lost:
            return "function properties lost", f"kernel '{name}' lost {' '.join(sorted(lost))}"
        return None
    return check


def unnamed_addr_cleared(name):
    def check(out):
        kept = UNNAMED & irlayout.fn_props(out, name)
        if kept:
            return "kernel still unnamed_addr", f"kernel '{name}' is still {' '.join(sorted(kept))} after amdgpu-kernel-abi"
        return None
    return check
