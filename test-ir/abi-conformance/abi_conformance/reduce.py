"""Reduction: greedy minimisation of a failing kernel that keeps its
failure, and the minimised kernels stored as cases."""

import json
import os
import random

from .batch import check_one
from .cases import write_case
from .type_json import ty_from_json
from .values import rand_value


def failure_key(res):
    return (res["status"], res.get("class"), res.get("exec_class"))


def reduce_kernel(kj, setting, key, plugin, root_work, budget=120):
    """Greedy minimisation of a failing kernel (JSON) that keeps its
    failure_key at `setting`. Returns the smallest JSON found."""
    best = kj
    tried = 0
    changed = True
    while changed and tried < budget:
        changed = False
        for cand in candidates(best):
            tried += 1
            if tried > budget:
                break
            st = check_one(cand, setting, plugin, root_work)
            if st is not None and failure_key(st[1]) == key:
                best = cand
                changed = True
                break
    return best


def candidates(kj):
    """Simpler variants of a kernel, most aggressive first."""
    r = random.Random(json.dumps(kj, sort_keys=True))
    out = []
    ps = kj["params"]
    used = {p for w in kj["writes"] for p, _ in w["targets"]} | {w.get("cond") for w in kj["writes"]}
    if kj["writes"]:
        for i in range(len(kj["writes"])):
            c = json.loads(json.dumps(kj))
            del c["writes"][i]
            out.append(c)
    for i, (n, t, v) in enumerate(ps):
        if n in used:
            continue
        c = json.loads(json.dumps(kj))
        del c["params"][i]
        if c["out_pos"] > i:
            c["out_pos"] -= 1
        out.append(c)
    for i, (n, t, v) in enumerate(ps):
        if n in used:
            continue
        for nt in simpler_types(t):
            c = json.loads(json.dumps(kj))
            ty = ty_from_json(nt)
            c["params"][i] = [n, nt, rand_value(ty, r)]
            out.append(c)
    if kj["out_pos"] != len(ps):
        c = json.loads(json.dumps(kj))
        c["out_pos"] = len(ps)
        out.append(c)
    return out


def simpler_types(t):
    k = t[0]
    res = []
    if k == "scalar":
        if t[1] != "u32":
            res.append(["scalar", "u32"])
        return res
    if k in ("ptr", "opt"):
        if t[2] != ["scalar", "u32"]:
            res.append([k, t[1], ["scalar", "u32"]])
        if k == "ptr" and t[1] != "const":
            res.append(["ptr", "const", t[2]])
        return res
    if k == "slice":
        if t[1] != "ref":
            res.append(["slice", "ref", t[2]])
        return res
    if k == "struct":
        fields = t[1]
        res += fields  # one field alone
        if len(fields) > 1:
            for i in range(len(fields)):
                res.append(["struct", fields[:i] + fields[i + 1:], t[2]])
        if t[2]:
            res.append(["struct", fields, None])
        for i, f in enumerate(fields):
            for nf in simpler_types(f):
                res.append(["struct", fields[:i] + [nf] + fields[i + 1:], t[2]])
        return res
    if k == "wrapper":
        res.append(t[1])
        for ni in simpler_types(t[1]):
            res.append(["wrapper", ni, t[2], t[3]])
        return res
    if k == "array":
        res.append(t[1])
        if t[2] > 1:
            res.append(["array", t[1], t[2] - 1])
        for ne in simpler_types(t[1]):
            res.append(["array", ne, t[2]])
        return res
    if k == "union":
        res += t[1]
        if len(t[1]) > 1:
            for i in range(len(t[1])):
                res.append(["union", t[1][:i] + t[1][i + 1:]])
        return res
    if k == "enum":
        if len(t[2]) > 1:
            res.append(["enum", t[1], t[2][:1]])
        return res
    if k == "dataenum":
        fields = [f for v in t[2] for f in v]
        res += fields
        return res
    return res


def reduce_classes(a, settings, by_class, all_results, plugin, root_work):
    """Minimises up to a.reduce kernels per failure class (each class once,
    at the first setting it shows in) and stores each as a case: the
    kernel, its Rust and C, and its result at every setting."""
    os.makedirs(a.cases_dir, exist_ok=True)
    done = set()
    for s in settings:
        for cls, ks in sorted(by_class[s].items()):
            # "(also: layout differs)" classes are reduced with their kernel's
            # layout class (failure_key holds both)
            if cls in done or cls.endswith("(also: layout differs)"):
                continue
            done.add(cls)
            for ex in ks[:a.reduce]:
                key = failure_key(all_results[ex.name][s])
                small = reduce_kernel(ex.to_json(), s, key, plugin, root_work)
                write_case(a.cases_dir, small, cls, s, settings, plugin, root_work)
