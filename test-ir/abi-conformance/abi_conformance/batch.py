"""One batch of kernels through clang and every setting (a worker of the
pool), and one kernel through one setting (the reducer's and the cases')."""

import os
import shutil
import tempfile
import time

from .generate import fix_enum_literals, kernel_from_json
from .sides import clang_side, rust_side
from .toolchain import HarnessError


def process_batch(args):
    """Worker: one batch through the clang side and every setting."""
    batch_id, kernel_jsons, settings, plugin, root_work, keep = args
    kernels = [kernel_from_json(j) for j in kernel_jsons]
    work = os.path.join(root_work, f"batch{batch_id}")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    try:
        clang = clang_side(kernels, os.path.join(work, "clang"), root_work)
    except HarnessError as e:
        return {"error": str(e), "batch": batch_id}
    out = {}
    timing = {"clang": time.time() - t0}
    for s in settings:
        t1 = time.time()
        try:
            res = rust_side(kernels, s, os.path.join(work, s), plugin, clang, root_work)
        except HarnessError as e:
            return {"error": str(e), "batch": batch_id}
        timing[s] = time.time() - t1
        for name, r in res.items():
            r.pop("exec", None)
            out.setdefault(name, {})[s] = r
    for k in kernels:
        out[k.name]["_clang_layout"] = clang[k.name]["layout"]
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {"batch": batch_id, "results": out, "timing": timing}


def check_one(kj, setting, plugin, root_work):
    """(status, result) of one kernel at one setting, or None when it cannot
    be built (a candidate the reducer should skip)."""
    try:
        k = kernel_from_json(kj)
        k = fix_enum_literals(k)
    except Exception:
        return None
    work = tempfile.mkdtemp(dir=root_work, prefix="red")
    try:
        clang = clang_side([k], os.path.join(work, "clang"), root_work)
        res = rust_side([k], setting, os.path.join(work, "rust"), plugin, clang, root_work)[k.name]
        return res["status"], res
    except HarnessError:
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)
