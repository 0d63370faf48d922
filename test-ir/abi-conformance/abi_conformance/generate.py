"""Kernels from (seed, kernel id), deterministically, and the two crates
(Rust and HIP C) of a list of kernels."""

import random

from .aggregates import Struct
from .c_source import C_PRELUDE, kernel_c
from .enums import CEnum
from .kernel import Kernel
from .rust_source import RUST_PRELUDE, kernel_rust
from .type_json import ty_from_json
from .typegen import TypeGen
from .types import Scalar
from .values import rand_value
from .writes import write_literal, write_paths


def make_kernel(seed, kid):
    return fix_enum_literals(gen_kernel(seed, kid))


def gen_kernel(seed, kid):
    r = random.Random(f"{seed}:{kid}")
    tg = TypeGen(r)
    n = r.choice([1, 1, 2, 2, 3, 3, 4, 5, 6])
    params = []
    for i in range(n):
        ty = tg.ty(r.choice([1, 2, 2, 3]), top=True)
        params.append([f"p{i}", ty, rand_value(ty, r)])
    writes = []
    if r.random() < 1 / 3:
        writes = gen_writes(params, r, tg)
    out_pos = r.randrange(len(params) + 1)
    return Kernel(kid, params, out_pos, writes, r.randrange(1 << 30))


def gen_writes(params, r, tg):
    """Writes into by-value arguments: plain, under a bool parameter, or
    through a pointer selected by a bool parameter. Adds a by-value
    aggregate (and a bool) when the kernel has none to write."""
    def targets():
        return [(n, path, leaf) for n, t, _ in params if not isinstance(t, (Scalar, CEnum))
                for path, leaf in write_paths(t)]
    if not targets():
        ty = Struct([tg.scalar() for _ in range(r.choice([1, 2, 3]))])
        params.insert(r.randrange(len(params) + 1), [f"p{len(params)}", ty, rand_value(ty, r)])
    bools = [n for n, t, _ in params if isinstance(t, Scalar) and t.sname == "bool"]
    writes = []
    for _ in range(r.choice([1, 1, 1, 2])):
        ts = targets()
        n, path, leaf = r.choice(ts)
        kind = r.choice(["plain", "cond", "select"])
        same = [(n2, p2) for n2, p2, l2 in ts if l2.json() == leaf.json() and (n2, p2) != (n, path)
                and not any(s == "a" for s, _ in p2)]
        if kind == "select" and any(s == "a" for s, _ in path):
            kind = "cond"
        w = {"kind": kind, "targets": [[n, [list(s) for s in path]]]}
        if kind != "plain":
            if not bools:
                ty = Scalar("bool")
                name = f"p{len(params)}"
                params.insert(r.randrange(len(params) + 1), [name, ty, r.randrange(2)])
                bools.append(name)
            w["cond"] = r.choice(bools)
        if kind == "select" and same and r.random() < 0.5:
            n2, p2 = r.choice(same)
            w["targets"].append([n2, [list(s) for s in p2]])
        w["lit"] = None  # filled below: needs the names
        writes.append(w)
    # literals need named enum types: build a throwaway kernel to name them
    tmp = Kernel(0, params, 0, [], 0)
    types = {n: t for n, t, _ in params}
    for w in writes:
        p, path = w["targets"][0]
        leaf = tmp._leaf_type(types[p], [tuple(s) for s in path])
        lit = write_literal(leaf, r)
        w["lit"] = list(lit)
        if isinstance(leaf, CEnum):
            # names are per kernel: store the variant index and rename later
            w["lit_enum"] = [leaf.json(), leaf.values.index(lit[2])]
    return writes


def fix_enum_literals(k):
    """Write literals of enum leaves name the kernel's enum type."""
    types = {n: t for n, t, _ in k.params}
    for w in k.writes:
        if "lit_enum" in w:
            p, path = w["targets"][0]
            leaf = k._leaf_type(types[p], [tuple(s) for s in path])
            i = w["lit_enum"][1]
            w["lit"] = [f"{leaf.name}::V{i}", f"{leaf.name}_V{i}", leaf.values[i]]
    k._body()
    return k


def kernel_from_json(j):
    params = [[n, ty_from_json(t), v] for n, t, v in j["params"]]
    return Kernel(j["id"], params, j["out_pos"], j["writes"], j["read_seed"])


def crate_sources(kernels):
    rust = RUST_PRELUDE + "\n" + "\n".join(kernel_rust(k) for k in kernels)
    c = C_PRELUDE + "\n" + "\n".join(kernel_c(k) for k in kernels)
    return rust, c
