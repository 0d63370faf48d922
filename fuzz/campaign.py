#!/usr/bin/env python3
"""Generator-based fuzz campaign for the offload-passes device and host passes.

Each seed gives random modules from one or more generator families
(offload_fuzz/families.py); each module runs through every selected
pipeline of its target; one module through one pipeline is a case, judged
by the oracle (offload_fuzz/oracle.py) as ok, unsupported (a clean refusal
the generator allowed) or failed. Families:

  stress     llvm-stress bodies as AMDGPU kernels (amdgpu-kernel-abi,
             byref-callee-copy, both), x86 !offload.kernel functions
             (offload-wrap-kernels) and host modules with launch sites
             (offload-host<image=...>)              (the default)
  debuginfo  kernels whose DISubprogram describes their parameters, truly
             or with lies (cycles, huge counts, bad alignments, sizes and
             offsets that disagree with the IR)
  special    naked, musttail-forwarding, optnone and other kernels a
             signature change can break
  rustc      modules rustc 1.95 emits for random #[repr(C)] kernel
             signatures, -Copt-level=0 and 3, -Cdebuginfo=2; one crate per
             seed, one module per kernel

Usage:
  fuzz/campaign.py --cases 200                # 200 seeds x every stress pipeline
  fuzz/campaign.py --cases 10000 --start 1000000 --jobs 2
  fuzz/campaign.py --pipelines offload-host --cases 2000
  fuzz/campaign.py --families debuginfo,special --cases 500 -v
  fuzz/campaign.py --families rustc --cases 20
Prints per-pipeline lines and one summary line:
  campaign: 1000 cases, 1000 ok, 0 unsupported, 0 failed (200 seeds x 5 pipelines, ...)
The exit status is 1 when a case failed; failing inputs and logs go to --keep.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from offload_fuzz import runner, tools  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=200, help="seeds per family (each runs every pipeline)")
    ap.add_argument("--start", type=int, default=1, help="first seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--families", default="stress",
                    help="comma-separated families: stress, debuginfo, special, rustc, or all")
    ap.add_argument("--size", type=int, default=0, help="llvm-stress -size (0: random 10..80 per seed)")
    ap.add_argument("--pipelines", default="", help="comma-separated pipeline names (default: all available)")
    ap.add_argument("--keep", default=os.path.join(ROOT, "fuzz", "failures"), help="where failing inputs go")
    ap.add_argument("--plugin", default=os.environ.get(
        "OFFLOAD_PASSES_PLUGIN", os.path.join(ROOT, "target", "release", "liboffload_passes.so")))
    ap.add_argument("--opt", default="opt-22")
    ap.add_argument("--timeout", type=float, default=tools.OPT_TIMEOUT,
                    help="seconds one opt run may take; longer is a hang (a failure)")
    ap.add_argument("--rustc", default="rustc", help="rustc 1.95 (family rustc)")
    ap.add_argument("--rustc-kernels", type=int, default=12, help="kernels per generated crate")
    ap.add_argument("--max-time", type=float, default=0,
                    help="stop starting seeds after this many seconds (the summary counts the seeds run)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    sys.exit(runner.campaign(ap.parse_args()))


if __name__ == "__main__":
    main()
