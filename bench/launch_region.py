#!/usr/bin/env python3
"""Launch cost of the `offload` crate's typed launches against clang-22's
OpenMP offload, and two streams against back to back. Run by bench.py
(`--only launch-region`) or standalone:

    python3 bench/launch_region.py [--quick] [--workdir DIR] [--json FILE]

For N = 1 and 1024 floats, one launch per loop iteration of a kernel that
adds 1 to x[0], on libomptarget's host (x86_64) plugin with
OMP_TARGET_OFFLOAD=MANDATORY:

  clang target       C, `#pragma omp target map(tofrom: b[0:N])` in the loop
  clang region       the same inside `#pragma omp target data map(tofrom: b[0:N])`
  rust plain         bench/launch-region: `bump(&Launch::new(), &mut x)` on a
                     host Vec (each launch maps it)
  rust region        the same on `offload::map_mut(&mut x[..])`: the launch
                     passes the region's device address (nothing mapped)
  rust buffer        the same on a `DeviceBuffer<f32>`

And a kernel without barriers over the whole array (N = 1024): clang's
`target data` + `target` `for` loop against `add_one(&Launch::grid(1, 1),
&mut region)`, a grid-stride loop (goal: no more instructions, <= 1.0x).

Ir per launch under valgrind --tool=callgrind: (Ir(large) - Ir(small)) /
(large - small) launches, so start-up, image loading and exit cancel out.
Ratios: rust region / clang region (goal <= 0.7x) and rust plain / clang
target (goal <= 0.9x). Then `launch-region overlap`: two independent busy
kernels back to back and on two streams (wall times; printed, not judged).
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import clang_peer as cp  # noqa: E402

C_SOURCE = """#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1;
  static float b[%(words)d];
%(region)s  for (long it = 0; it < n; ++it) {
#pragma omp target map(tofrom: b[0:%(words)d])
    b[0] += 1.0f;
  }
  printf("b[0] = %%g\\n", b[0]);
  return b[0] != (float)n;
}
"""

SIZES = (1, 1024)

# A kernel without barriers over the whole array, on Launch::grid(1, 1) in
# a mapped region, against clang's `target data` + `target` `for` loop.
C_SOURCE_ALL = """#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1;
  static float b[%(words)d];
#pragma omp target data map(tofrom: b[0:%(words)d])
  for (long it = 0; it < n; ++it) {
#pragma omp target map(tofrom: b[0:%(words)d])
    for (int i = 0; i < %(words)d; ++i)
      b[i] += 1.0f;
  }
  printf("b[0] = %%g\\n", b[0]);
  return b[0] != (float)n;
}
"""
ALL_N = 1024
ALL_VARIANTS = ("clang region, whole array", "rust region, whole array")
VARIANTS = ("clang target", "clang region", "rust plain", "rust region", "rust buffer")


def build(work, images):
    """The clang programs per size and the Rust program; {(variant, n): argv prefix}."""
    progs = {}
    for n in SIZES:
        for variant, region in (("clang target", False), ("clang region", True)):
            src = os.path.join(work, f"{variant.replace(' ', '-')}-{n}.c")
            exe = src[:-2]
            with open(src, "w") as f:
                pragma = f"#pragma omp target data map(tofrom: b[0:{n}])\n" if region else ""
                f.write(C_SOURCE % {"words": n, "region": pragma})
            cp.sh(["clang-22", "-O2", *cp.OMP, src, "-o", exe, *cp.LINK])
            images.add_from_program(exe, work)
            progs[(variant, n)] = [exe]
    src = os.path.join(work, f"clang-region-all-{ALL_N}.c")
    with open(src, "w") as f:
        f.write(C_SOURCE_ALL % {"words": ALL_N})
    cp.sh(["clang-22", "-O2", *cp.OMP, src, "-o", src[:-2], *cp.LINK])
    images.add_from_program(src[:-2], work)
    progs[("clang region, whole array", ALL_N)] = [src[:-2]]
    target = os.path.join(work, "target")
    env = dict(os.environ, OFFLOAD_PASSES_PLUGIN=cp.PLUGIN, CARGO_TARGET_DIR=target)
    env.pop("RUSTC_BOOTSTRAP", None)
    cp.sh(["cargo", "build", "--release", "--locked", "--quiet"],
          cwd=os.path.join(HERE, "launch-region"), env=env)
    exe = os.path.join(target, "release", "launch-region")
    for image in glob.glob(os.path.join(target, "release", "build", "launch-region-*", "out", "*.so")):
        images.add_file(image)
    for n in SIZES:
        for mode in ("plain", "region", "buffer"):
            progs[(f"rust {mode}", n)] = [exe, mode, str(n)]
    progs[("rust region, whole array", ALL_N)] = [exe, "region-all", str(ALL_N)]
    return progs, exe


def callgrind(argv, launches, images):
    before = images.snapshot()
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv,
                        str(launches)], capture_output=True, text=True, env=cp.ENV)
    images.clean(before)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"callgrind {' '.join(argv)} {launches}: exit {r.returncode}\n{r.stderr[-2000:]}")
    return int(m.group(1))


def overlap(exe, images, rounds):
    before = images.snapshot()
    r = subprocess.run([exe, "overlap", str(rounds)], capture_output=True, text=True, env=cp.ENV)
    images.clean(before)
    m = re.search(r"back to back ([0-9.]+) s, two streams ([0-9.]+) s", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit(f"{exe} overlap: exit {r.returncode}\n{r.stdout}{r.stderr}")
    return float(m.group(1)), float(m.group(2))


def measure(quick=False, workdir=None, small=1000, large=11000):
    """{n: {variant: Ir per launch}}, and the overlap (back to back, two
    streams) wall seconds."""
    if quick:
        large = 3000
    if not shutil.which("valgrind"):
        sys.exit("valgrind not found (apt-get install valgrind)")
    work = workdir or tempfile.mkdtemp(prefix="launch-region-bench.")
    os.makedirs(work, exist_ok=True)
    images = cp.Images()
    try:
        cp.log(f"[launch-region] building in {work}")
        progs, exe = build(work, images)
        results = {}
        for n in SIZES:
            cp.log(f"[launch-region] N = {n}: callgrind, {small} and {large} launches")
            results[n] = {v: (callgrind(progs[(v, n)], large, images)
                              - callgrind(progs[(v, n)], small, images)) / (large - small)
                          for v in VARIANTS}
        cp.log(f"[launch-region] whole array of {ALL_N}: callgrind, {small} and {large} launches")
        results["whole"] = {v: (callgrind(progs[(v, ALL_N)], large, images)
                                - callgrind(progs[(v, ALL_N)], small, images)) / (large - small)
                            for v in ALL_VARIANTS}
        times = overlap(exe, images, 10_000_000 if quick else 50_000_000)
    finally:
        if not workdir:
            shutil.rmtree(work, ignore_errors=True)
    return results, times


def rows(results):
    """Per N: the Ir of each variant and the two ratios."""
    out = []
    for n, ir in results.items():
        if n == "whole":
            continue
        region = ir["rust region"] / ir["clang region"]
        plain = ir["rust plain"] / ir["clang target"]
        out.append({"n": n, "ir": ir, "region_ratio": region, "plain_ratio": plain,
                    "met": region <= 0.7 and plain <= 0.9})
    return out


def table(results, times):
    lines = ["| N floats | " + " | ".join(VARIANTS) + " | region vs clang (goal ≤ 0.7×) "
             "| plain vs clang target (goal ≤ 0.9×) |", "|---" * (len(VARIANTS) + 3) + "|"]
    for r in rows(results):
        irs = " | ".join(f"{r['ir'][v] / 1000:.1f}k" for v in VARIANTS)
        lines.append(f"| {r['n']} | {irs} | {r['region_ratio']:.2f}× | {r['plain_ratio']:.2f}× |")
    whole = results.get("whole")
    if whole:
        clang, rust = (whole[v] for v in ALL_VARIANTS)
        lines.append(f"\nwhole array of {ALL_N} floats on Launch::grid(1, 1) in a region: clang "
                     f"{clang / 1000:.1f}k, rust {rust / 1000:.1f}k per launch, "
                     f"{rust / clang:.2f}× (goal ≤ 1.0×)")
    serial, streams = times
    lines.append(f"\ntwo busy kernels: back to back {serial:.3f} s, on two streams {streams:.3f} s "
                 f"({serial / streams:.2f}× faster)")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer launches, shorter kernels")
    ap.add_argument("--workdir")
    ap.add_argument("--json")
    args = ap.parse_args()
    results, times = measure(args.quick, args.workdir)
    print(table(results, times))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"ir_per_launch": results, "overlap_s": times}, f, indent=1)


if __name__ == "__main__":
    main()
