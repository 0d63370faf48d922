"""Randomized differential ABI conformance test: the plugin's AMDGPU kernels
from rustc 1.95 against clang 22's for the equivalent HIP C.

For each batch of random kernels (generate.py) and each setting:

1. layout: rustc compiles the crate (with the passes run by opt-22 on its
   `.ll`, or at rustc's pipeline start, see SETTINGS); llc-22 -O0 gives
   `.amdhsa.kernels`; each kernel's explicit `.args` (offset, size,
   value_kind) must equal clang's for the HIP kernel (clang-22 -O2);
2. execution: both modules go through LLVM's amdgpu-lower-kernel-arguments
   (every argument becomes a load from the kernarg segment), are retargeted
   to x86_64 (the segment pointer becomes a global the driver sets, the
   kernels lose their parameters) and are called by driver.c with kernarg
   bytes holding the same values, each side at the offsets of its own
   metadata (junk bytes everywhere else). The record each kernel stores must
   be equal on both sides over the bytes that carry a value; clang's must
   also equal what the generator's model expects (a check of the harness itself). Kernels
   whose argument count or sizes differ from clang's are not executed.

Statuses per kernel and setting: ok; layout (args differ from clang's);
exec (layout equal, stored record differs, or the kernel faulted); crash
(rustc, opt or llc failed on the kernel: batches are bisected to find it);
harness (clang's run disagrees with the model: a bug here, not in the
plugin). For settings without debug info a layout difference is `warned`
when the plugin printed a warning naming the kernel.

Usage:
  abirun.py --kernels 1000 --seed 1 --jobs 2 --settings O3-g2,O0-g2,O3-g2-start,O3-nodebug
  abirun.py --kernels 40 --seed 7 --report out.json --work DIR --keep
  abirun.py --case-dir cases                 # the stored cases; exit 1 when one changed
  abirun.py --kernels 200 --seed 3 --reduce 2 --cases-dir DIR   # minimise failures

Exit status: 0 when every kernel is ok in every setting (warned layout
differences in no-debug settings count as ok only with --allow-warned),
1 otherwise, 2 on a harness error.
"""

import argparse
import collections
import multiprocessing
import os
import shutil
import sys
import tempfile
import time

from .batch import process_batch
from .cases import check_cases, load_cases, update_case
from .generate import fix_enum_literals, kernel_from_json, make_kernel
from .reduce import reduce_classes
from .settings import DEFAULT_SETTINGS, OPTIONS, SETTINGS
from .summary import print_causes, print_classes, summarize, write_report
from .toolchain import ROOT


def parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first kernel id")
    ap.add_argument("--batch", type=int, default=40, help="kernels per crate")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--settings", default=DEFAULT_SETTINGS, help=f"comma-separated, from {', '.join(SETTINGS)}")
    ap.add_argument("--plugin", default=os.path.join(ROOT, "target", "release", "liboffload_passes.so"))
    ap.add_argument("--work", help="work directory (default: a temporary one, removed)")
    ap.add_argument("--keep", action="store_true", help="keep batch directories")
    ap.add_argument("--report", help="write per-kernel results as JSON here")
    ap.add_argument("--ids", help="only these kernel ids (comma-separated) of the seed")
    ap.add_argument("--case-dir", help="run the stored cases in this directory; fails when a result differs "
                    "from the one a case records")
    ap.add_argument("--reduce", type=int, default=0, help="minimise up to N failures per class and setting")
    ap.add_argument("--cases-dir", help="where --reduce writes minimal cases")
    ap.add_argument("--update-cases", action="store_true", help="with --case-dir: record the current results")
    ap.add_argument("--no-fail", action="store_true", help="exit 0 unless the harness itself fails")
    ap.add_argument("--allow-warned", action="store_true",
                    help="warned layout differences in no-debug settings are not failures")
    ap.add_argument("--classes", action="store_true", help="print failure classes with an example each")
    ap.add_argument("--self-test", action="store_true",
                    help="also run kernels with two arguments' kernarg offsets exchanged: the execution check must notice")
    return ap


def select_kernels(a, settings):
    """(kernels, batches, stored cases, settings) of the run: the stored
    cases' (each in its own crate, at the settings they record), the --ids
    of the seed, or --kernels kernels from --start."""
    case_files = []
    if a.case_dir:
        case_files = load_cases(a.case_dir)
        settings = sorted({s for c in case_files for s in c["expected"]}, key=list(SETTINGS).index)
        kernels = [fix_enum_literals(kernel_from_json(c["kernel"])) for c in case_files]
        # one crate per case (with the kernels it needs next to it): kernels
        # of different cases must not meet (MergeFunctions could merge them)
        # (companions first: of identical kernels MergeFunctions keeps the first)
        batches = [[fix_enum_literals(kernel_from_json(j)) for j in c.get("companions", [])] + [k]
                   for c, k in zip(case_files, kernels)]
        return kernels, batches, case_files, settings
    if a.ids:
        kernels = [make_kernel(a.seed, int(i)) for i in a.ids.split(",")]
    else:
        kernels = [make_kernel(a.seed, a.start + i) for i in range(a.kernels)]
    batches = [kernels[i:i + a.batch] for i in range(0, len(kernels), a.batch)]
    return kernels, batches, case_files, settings


def run_batches(tasks, jobs):
    """(results by kernel name, time per side, batches with a harness error)."""
    all_results = {}
    timing = collections.Counter()
    errors = []
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            outs = list(pool.imap_unordered(process_batch, tasks))
    else:
        outs = [process_batch(t) for t in tasks]
    for o in outs:
        if "error" in o:
            errors.append(o)
            continue
        all_results.update(o["results"])
        timing.update(o["timing"])
    return all_results, timing, errors


def main():
    ap = parser()
    a = ap.parse_args()
    settings = a.settings.split(",")
    OPTIONS["self_test"] = a.self_test
    for s in settings:
        if s not in SETTINGS:
            ap.error(f"unknown setting {s}")
    if not os.path.exists(a.plugin):
        ap.error(f"plugin not built: {a.plugin}")
    plugin = os.path.abspath(a.plugin)
    root_work = a.work or tempfile.mkdtemp(prefix="abi-conformance.")
    os.makedirs(root_work, exist_ok=True)
    root_work = os.path.abspath(root_work)

    kernels, batches, case_files, settings = select_kernels(a, settings)
    tasks = [(i, [k.to_json() for k in b], settings, plugin, root_work, a.keep) for i, b in enumerate(batches)]
    t0 = time.time()
    all_results, timing, errors = run_batches(tasks, a.jobs)
    elapsed = time.time() - t0
    if errors:
        for e in errors:
            print(f"harness error in batch {e['batch']}: {e['error'][:4000]}", file=sys.stderr)
        # report the batches that ran, then fail
        kernels = [k for k in kernels if k.name in all_results]
        if not kernels:
            sys.exit(2)
    lines, by_class, failed = summarize(all_results, settings, kernels, a.allow_warned)
    for line in lines:
        print(line)
    print_causes(all_results, kernels, settings)
    print(f"time: {elapsed:.0f}s for {len(kernels)} kernels x {len(settings)} settings (jobs {a.jobs}); "
          + ", ".join(f"{k} {v:.0f}s" for k, v in timing.items()))
    if a.classes or a.reduce:
        print_classes(by_class, all_results, settings)
    if a.report:
        write_report(a.report, settings, a.seed, elapsed, kernels, all_results)
    if a.reduce:
        if not a.cases_dir:
            ap.error("--reduce needs --cases-dir")
        reduce_classes(a, settings, by_class, all_results, plugin, root_work)
    if a.case_dir:
        failed = check_cases(case_files, all_results, kernels)
        if a.update_cases:
            for c, k in zip(case_files, kernels):
                update_case(os.path.join(a.case_dir, c["file"]), all_results[k.name])
            failed = False
    if not a.work:
        shutil.rmtree(root_work, ignore_errors=True)
    sys.exit(2 if errors else 1 if failed and not a.no_fail else 0)
