"""What a run prints: per-setting counts, failures by cause and by class,
the timing line, and the per-kernel JSON report."""

import collections
import json

from .causes import CAUSES
from .settings import SETTINGS


def summarize(all_results, settings, kernels, allow_warned):
    lines = []
    failed = False
    by_class = collections.defaultdict(lambda: collections.defaultdict(list))
    for s in settings:
        counts = collections.Counter()
        exec_counts = collections.Counter()
        for k in kernels:
            r = all_results[k.name][s]
            st = r["status"]
            if st == "layout" and not SETTINGS[s][1]:
                st = "layout (warned)" if r.get("warnings") else "layout (silent)"
            counts[st] += 1
            if st != "crash" and r.get("exec_result") is not None:
                er = r["exec_result"]
                exec_counts["equal" if er == "equal" else "not run" if er == "not run" else "differs"] += 1
            if r["status"] not in ("ok",):
                by_class[s][r.get("class", r["status"] + ": " + r.get("detail", "")[:80])].append(k)
            if r.get("exec_class") and r["status"] != "exec":
                by_class[s][r["exec_class"] + " (also: layout differs)"].append(k)
        n = len(kernels)
        layout_ok = sum(1 for k in kernels if all_results[k.name][s].get("layout") is not None and
                        all_results[k.name][s].get("layout") == all_results[k.name]["_clang_layout"])
        ran = exec_counts["equal"] + exec_counts["differs"]
        lines.append(f"{s}: {n} kernels, layout {layout_ok}/{n} match ({100 * layout_ok / n:.1f}%), "
                     f"executed {ran}: {exec_counts['equal']} equal, {exec_counts['differs']} differ; "
                     + ", ".join(f"{c} {v}" for c, v in sorted(counts.items())))
        st = collections.Counter(all_results[k.name][s].get("self_test") for k in kernels)
        st.pop(None, None)
        if st:
            lines.append(f"{s}: self-test: {sum(st.values())} kernels read with a wrong layout: "
                         + ", ".join(f"{c} {v}" for c, v in sorted(st.items())))
        bad = sum(v for c, v in counts.items() if c != "ok" and not (allow_warned and c == "layout (warned)"))
        failed |= bad > 0
    return lines, by_class, failed


def print_causes(all_results, kernels, settings):
    causes = collections.defaultdict(collections.Counter)
    for k in kernels:
        for s in settings:
            c = all_results[k.name][s].get("cause")
            if c:
                causes[c][s] += 1
    if causes:
        print("failures by cause (kernels per setting):")
        for c, per in sorted(causes.items(), key=lambda x: -sum(x[1].values())):
            print(f"  {CAUSES.get(c, c)}: " + ", ".join(f"{s} {per[s]}" for s in settings if per[s]))


def print_classes(by_class, all_results, settings):
    """Each failure class with its count and one example kernel."""
    for s in settings:
        for cls, ks in sorted(by_class[s].items(), key=lambda x: -len(x[1])):
            ex = ks[0]
            r = all_results[ex.name][s]
            print(f"  [{s}] {len(ks):4d} x {cls}")
            print(f"         e.g. {ex.describe()}")
            print(f"         {r.get('detail', '')[:300]}")


def write_report(path, settings, seed, elapsed, kernels, all_results):
    with open(path, "w") as f:
        json.dump({"settings": settings, "seed": seed, "elapsed": elapsed,
                   "kernels": {k.name: {"kernel": k.to_json(), "describe": k.describe(),
                                        "results": all_results[k.name]} for k in kernels}},
                  f, indent=1, default=str)
