#!/usr/bin/env python3
"""Launch cost of offload-host's lowering against clang-22's OpenMP offload
(issue 11, part 5). Standalone for now; not run by bench.py.

    python3 bench/clang_peer.py [--quick] [--reps N] [--workdir DIR] [--json FILE]

Two loops, each built four ways and run on libomptarget's host (x86_64) plugin
with OMP_TARGET_OFFLOAD=MANDATORY:

  tiny   one launch per iteration of a kernel that adds 1 to one i32,
         one 4-byte tofrom map (200,000 launches; --quick 20,000)
  buf4k  the same on a 4096-byte buffer (1024 i32s), one 4 KB tofrom map
         (100,000 launches; --quick 10,000)
  tiny-region  tiny inside one data region around the loop
         (`#pragma omp target data map(tofrom: ...)`; __offload_data_begin/end
         for ours): the data is present, launches copy nothing

  clang    C with `#pragma omp target map(tofrom: x[0:N])`, built by
           clang-22 -O2 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu
  ours     today's flow: the natural kernel through offload-wrap-kernels
           and -O2 (image: llc-22 + ld.lld-22 -shared) and a host module of plain
           calls through `offload-host<image=...>`, then clang-22 -O2
  split    hand-written host IR (clang-peer/hostgen.py) doing what
           offload-host does: begin mapper + __tgt_target_kernel + end mapper
  onecall  hand-written host IR doing what clang does: one
           __tgt_target_kernel whose __tgt_kernel_arguments carry the map
           types (TARGET_PARAM|TO|FROM), no separate mapper calls

Measured per program and loop:
  CPU      user+system seconds of the whole run (rusage of the child), the
           minimum over --reps runs, the variants interleaved; ratio to clang
  Ir       instructions executed per launch under valgrind --tool=callgrind:
           (Ir(20,000 launches) - Ir(1,000 launches)) / 19,000 (start-up,
           image loading and exit cancel out); ratio to clang
  xfers    a LIBOMPTARGET_INFO=-1 run of 10 launches: host to device and
           device to host copies, kernel launches, map entries created

The host plugin copies every image it loads to /tmp/tmpfile_XXXXXX and never
deletes it; after each run this script deletes the copies that are new and
hold one of this run's images, nothing else.
"""

import argparse
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HOSTGEN = os.path.join(HERE, "clang-peer", "hostgen.py")
PLUGIN = os.environ.get(
    "OFFLOAD_PASSES_PLUGIN", os.path.join(ROOT, "target", "release", "liboffload_passes.so")
)
LIBDIR = subprocess.run(["llvm-config-22", "--libdir"], capture_output=True, text=True,
                        check=True).stdout.strip()
OMP = ["-fopenmp", "-fopenmp-targets=x86_64-unknown-linux-gnu"]
LINK = [f"-L{LIBDIR}", f"-Wl,-rpath,{LIBDIR}"]
ENV = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY")
ENV.pop("LIBOMPTARGET_INFO", None)

# name: (bytes mapped, inside a data region)
LOOPS = {"tiny": (4, False), "buf4k": (4096, False), "tiny-region": (4, True)}
VARIANTS = ["clang", "ours", "split", "onecall"]

C_SOURCE = """#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1;
  static int b[%(words)d];
%(region)s  for (long it = 0; it < n; ++it) {
#pragma omp target map(tofrom: b[0:%(words)d])
    for (int i = 0; i < %(words)d; ++i) b[i] += 1;
  }
  printf("sum = %%d\\n", b[0]);
  return b[0] != n;
}
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r


class Images:
    """The device images of this run, to delete the host plugin's copies."""

    def __init__(self):
        self.contents = set()

    def add_file(self, path):
        with open(path, "rb") as f:
            self.contents.add(f.read())

    def add_from_program(self, exe, work):
        """The inner ELF of each OffloadBinary in a clang program's
        .llvm.offloading section."""
        dump = os.path.join(work, "section.bin")
        r = subprocess.run(["llvm-objcopy-22", f"--dump-section=.llvm.offloading={dump}", exe,
                            os.path.join(work, "scratch.o")], capture_output=True)
        if r.returncode != 0:
            return
        data = open(dump, "rb").read()
        off = 0
        while off + 32 <= len(data) and data[off:off + 4] == b"\x10\xff\x10\xad":
            size, entry_off = struct.unpack_from("<QQ", data, off + 8)
            image_off, image_size = struct.unpack_from("<QQ", data, off + entry_off + 24)
            self.contents.add(data[off + image_off:off + image_off + image_size])
            off += size

    def snapshot(self):
        return set(glob.glob("/tmp/tmpfile_*"))

    def clean(self, before):
        for path in self.snapshot() - before:
            try:
                with open(path, "rb") as f:
                    if f.read() in self.contents:
                        os.remove(path)
            except OSError:
                pass


def build(work, images):
    """Builds every variant of every loop; returns {(loop, variant): exe}."""
    exes = {}
    gen = [sys.executable, HOSTGEN]
    for loop, (size, region) in LOOPS.items():
        d = os.path.join(work, loop)
        os.makedirs(d, exist_ok=True)
        p = lambda name: os.path.join(d, name)  # noqa: E731
        # clang
        with open(p("clang.c"), "w") as f:
            pragma = f"#pragma omp target data map(tofrom: b[0:{size // 4}])\n" if region else ""
            f.write(C_SOURCE % {"words": size // 4, "region": pragma})
        sh(["clang-22", "-O2", *OMP, p("clang.c"), "-o", p("clang"), *LINK])
        images.add_from_program(p("clang"), d)
        # our image
        kernel = f"cpeer_{loop.replace('-', '_')}:{size}"
        rflag = ["--region"] if region else []
        sh(gen + ["device", "--kernel", kernel, "-o", p("dev.ll")])
        # -O2 after wrapping, as clang's device compile optimises its kernel:
        # the kernel bodies then match (the 4 KB loop is vectorised in both).
        sh(["opt-22", f"-load-pass-plugin={PLUGIN}", "-passes=offload-wrap-kernels,default<O2>",
            p("dev.ll"), "-o", p("dev.bc")])
        sh(["llc-22", "-O2", "-relocation-model=pic", "-filetype=obj", p("dev.bc"), "-o", p("dev.o")])
        sh(["ld.lld-22", "-shared", p("dev.o"), "-o", p("dev.so")])
        images.add_file(p("dev.so"))
        # ours: today's offload-host
        sh(gen + ["natural", "--kernel", kernel, "--main", *rflag, "-o", p("natural.ll")])
        sh(["opt-22", f"-load-pass-plugin={PLUGIN}", f"-passes=offload-host<image={p('dev.so')}>",
            p("natural.ll"), "-o", p("ours.bc")])
        sh(["clang-22", "-O2", p("ours.bc"), "-o", p("ours"), *LINK, "-lomptarget"])
        # hand-written split and one-call
        for launch in ("split", "onecall"):
            sh(gen + ["host", "--image", p("dev.so"), "--kernel", kernel, "--launch", launch,
                      "--embed", "ob-private", "--main", *rflag, "-o", p(f"{launch}.ll")])
            sh(["clang-22", "-Wno-override-module", "-O2", p(f"{launch}.ll"), "-o", p(launch),
                *LINK, "-lomptarget"])
        for v in VARIANTS:
            exes[(loop, v)] = p(v)
    return exes


def run_cpu(exe, n, images, env=ENV):
    before = images.snapshot()
    proc = subprocess.Popen([exe, str(n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = proc.communicate()
    # communicate() reaped the child; its rusage is in RUSAGE_CHILDREN deltas.
    images.clean(before)
    if proc.returncode != 0:
        sys.exit(f"{exe} {n}: exit {proc.returncode}\n{out.decode()}{err.decode()}")
    return out.decode() + err.decode()


def cpu_seconds(exe, n, images):
    import resource
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_cpu(exe, n, images)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def callgrind_ir(exe, n, images):
    before = images.snapshot()
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", exe,
                        str(n)], capture_output=True, text=True, env=ENV)
    images.clean(before)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"callgrind {exe} {n}: exit {r.returncode}\n{r.stderr[-2000:]}")
    return int(m.group(1))


def transfers(exe, images, n=10):
    env = dict(ENV, LIBOMPTARGET_INFO="-1")
    text = run_cpu(exe, n, images, env)
    count = lambda pat: len(re.findall(pat, text))  # noqa: E731
    return {
        "h2d": count(r"Copying data from host to device"),
        "d2h": count(r"Copying data from device to host"),
        "launches": count(r"Launching kernel"),
        "new_maps": count(r"Creating new map entry"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="10x fewer launches, 3 reps")
    ap.add_argument("--reps", type=int)
    ap.add_argument("--workdir")
    ap.add_argument("--json")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--cg-small", type=int, default=1000)
    ap.add_argument("--cg-large", type=int, default=20000)
    args = ap.parse_args()
    reps = args.reps or (3 if args.quick else 5)
    launches = {"tiny": 200_000, "buf4k": 100_000, "tiny-region": 200_000}
    if args.quick:
        launches = {k: v // 10 for k, v in launches.items()}
    if not os.path.exists(PLUGIN):
        sys.exit(f"no plugin at {PLUGIN}: run cargo build --release first")
    callgrind = not args.no_callgrind and shutil.which("valgrind")
    if not callgrind and not args.no_callgrind:
        log("valgrind not found: no instruction counts (apt-get install valgrind)")

    work = args.workdir or tempfile.mkdtemp(prefix="clang-peer-bench.")
    os.makedirs(work, exist_ok=True)
    images = Images()
    try:
        log(f"building in {work}")
        exes = build(work, images)
        results = {}
        for loop in LOOPS:
            res = {v: {} for v in VARIANTS}
            for v in VARIANTS:
                res[v]["xfers"] = transfers(exes[(loop, v)], images)
            log(f"{loop}: CPU time, {launches[loop]} launches, {reps} reps")
            times = {v: [] for v in VARIANTS}
            for _ in range(reps):
                for v in VARIANTS:
                    times[v].append(cpu_seconds(exes[(loop, v)], launches[loop], images))
            for v in VARIANTS:
                res[v]["cpu_s"] = min(times[v])
                res[v]["cpu_all"] = times[v]
            if callgrind:
                log(f"{loop}: callgrind, {args.cg_small} and {args.cg_large} launches")
                for v in VARIANTS:
                    small = callgrind_ir(exes[(loop, v)], args.cg_small, images)
                    large = callgrind_ir(exes[(loop, v)], args.cg_large, images)
                    res[v]["ir_per_launch"] = (large - small) / (args.cg_large - args.cg_small)
            results[loop] = res
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)

    print("| loop | variant | CPU s (min) | CPU vs clang | Ir/launch | Ir vs clang "
          "| 10 launches: H→D, D→H, kernels, new maps |")
    print("|---|---|---|---|---|---|---|")
    for loop, res in results.items():
        c = res["clang"]
        for v in VARIANTS:
            r = res[v]
            ir = r.get("ir_per_launch")
            irs = f"{ir / 1000:.1f}k" if ir is not None else "-"
            irr = f"{ir / c['ir_per_launch']:.2f}×" if ir is not None else "-"
            x = r["xfers"]
            print(f"| {loop} ({launches[loop]:,}) | {v} | {r['cpu_s']:.3f} | "
                  f"{r['cpu_s'] / c['cpu_s']:.2f}× | {irs} | {irr} | "
                  f"{x['h2d']:g}, {x['d2h']:g}, {x['launches']:g}, {x['new_maps']:g} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"launches": launches, "reps": reps, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
