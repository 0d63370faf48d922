"""The debuginfo family: kernels whose DISubprogram describes the source
parameters, truly or not.

Each seed: 1 to 6 random source parameter types (srctypes.TypeGen), passed
as rustc 1.95 passes them at -O0 or -O3 (scalars; split pairs `i64 %p.0,
i32 %p.1`; `ptr dead_on_return noalias noundef align A dereferenceable(N)`
at -O3, bare `ptr align A` at -O0; zero-sized ones get no IR parameter),
the llvm-stress body behind them (gen_device.assemble), `#dbg_declare` /
`#dbg_value` records for the parameters, and a DISubprogram whose
DISubroutineType lists the source types. For x86 (offload-wrap-kernels)
aggregates are `ptr byval([N x i8]) align A`.

In 60% of the modules one parameter's description lies (LIES): typedef
and qualifier cycles, huge arrays and element counts, empty element lists
inside arrays, alignments that are not powers of two, sizes and member
offsets that disagree with `dereferenceable`, with a split pair's pieces
or with the aggregate, pieces of other widths, zero-sized leaves, deep
nesting, many members, or a type list that does not count the parameters.
(Non-type metadata where a type belongs is not among them: the verifier
drops such debug info before any pass runs.)

The oracle: a true description must give clang's kernarg layout
(srctypes.expected_param; amdgpu-kernel-abi pipelines); a lie may be
refused only with an error naming the kernel and the lied-about parameter;
either way no access through a byref parameter may leave it, and a byref
made from a `dereferenceable(N)` pointer has N bytes.
"""

import random
import re

from . import irlayout
from .di import DI
from .gen_device import Kernel, assemble
from .irtext import AMDGPU_HEADER, X86_HEADER
from .srctypes import SCALARS, TypeGen, expected_param, rustc_form, scalar

ABI = "amdgpu-kernel-abi"
HUGE_BITS = [1 << 40, 1 << 62, (1 << 64) - 8, 1 << 35]


def ext(t):
    if t.kind == "bool" or t.name in ("u8", "u16"):
        return " zeroext"
    return " signext" if t.name in ("i8", "i16") else ""


def add_params(k, i, t, style):
    """IR parameters for source parameter i of type t; returns their
    indexes and the DI records tying them to the variable ($V)."""
    noundef = " noundef" if style == "O3" else ""
    form = rustc_form(t)
    first = len(k.params)
    if form == "ignore":
        return [], []
    if k.target == "x86" and form in ("pair", "indirect"):
        name = f"%p{i}"
        k.params.append((f"ptr byval([{t.size} x i8]) align {t.align}", name))
        k.pointers.append((name, ("p", 0)))
        return [first], [f"#dbg_declare(ptr {name}, $V, !DIExpression(), $L)"]
    if form == "direct":
        s = t if t.scalar else t.fields[0][1]
        name = f"%p{i}"
        k.params.append((f"{s.ir()}{noundef}{ext(s) if k.target == 'amdgpu' else ''}", name))
        if s.kind == "ptr":
            k.pointers.append((name, ("p", 0)))
        else:
            k.ints.append((name, int_type(s)))
        return [first], [f"#dbg_value({s.ir()} {name}, $V, !DIExpression(), $L)"]
    if form == "pair":
        records = []
        for j, (_, ft, off) in enumerate(t.fields):
            name = f"%p{i}.{j}"
            k.params.append((f"{ft.ir()}{noundef}{ext(ft)}", name))
            if ft.kind == "ptr":
                k.pointers.append((name, ("p", 0)))
            else:
                k.ints.append((name, int_type(ft)))
            records.append(f"#dbg_value({ft.ir()} {name}, $V, "
                           f"!DIExpression(DW_OP_LLVM_fragment, {off * 8}, {ft.size * 8}), $L)")
        return [first, first + 1], records
    name = f"%p{i}"
    attrs = f"dead_on_return noalias noundef align {t.align} dereferenceable({t.size})" if style == "O3" \
        else f"align {t.align}"
    k.params.append((f"ptr {attrs}", name))
    k.pointers.append((name, ("p", 0)))
    return [first], [f"#dbg_declare(ptr {name}, $V, !DIExpression(), $L)"]


def int_type(s):
    if s.kind == "float":
        return ("f", {4: "float", 8: "double"}[s.size])
    return ("i", 1 if s.kind == "bool" else s.size * 8)


# -- lies --------------------------------------------------------------------
# Each: (di, rng, t) -> DI ref of a lying description of type t.

def lie_typedef_cycle(di, rng, t):
    a = di.reserve()
    if rng.random() < 0.5:
        return di.define(a, f'!DIDerivedType(tag: DW_TAG_typedef, name: "T", baseType: {a})')
    b = di.reserve()
    di.define(b, f'!DIDerivedType(tag: DW_TAG_typedef, name: "U", baseType: {a})')
    di.define(a, f'!DIDerivedType(tag: DW_TAG_typedef, name: "T", baseType: {b})')
    return member_or_top(di, rng, t, a)


def lie_qualifier_cycle(di, rng, t):
    tags = ["DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type", "DW_TAG_atomic_type",
            "DW_TAG_typedef"]
    refs = [di.reserve() for _ in range(rng.randint(1, 3))]
    for j, ref in enumerate(refs):
        tag = rng.choice(tags)
        name = ' name: "Q",' if tag == "DW_TAG_typedef" else ""
        di.define(ref, f"!DIDerivedType(tag: {tag},{name} baseType: {refs[(j + 1) % len(refs)]})")
    return member_or_top(di, rng, t, refs[0])


def member_or_top(di, rng, t, ref):
    """`ref` as the type itself or, for a struct, as one member's type."""
    if t.kind in ("struct", "union") and t.fields and rng.random() < 0.5:
        members = [di.type_of(ft) for _, ft, _ in t.fields]
        members[rng.randrange(len(members))] = ref
        return di.composite(t, members=members)
    return ref


def lie_huge_array(di, rng, t):
    elem = scalar(rng.choice(["u8", "u32", "u64"]))
    r = rng.random()
    size = rng.choice(HUGE_BITS) if r < 0.7 else elem.size * 8
    count = rng.choice([1 << 57, (1 << 63) - 1, 1 << 32]) if r > 0.3 else 4
    arr = di.add(f"!DICompositeType(tag: DW_TAG_array_type, baseType: {di.type_of(elem)}, size: {size}, "
                 f"align: {elem.align * 8}, elements: !{{!DISubrange(count: {count}, lowerBound: 0)}})")
    return member_or_top(di, rng, t, arr)


def lie_empty_in_array(di, rng, t):
    bits = rng.choice([8, 32, 64])
    empty = di.add(f'!DICompositeType(tag: DW_TAG_structure_type, name: "E", scope: {di.file}, '
                   f"file: {di.file}, size: {bits}, align: 8, elements: !{{}})")
    size = rng.choice([t.size * 8 or 64, 1 << 40, (1 << 64) - 8, 1 << 62])
    arr = di.add(f"!DICompositeType(tag: DW_TAG_array_type, baseType: {empty}, size: {size}, "
                 f"align: 8, elements: !{{!DISubrange(count: {size // bits}, lowerBound: 0)}})")
    if rng.random() < 0.3:  # an array of arrays of them
        arr = di.add(f"!DICompositeType(tag: DW_TAG_array_type, baseType: {arr}, size: {size}, "
                     f"align: 8, elements: !{{!DISubrange(count: 1, lowerBound: 0)}})")
    return member_or_top(di, rng, t, arr)


def lie_align(di, rng, t):
    align = rng.choice([24, 40, 48, 56, 72, 96, 12, 4, 1, 3 << 30])
    if t.kind == "array":
        return di.array_type(t, align_bits=align)
    if t.kind in ("struct", "union"):
        return di.composite(t, align_bits=align)
    return di.add(f'!DICompositeType(tag: DW_TAG_structure_type, name: "W", scope: {di.file}, file: {di.file}, '
                  f"size: {t.size * 8}, align: {align}, elements: !{{}})")


def lie_size(di, rng, t):
    size = t.size * 8
    new = rng.choice([size * 2, size // 2 // 8 * 8, size + 8, 8, size + 1, size - 8, 1 << 35, (1 << 64) - 8, 0])
    new = max(new, 0)
    if t.kind == "array":
        return di.array_type(t, size_bits=new)
    if t.kind in ("struct", "union"):
        return di.composite(t, size_bits=new)
    return di.add(f'!DIBasicType(name: "{t.name}", size: {new}, encoding: DW_ATE_unsigned)') \
        if t.kind != "ptr" else di.pointer_type(t, bits=new)


def lie_offset(di, rng, t):
    if t.kind != "struct" or not t.fields:
        return lie_size(di, rng, t)
    offsets = [off * 8 for _, _, off in t.fields]
    j = rng.randrange(len(offsets))
    offsets[j] = rng.choice([t.size * 8 + 64, t.size * 8, 1 << 40, 3, 0, t.size * 8 - 8, (1 << 64) - 64])
    return di.composite(t, offsets=offsets)


def lie_width(di, rng, t):
    if t.kind not in ("struct", "union") or not t.fields:
        return lie_size(di, rng, t)
    members = [di.type_of(ft) for _, ft, _ in t.fields]
    j = rng.randrange(len(members))
    ft = t.fields[j][1]
    if ft.kind == "ptr":
        members[j] = di.pointer_type(ft, bits=rng.choice([32, 16, 128]))
    else:
        other = rng.choice([n for n in SCALARS if SCALARS[n][1] != ft.size])
        members[j] = di.basic_type(other)
    return di.composite(t, members=members)


def lie_zero_leaf(di, rng, t):
    zero = di.add('!DIBasicType(name: "u0", size: 0, encoding: DW_ATE_unsigned)')
    return member_or_top(di, rng, t, zero)


def lie_deep(di, rng, t):
    ref = di.type_of(t)
    for d in range(rng.choice([33, 40, 200])):
        m = di.reserve()
        s = di.add(f'!DICompositeType(tag: DW_TAG_structure_type, name: "D{d}", scope: {di.file}, '
                   f"file: {di.file}, size: {t.size * 8}, align: {t.align * 8}, elements: !{{{m}}})")
        di.define(m, f'!DIDerivedType(tag: DW_TAG_member, name: "d", scope: {s}, baseType: {ref}, '
                     f"size: {t.size * 8})")
        ref = s
    return ref


def lie_wide(di, rng, t):
    n = rng.choice([4097, 6000])
    u8 = di.basic_type("u8")
    ref = di.reserve()
    ms = [di.add(f'!DIDerivedType(tag: DW_TAG_member, name: "m{i}", scope: {ref}, baseType: {u8}, '
                 f"size: 8, offset: {i * 8})") for i in range(n)]
    return di.define(ref, f'!DICompositeType(tag: DW_TAG_structure_type, name: "Wide", scope: {di.file}, '
                          f"size: {n * 8}, align: 8, elements: !{{{', '.join(ms)}}})")


LIES = {
    "typedef-cycle": lie_typedef_cycle, "qualifier-cycle": lie_qualifier_cycle,
    "huge-array": lie_huge_array, "empty-in-array": lie_empty_in_array, "align": lie_align,
    "size": lie_size, "offset": lie_offset, "width": lie_width,
    "zero-leaf": lie_zero_leaf, "deep": lie_deep, "wide": lie_wide, "count": None,
}


def make_di_kernel(stress, seed, target, lie_kind=None):
    """The module and its Expect; `lie_kind` forces a lie (LIES key)."""
    rng = random.Random(f"{seed}-debuginfo-{target}")
    k = Kernel(rng, target)
    types_gen = TypeGen(rng)
    sources = [types_gen.param() for _ in range(rng.randint(1, 6))]
    style = rng.choice(["O0", "O3"])
    name = f"k{seed}"
    slots, records = zip(*[add_params(k, i, t, style) for i, t in enumerate(sources)])
    inputs = [[k.params[j][0] + " " + k.params[j][1] for j in s] for s in slots]
    candidates = [i for i, t in enumerate(sources) if t.size > 0]
    if lie_kind is None and rng.random() < 0.6 and candidates:
        lie_kind = rng.choice(sorted(LIES))
    if not candidates:
        lie_kind = None
    di = DI()
    types = [di.type_of(t) for t in sources]
    variables = [(f"a{i}", i + 1, types[i]) for i in range(len(sources))]
    lied = None
    if lie_kind == "count":
        if rng.random() < 0.5 or len(types) < 2:
            types.insert(rng.randint(0, len(types)), di.type_of(scalar(rng.choice(["u32", "u64"]))))
        else:
            del types[rng.randrange(len(types))]
    elif lie_kind:
        lied = rng.choice(candidates)
        types[lied] = LIES[lie_kind](di, rng, sources[lied])
    sp, refs, loc = di.subprogram(name, types, variables)
    for i, recs in enumerate(records):
        if lie_kind and (lied == i or lie_kind == "count") and "fragment" in "".join(recs):
            continue  # fragments of a lied-about type may not fit it
        k.records += [f"    {r.replace('$V', refs[i]).replace('$L', loc)}" for r in recs]
    k.fn_suffix = (" !offload.kernel !101" if target == "x86" else "") + f" !dbg {sp}"
    k.metadata = (["\n!101 = !{}"] if target == "x86" else []) + di.module_metadata()
    if rng.random() < 0.3:  # only loads: the form that lets a wrapper's load become the parameter
        ir = loads_module(k, name, sources, slots)
    else:
        ir = assemble(stress, k, name, 5 if target == "amdgpu" else 0)
    return ir, expectations(k, name, sources, slots, inputs, lie_kind, lied)


def loads_module(k, name, sources, slots):
    """The kernel with a body that only loads each parameter's first scalar
    (whole, for single-scalar aggregates) and stores the scalars to a local."""
    lines = list(k.records) + ["  %sink = alloca i64, align 8" + (", addrspace(5)" if k.target == "amdgpu" else "")]
    sink = "ptr addrspace(5) %sink" if k.target == "amdgpu" else "ptr %sink"
    for t, idx in zip(sources, slots):
        for j in idx:
            ty, pname = k.params[j]
            if ty.startswith("ptr") and rustc_form(t) in ("indirect", "pair") and t.fields:
                leaf = first_scalar(t)
                lines.append(f"  %l{j} = load {leaf.ir()}, ptr {pname}, align 1")
                lines.append(f"  store {leaf.ir()} %l{j}, {sink}, align 1")
            elif not ty.startswith("ptr"):
                lines.append(f"  store {ty.split(' ')[0]} {pname}, {sink}, align 1")
    params = ", ".join(f"{t} {n}" for t, n in k.params)
    cc = "amdgpu_kernel " if k.target == "amdgpu" else ""
    header = AMDGPU_HEADER if k.target == "amdgpu" else X86_HEADER
    return (header + f"define {cc}void @{name}({params}){k.fn_suffix} {{\nBB:\n" + "\n".join(lines)
            + "\n  ret void\n}\n" + "\n".join(k.metadata) + "\n")


def first_scalar(t):
    """The scalar at offset 0 of t (u8 when t has no sized field there)."""
    while not t.scalar:
        inner = t.elem if t.kind == "array" else next((f[1] for f in t.fields if f[1].size), None)
        if inner is None or not inner.size:
            return scalar("u8")
        t = inner
    return t


def expectations(k, name, sources, slots, inputs, lie_kind, lied):
    e = k.expect
    e.variant = f"lie: {lie_kind}" if lie_kind else "true"
    if lie_kind:
        params = set(slots[lied]) if lied is not None else None
        e.refuse(ABI, f"debug info lies ({lie_kind})", kernel=name, params=params)
        e.refuse("offload-wrap-kernels", f"debug info lies ({lie_kind})", kernel=name)
    elif k.target == "amdgpu":
        e.output_checks.append((ABI, layout_check(name, sources, inputs)))
    if k.target == "amdgpu":
        e.output_checks.append((None, bounds_check(name, generic=False)))
        e.output_checks.append((ABI, dereferenceable_check(name, k.params)))
    return e


def layout_check(name, sources, inputs):
    """The output kernel's parameters are clang's for the source types."""
    def check(output):
        define = irlayout.define_line(output, name)
        params = irlayout.params_of(define)
        want = [(i, e) for i, t in enumerate(sources) for e in [expected_param(t)] if e]
        if len(params) != len(want):
            return "wrong kernel signature", f"{len(params)} parameters, expected {len(want)}:\n{define}"
        got = [irlayout.param_layout(p) for p in params]
        for (i, (form, size, align)), p, g in zip(want, params, got):
            why = None
            if g is None:
                why = "a parameter type the oracle cannot size"
            elif form == "byref" and not g[2]:
                why = f"a {size}-byte aggregate is not byref"
            elif form == "value" and g[2]:
                why = "a scalar became byref"
            elif g[0] != size:
                why = f"{g[0]} bytes, expected {size}"
            elif form == "either" and rustc_form(sources[i]) == "indirect" and [p] == inputs[i]:
                why = "an indirect single-element aggregate is left a pointer to it"
            if why:
                return "wrong kernel signature", f"source parameter {i} ({sources[i].rust()}): {why}: {p}\n{define}"
        have = irlayout.kernarg_layout([(g[0], g[1]) for g in got])
        expect = irlayout.kernarg_layout([(s, a) for _, (_, s, a) in want])
        if have != expect:
            return "kernarg layout differs from clang's", f"got {have}, expected {expect}\n{define}"
        return None
    return check


def bounds_check(name, generic):
    def check(output):
        bad = irlayout.byref_overreads(output, name, generic)
        if bad:
            return "read past a byref argument", "\n".join(f"{why}: {line}" for line, why in bad[:5])
        return None
    return check


def dereferenceable_check(name, in_params):
    """A byref made from a `dereferenceable(N)` pointer holds N bytes."""
    deref = {}
    for ty, pname in in_params:
        m = re.search(r"dereferenceable\((\d+)\)", ty)
        if m and "byref" not in ty:
            deref[pname] = int(m[1])

    def check(output):
        define = irlayout.define_line(output, name)
        for p in irlayout.params_of(define):
            lay, pname = irlayout.param_layout(p), irlayout.param_name(p)
            if lay and lay[2] and pname in deref and lay[0] != deref[pname]:
                return ("byref size disagrees with dereferenceable",
                        f"{pname}: dereferenceable({deref[pname]}) became {lay[0]} bytes: {p}")
        return None
    return check
