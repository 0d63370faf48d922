"""A kernel's status at one setting (ok, layout, exec, harness) from its
layout and record against clang's and the model's."""

from .causes import root_cause
from .classes import coarse_class, exec_class


def classify(k, res, cres, setting):
    if res.get("status") == "crash":
        res["cause"] = root_cause(k, res, cres, setting)
        return
    exp, mask = k.expected_record()
    if cres["status"] != 0 or not masked_equal(cres["rec"], exp, mask):
        res["status"] = "harness"
        res["detail"] = f"clang's kernel status {cres['status']}, record differs from the model: " + \
            rec_diff(k, exp, cres["rec"], mask, "expected", "clang")
        return
    layout_ok = res["layout"] == cres["layout"]
    ex = res.get("exec")
    if ex is None:
        res["exec_result"] = "not run"
    elif ex[0] == "error":
        res["exec_result"] = f"error: {ex[1]}"
    elif ex[0] != 0:
        res["exec_result"] = f"status {ex[0]}" + (f" (signal {ex[0] - 128})" if 128 < ex[0] < 256 else "")
    elif masked_equal(ex[1], cres["rec"], mask):
        res["exec_result"] = "equal"
    else:
        res["exec_result"] = "differs: " + rec_diff(k, cres["rec"], ex[1], mask, "clang", "rust")
    if not layout_ok:
        res["status"] = "layout"
        res["detail"] = layout_diff(k, res["layout"], cres["layout"])
    elif res["exec_result"] != "equal":
        res["status"] = "exec"
        res["detail"] = res["exec_result"]
    else:
        res["status"] = "ok"
    if res["status"] != "ok":
        res["class"] = coarse_class(k, res, cres)
        res["cause"] = root_cause(k, res, cres, setting)
    if res["exec_result"].startswith(("differs", "status")):
        res["exec_class"] = exec_class(k, res)


def masked_equal(a, b, mask):
    return len(a) == len(b) == len(mask) and all(not m or x == y for x, y, m in zip(a, b, mask))


def rec_diff(k, a, b, mask, an, bn):
    out = []
    for i, ((t, _), o) in enumerate(zip(k.rec, k.rec_ty.offsets)):
        sl = slice(o, o + t.size)
        m = mask[sl]
        if any(m[j] and a[o + j] != b[o + j] for j in range(t.size)):
            out.append(f"r{i} ({k.rec_src[i]}): {an} {a[sl][::-1].hex()} {bn} {b[sl][::-1].hex()}")
    return "; ".join(out[:4]) + ("; ..." if len(out) > 4 else "")


def layout_diff(k, rust, clang):
    fmt = lambda lay: " ".join(f"{o}:{s}:{v}" for o, s, v in lay) if lay else "-"
    return f"rust [{fmt(rust)}] clang [{fmt(clang)}]"
