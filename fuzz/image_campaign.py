#!/usr/bin/env python3
"""Image fuzz campaign: mutated device images given to offload-host.

Families (offload_fuzz/images.py): elf-x86, elf-amdgpu, cubin, bitcode,
offload-binary, manifest. Each case is one mutant of the family's sound
image (seeded: family and case number give the same bytes every time), run
through `opt-22 -passes=offload-host<image=MUTANT>` under `ulimit -v` and a
timeout; it passes when opt exits 0, or 1 with a clean
`error: offload-host: ...`, and fails on a signal, a crash report, any other
exit or a timeout.

Usage:
  fuzz/image_campaign.py --cases 10000 --jobs 2
  fuzz/image_campaign.py --families bitcode,manifest --cases 500 --start 100000
Prints one line per family and one summary line:
  images/bitcode: 500 cases, 3 ok, 497 refused, 0 failed
  image campaign: 1000 cases, ..., 0 failed (500 cases x 2 families)
The exit status is 1 when a case failed; the mutant and its log go to --keep.
"""

import argparse
import collections
import concurrent.futures
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from offload_fuzz import images  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=200, help="mutants per family")
    ap.add_argument("--start", type=int, default=1, help="first case number")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--families", default="all", help="comma-separated families, or all")
    ap.add_argument("--keep", default=os.path.join(ROOT, "fuzz", "failures"), help="where failing mutants go")
    ap.add_argument("--plugin", default=os.environ.get(
        "OFFLOAD_PASSES_PLUGIN", os.path.join(ROOT, "target", "release", "liboffload_passes.so")))
    ap.add_argument("--opt", default="opt-22")
    ap.add_argument("--timeout", type=float, default=20, help="seconds one opt run may take")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = ap.parse_args()
    families = images.FAMILIES if args.families == "all" else args.families.split(",")
    unknown = [f for f in families if f not in images.FAMILIES]
    if unknown:
        ap.error(f"unknown families {unknown}; known: {', '.join(images.FAMILIES)}")
    ctx = images.Context(args)
    counts = collections.defaultdict(collections.Counter)
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            cases = [(f, s) for s in range(args.start, args.start + args.cases) for f in families]
            for family, seed, outcome, failure in pool.map(lambda c: images.run_case(ctx, *c), cases):
                counts[family][outcome] += 1
                if failure and args.verbose:
                    print(f"FAILED {family} case {seed}: {failure}", flush=True)
    finally:
        shutil.rmtree(ctx.work, ignore_errors=True)
    total = collections.Counter()
    for family in families:
        c = counts[family]
        total.update(c)
        print(f"images/{family}: {sum(c.values())} cases, {c['ok']} ok, {c['refused']} refused, {c['failed']} failed")
    print(f"image campaign: {sum(total.values())} cases, {total['ok']} ok, {total['refused']} refused, "
          f"{total['failed']} failed ({args.cases} cases x {len(families)} families)")
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
