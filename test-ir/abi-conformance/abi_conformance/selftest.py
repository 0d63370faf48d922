"""The self-test: runs kernels again with a wrong kernarg layout, which the
execution check must notice."""

from .classify import masked_equal
from .execution import KERNARG_BLOB, execute
from .generate import fix_enum_literals, kernel_from_json
from .types import Ptr, Scalar


def plain(t):
    """Every bit pattern of the type is a valid value, read as an integer."""
    return (isinstance(t, Scalar) and t.kind in ("uint", "sint", "float")) or \
        (isinstance(t, Ptr) and t.kind in ("const", "mut"))


def mutation(k):
    """A wrong way to read the kernel's arguments, for the self-test:
    ("swap", i, j, kernel with the two values exchanged) for two parameters
    of the same size whose exchange changes the record, or ("move", i) to
    read parameter i from junk bytes; None if neither applies."""
    sig = k.sig_params()
    exp, mask = k.expected_record()
    idx = {n: i for i, (n, _, _) in enumerate(k.params)}
    for a in range(len(sig)):
        for b in range(a + 1, len(sig)):
            (na, ta), (nb, tb) = sig[a], sig[b]
            if ta is None or tb is None:
                continue
            if not (ta.json() == tb.json() or (plain(ta) and plain(tb) and ta.size == tb.size)):
                continue
            kj = k.to_json()
            pa, pb = kj["params"][idx[na]], kj["params"][idx[nb]]
            if pa[2] == pb[2]:
                continue
            pa[2], pb[2] = pb[2], pa[2]
            swapped = fix_enum_literals(kernel_from_json(kj))
            if not masked_equal(swapped.expected_record()[0], exp, mask):
                return ("swap", a, b, swapped)
    for a, (n, t) in enumerate(sig):
        if t is not None and plain(t) and any(k.rec_param[i] == n and v is not None for i, (_, v) in enumerate(k.rec)):
            if not any(p == n for w in k.writes for p, _ in w["targets"]):
                return ("move", a)
    return None


def self_test(runnable, layouts, ex, obj, work, root_work, results):
    """Checks that the execution check notices a kernel that reads the wrong
    bytes: runs kernels again with a wrong kernarg layout, the offsets of
    two parameters of the same size exchanged (the record must then be the
    one for the exchanged values) or one parameter read from junk bytes
    (the record must differ)."""
    muts = []
    for k in runnable:
        if ex[k.name][0] != 0:
            continue
        m = mutation(k)
        if m:
            muts.append((k, m))
    if not muts:
        return
    alt = {}
    for k, m in muts:
        lay = list(layouts[k.name])
        if m[0] == "swap":
            a, b = m[1], m[2]
            lay[a], lay[b] = (lay[b][0],) + lay[a][1:], (lay[a][0],) + lay[b][1:]
        else:
            lay[m[1]] = (KERNARG_BLOB - 64,) + lay[m[1]][1:]
        alt[k.name] = lay
    ex2 = execute([k for k, _ in muts], alt, obj, work, "selftest", root_work)
    for k, m in muts:
        exp, mask = k.expected_record()
        st, rec = ex2[k.name]
        if st != 0:
            results[k.name]["self_test"] = f"detected ({m[0]}, status {st})"
        elif masked_equal(rec, exp, mask):
            results[k.name]["self_test"] = f"missed ({m[0]})"
        elif m[0] == "swap" and not masked_equal(rec, m[3].expected_record()[0], mask):
            results[k.name]["self_test"] = "detected (swap, record not the exchanged one)"
        else:
            results[k.name]["self_test"] = f"detected ({m[0]})"
