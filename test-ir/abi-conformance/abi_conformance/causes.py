"""Root causes: which known plugin bug (or limit) explains a failure,
by rules on the source types and the symptom."""

import re

from .aggregates import Array, Struct, Wrapper
from .classes import enumish, param_symptoms
from .settings import SETTINGS
from .types import Opt, Ptr


CAUSES = {
    "crash": "the plugin crashes (use after free in amdgpu-kernel-abi)",
    "option": "Option<&T>-like enum (a pointer) taken for an indirect aggregate",
    "onepointer": "struct around one pointer: byref at -O3, rustc's indirect pointer kept at -O0",
    "pairenum": "ScalarPair not recovered (a leaf is an enum: Option<&T>-like, or an enum with fields)",
    "greedy": "-O0: an indirect aggregate and the next parameter matched as one split pair",
    "nodebug": "no debug info: split pairs and -O0 aggregates cannot be recovered",
    "alias": "identical kernels merged into an alias by MergeFunctions (no kernel in the code object)",
    "baseline": "rustc alone (no passes)",
}


def one_leaf(t):
    """The single leaf of a struct/wrapper/array nest, else None."""
    while isinstance(t, (Struct, Wrapper, Array)):
        kids = t.fields if isinstance(t, Struct) else [t.inner] if isinstance(t, Wrapper) else [t.elem] * t.n
        if len(kids) != 1:
            return None
        t = kids[0]
    return t


def root_cause(k, res, cres, setting):
    """Which of CAUSES explains a failure, or "other: <class>". Rules on the
    source types and the symptom; they name a cause, they do not prove it."""
    st, detail = res["status"], res.get("detail") or ""
    if st == "crash":
        return "alias" if "alias" in detail else "crash" if detail.startswith(("opt", "rustc+plugin")) \
            else f"other: {detail[:60]}"
    if st == "harness":
        return "other: harness"
    opt_level, debug, mode = SETTINGS[setting]
    if mode == "none":
        return "baseline"
    if not debug:
        return "nodebug"
    sig = k.sig_params()
    if res.get("merged_across"):
        return "greedy"
    if res.get("di_fallback"):
        sym = param_symptoms(k, res, cres)
        if any(w.startswith("split") and enumish(sig[i][1]) for i, w in sym or []):
            return "pairenum"
        if sym is None and any(enumish(t) for _, t in sig):
            return "pairenum"
        if opt_level == "0":
            return "greedy"
        return f"other: {res.get('class')}"
    if st == "exec":
        p = k.rec_param[int(re.search(r"r(\d+) \(", res["exec_result"]).group(1))] \
            if re.search(r"r(\d+) \(", res.get("exec_result", "")) else None
        # a kernel that faulted stored nothing to trace: every parameter
        cands = [dict(sig).get(p)] if p else [t for _, t in sig]
    else:
        cands = [sig[i][1] for i, _ in (param_symptoms(k, res, cres) or [])]
    for t in cands:
        if t is None:
            continue
        leaf = one_leaf(t) if not isinstance(t, Opt) else t
        if isinstance(leaf, Opt):
            return "option"
        if isinstance(leaf, Ptr) and t is not leaf:
            return "onepointer"
        if enumish(t):
            return "pairenum"
    return f"other: {res.get('class')}"
