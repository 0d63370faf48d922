"""Stored cases (cases/*.json): a kernel, its Rust and C, and its recorded
result per setting; written by the reducer, checked by --case-dir."""

import json
import os
import re

from .batch import check_one
from .c_source import kernel_c
from .generate import fix_enum_literals, kernel_from_json
from .rust_source import kernel_rust


def write_case(cases_dir, kj, cls, found_at, settings, plugin, root_work, name=None):
    k = fix_enum_literals(kernel_from_json(kj))
    expected = {}
    for s in settings:
        r = check_one(kj, s, plugin, root_work)
        if r:
            expected[s] = case_expectation(r[1])
    slug = name or re.sub(r"[^a-z0-9]+", "-", cls.lower()).strip("-")[:70]
    path = os.path.join(cases_dir, f"{slug}.json")
    n = 2
    while name is None and os.path.exists(path):
        path = os.path.join(cases_dir, f"{slug}-{n}.json")
        n += 1
    with open(path, "w") as f:
        json.dump({"class": cls, "found_at": found_at, "signature": k.describe(), "rust": kernel_rust(k),
                   "c": kernel_c(k), "expected": expected, "kernel": kj}, f, indent=1)
        f.write("\n")
    print(f"case {os.path.basename(path)}: {k.describe()}")
    for s, e in expected.items():
        print(f"   {s}: {e['status']}  {e.get('detail') or ''}"[:300])


def load_cases(case_dir):
    """Stored cases, each kernel renumbered so that all fit in one crate."""
    files = sorted(f for f in os.listdir(case_dir) if f.endswith(".json"))
    cases = []
    for i, f in enumerate(files):
        with open(os.path.join(case_dir, f)) as fh:
            c = json.load(fh)
        # companions get the lower numbers: of identical kernels
        # MergeFunctions turned the later-named one into the alias so far
        c["kernel"]["id"] = 9000 + 10 * i + 9
        for j, comp in enumerate(c.get("companions", [])):
            comp["id"] = 9000 + 10 * i + j
        c["file"] = f
        cases.append(c)
    return cases


def case_expectation(res):
    return {"status": res["status"], "class": res.get("class"), "exec_class": res.get("exec_class"),
            "detail": res.get("detail"), "exec": res.get("exec_result")}


def update_case(path, results):
    with open(path) as f:
        c = json.load(f)
    for s in c["expected"]:
        if s in results:
            c["expected"][s] = case_expectation(results[s])
    with open(path, "w") as f:
        json.dump(c, f, indent=1)
        f.write("\n")


def check_cases(cases, all_results, kernels):
    """Compares each case's results with the ones it records; a case whose
    result changed (fixed or broken differently) fails until it is updated
    (rerun with --update-cases)."""
    changed = False
    for c, k in zip(cases, kernels):
        for s, e in c["expected"].items():
            r = all_results[k.name].get(s)
            if r is None:
                continue
            now = (r["status"], r.get("class"), r.get("exec_class"))
            was = (e["status"], e.get("class"), e.get("exec_class"))
            mark = "same" if now == was else "CHANGED"
            changed |= now != was
            print(f"case {c['file']} [{s}]: {mark}: {now[0]}" + (f" ({now[1]})" if now[1] else "")
                  + (f" [{now[2]}]" if now[2] else "") + ("" if now == was else f", recorded {was}"))
    return changed
