"""Failure classes: a failing kernel grouped by the parameter behind the
difference and its symptom (split, left a pointer, wrong value kind...)."""

import json
import re

from .aggregates import Array, Struct, Union, Wrapper
from .enums import CEnum, DataEnum
from .types import Opt, Ptr, Scalar, Slice, walk


def enumish(t):
    """The type holds an Option<&T>-like or an enum with fields (its debug
    info is a variant part, not fields)."""
    return t is not None and any(isinstance(n, (Opt, DataEnum)) for n in walk(t))


def coarse(ty):
    """A coarse name for a parameter type, to group failures."""
    if isinstance(ty, Scalar):
        return "scalar"
    if isinstance(ty, Ptr):
        return f"ptr:{ty.kind}"
    if isinstance(ty, Opt):
        return "Option<&T>-like"
    if isinstance(ty, Slice):
        return "slice"
    if isinstance(ty, CEnum):
        return "fieldless enum"
    if isinstance(ty, DataEnum):
        return "enum with fields"
    if isinstance(ty, Union):
        return "union"
    leaves = []

    def flat(t):
        if isinstance(t, Struct):
            for f in t.fields:
                flat(f)
        elif isinstance(t, Wrapper):
            flat(t.inner)
        elif isinstance(t, Array):
            for _ in range(t.n):
                flat(t.elem)
        else:
            leaves.append(coarse(t))
    flat(ty)
    has_array = '"array"' in json.dumps(ty.json())
    if len(leaves) == 1:
        pointer_like = leaves[0].startswith("ptr") or leaves[0] == "Option<&T>-like"
        return f"one-leaf aggregate around {'a pointer' if pointer_like else leaves[0]}"
    if len(leaves) == 2 and not has_array and all(l in ("scalar", "Option<&T>-like", "fieldless enum") or l.startswith("ptr")
                                                  for l in leaves):
        return "two-leaf aggregate (ScalarPair)"
    return "aggregate" + (" with arrays" if has_array else "")


def attribute_args(k, layout, names):
    """Groups the plugin's kernel arguments by the source parameter they
    come from: by argument name (rustc names split pieces p.0, p.1; the
    plugin names a merged one p), unnamed ones by their named neighbours.
    Returns {source name: [args]} or None when that is ambiguous."""
    src = [n for n, _ in k.sig_params()]
    index = {n: i for i, n in enumerate(src)}
    groups = {n: [] for n in src}
    pending, last = [], -1

    def flush(upto):
        if not pending:
            return True
        between = src[last + 1:upto]
        if len(between) != 1:
            return False
        groups[between[0]].extend(pending)
        pending.clear()
        return True
    for arg, name in zip(layout, names or [None] * len(layout)):
        base = name.split(".")[0] if name else None
        if base in index and index[base] >= last:
            if not flush(index[base]):
                return None
            groups[base].append(arg)
            last = index[base]
        else:
            pending.append(arg)
    if not flush(len(src)):
        return None
    return groups


def param_symptoms(k, res, cres):
    """[(parameter index, symptom)] for parameters whose own arguments
    differ from clang's (not merely shifted by an earlier difference)."""
    groups = attribute_args(k, res["layout"] or [], res.get("arg_names"))
    if groups is None:
        return None
    out = []
    for i, ((n, t), c) in enumerate(zip(k.sig_params(), cres["layout"])):
        ra = groups[n]
        if ra == [c]:
            continue
        if not ra:
            out.append((i, "no argument"))
        elif len(ra) > 1:
            out.append((i, f"split into {len(ra)} arguments"))
        elif ra[0][1:] == c[1:]:
            if not out:
                out.append((i, "offset"))
        elif ra[0][1] == c[1]:
            out.append((i, f"{ra[0][2]} instead of {c[2]}"))
        elif ra[0][2] == "global_buffer" and c[2] == "by_value":
            out.append((i, "left as a pointer"))
        else:
            out.append((i, f"{ra[0][1]}-byte {ra[0][2]} instead of {c[1]}-byte {c[2]}"))
    return out


def coarse_class(k, res, cres):
    sig = k.sig_params()
    label = lambda i: "out pointer" if sig[i][1] is None else coarse(sig[i][1])
    if res["status"] == "layout":
        sym = param_symptoms(k, res, cres)
        if not sym:
            return "layout: (arguments not attributable to parameters)"
        if res.get("di_fallback"):
            # the plugin could not match debug info to the IR parameters and
            # used the IR-only rules for the whole kernel: name the parameter
            # that broke the match (a split it did not recognise)
            splits = [(i, w) for i, w in sym if w.startswith("split")]
            splits.sort(key=lambda iw: not enumish(sig[iw[0]][1]))
            i, what = splits[0] if splits else sym[0]
            return f"layout: debug info not matched (kernel falls back to IR rules): {label(i)}: {what}"
        i, what = sym[0]
        return f"layout: {label(i)}: {what}"
    return exec_class(k, res)


def exec_class(k, res):
    """The parameter behind the first record field that differs."""
    er = res.get("exec_result", "")
    m = re.search(r"r(\d+) \(", er)
    if m:
        p = k.rec_param[int(m.group(1))]
        t = dict(k.sig_params()).get(p)
        return f"exec: {coarse(t) if t is not None else p}: stored value differs"
    return f"exec: {er[:80]}"
