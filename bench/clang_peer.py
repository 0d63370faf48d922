#!/usr/bin/env python3
"""Launch cost of offload-host's lowering against clang-22's OpenMP offload.
Run by bench.py (`--only clang-peer`, in bench/run.sh's table) or standalone for the detailed table:

    python3 bench/clang_peer.py [--quick] [--reps N] [--workdir DIR] [--json FILE]

Three loops, each built three ways and run on libomptarget's host (x86_64)
plugin with OMP_TARGET_OFFLOAD=MANDATORY:

  tiny         one launch per iteration of a kernel that adds 1 to one i32,
               one 4-byte tofrom map (200,000 launches; --quick 20,000)
  buf4k        the same on a 4096-byte buffer (1024 i32s), one 4 KB tofrom
               map (100,000 launches; --quick 10,000)
  tiny-region  tiny inside one data region around the loop
               (`#pragma omp target data map(tofrom: ...)`; for ours
               __offload_data_begin/end): the data is present, launches copy
               nothing

  clang    C with `#pragma omp target map(tofrom: x[0:N])`, built by
           clang-22 -O2 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu
  ours     the natural kernel through offload-wrap-kernels and -O2 (image:
           llc-22 + ld.lld-22 -shared) and a host module of plain calls of
           the kernel (the v1 contract: `declare void @K(ptr
           dereferenceable(N))`) through `offload-host<image=...>`, then
           clang-22 -O2
  ours-v2  the same launches in the v2 call form:
           `@"__offload_launch2.K"(ptr @descriptor, ptr @config, ptr %buf)`
           with a constant descriptor (image digest, TO|FROM) and a
           LaunchConfig read at run time

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
import hashlib
import json
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
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
VARIANTS = ["clang", "ours", "ours-v2"]
LAUNCHES = {"tiny": 200_000, "buf4k": 100_000, "tiny-region": 200_000}

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

HEADER = ('target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'
          'target triple = "x86_64-unknown-linux-gnu"\n\n')


def device_ir(kernel, size):
    """The kernel in its natural form: b[i] += 1 for the buffer's i32s."""
    return HEADER + f"""define void @{kernel}(ptr %b) !offload.kernel !0 {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds i32, ptr %b, i64 %i
  %v = load i32, ptr %p, align 4
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %p, align 4
  %i1 = add nuw i64 %i, 1
  %more = icmp ult i64 %i1, {size // 4}
  br i1 %more, label %loop, label %exit
exit:
  ret void
}}
!0 = !{{}}
"""


def host_ir(kernel, size, region, v2, digest):
    """`main(argc, argv)`: n = atol(argv[1]) launches on a zeroed buffer,
    optionally inside a data region; prints and checks its first i32. The
    launch is a v1 call of the kernel's declaration or a v2 call."""
    if v2:
        decls = (f"%LaunchConfig = type {{ i32, i32, [3 x i32], [3 x i32], i32, i64, ptr }}\n"
                 f"@descriptor = private unnamed_addr constant [5 x i64] [i64 2, i64 {digest}, i64 1, i64 3, i64 {size}]\n"
                 f"@config = private unnamed_addr constant %LaunchConfig {{ i32 2, i32 0, [3 x i32] zeroinitializer, "
                 f"[3 x i32] zeroinitializer, i32 0, i64 -1, ptr null }}\n"
                 f'declare void @"__offload_launch2.{kernel}"(ptr, ptr, ptr)\n')
        call = f'  call void @"__offload_launch2.{kernel}"(ptr @descriptor, ptr @config, ptr %buf)\n'
    else:
        decls = f"declare void @{kernel}(ptr dereferenceable({size}))\n"
        call = f"  call void @{kernel}(ptr %buf)\n"
    pre = post = ""
    if region:
        decls += "declare void @__offload_data_begin(ptr, i64, i64)\ndeclare void @__offload_data_end(ptr, i64, i64)\n"
        pre = f"  call void @__offload_data_begin(ptr %buf, i64 {size}, i64 1)\n"
        post = f"  call void @__offload_data_end(ptr %buf, i64 {size}, i64 2)\n"
    return HEADER + decls + f"""@fmt = private unnamed_addr constant [10 x i8] c"sum = %d\\0A\\00"
declare i64 @atol(ptr)
declare i32 @printf(ptr, ...)

define i32 @main(i32 %argc, ptr %argv) {{
entry:
  %buf = alloca [{size} x i8], align 16
  call void @llvm.memset.p0.i64(ptr align 16 %buf, i8 0, i64 {size}, i1 false)
  %a1p = getelementptr inbounds ptr, ptr %argv, i64 1
  %a1 = load ptr, ptr %a1p, align 8
  %n = call i64 @atol(ptr %a1)
{pre}  %none = icmp sle i64 %n, 0
  br i1 %none, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
{call}  %i1 = add nuw i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
{post}  %r = load i32, ptr %buf, align 16
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %r)
  %r64 = sext i32 %r to i64
  %bad = icmp ne i64 %r64, %n
  %rc = zext i1 %bad to i32
  ret i32 %rc
}}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
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
    for loop, (size, region) in LOOPS.items():
        d = os.path.join(work, loop)
        os.makedirs(d, exist_ok=True)
        p = lambda name: os.path.join(d, name)  # noqa: E731
        with open(p("clang.c"), "w") as f:
            pragma = f"#pragma omp target data map(tofrom: b[0:{size // 4}])\n" if region else ""
            f.write(C_SOURCE % {"words": size // 4, "region": pragma})
        sh(["clang-22", "-O2", *OMP, p("clang.c"), "-o", p("clang"), *LINK])
        images.add_from_program(p("clang"), d)
        kernel = f"cpeer_{loop.replace('-', '_')}"
        with open(p("dev.ll"), "w") as f:
            f.write(device_ir(kernel, size))
        # -O2 after wrapping, as clang's device compile optimises its kernel:
        # the kernel bodies then match (the 4 KB loop is vectorised in both).
        sh(["opt-22", f"-load-pass-plugin={PLUGIN}", "-passes=offload-wrap-kernels,default<O2>",
            p("dev.ll"), "-o", p("dev.bc")])
        sh(["llc-22", "-O2", "-relocation-model=pic", "-filetype=obj", p("dev.bc"), "-o", p("dev.o")])
        sh(["ld.lld-22", "-shared", p("dev.o"), "-o", p("dev.so")])
        images.add_file(p("dev.so"))
        digest = struct.unpack("<Q", hashlib.sha256(open(p("dev.so"), "rb").read()).digest()[:8])[0]
        for v, v2 in (("ours", False), ("ours-v2", True)):
            with open(p(f"{v}.ll"), "w") as f:
                f.write(host_ir(kernel, size, region, v2, digest))
            sh(["opt-22", f"-load-pass-plugin={PLUGIN}", f"-passes=offload-host<image={p('dev.so')}>",
                p(f"{v}.ll"), "-o", p(f"{v}.bc")])
            sh(["clang-22", "-O2", p(f"{v}.bc"), "-o", p(v), *LINK, "-lomptarget"])
        for v in VARIANTS:
            exes[(loop, v)] = p(v)
    return exes


def run_program(exe, n, images, env=ENV):
    before = images.snapshot()
    proc = subprocess.Popen([exe, str(n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = proc.communicate()
    images.clean(before)
    if proc.returncode != 0:
        sys.exit(f"{exe} {n}: exit {proc.returncode}\n{out.decode()}{err.decode()}")
    return out.decode() + err.decode()


def cpu_seconds(exe, n, images):
    # communicate() reaps the child: its rusage is in RUSAGE_CHILDREN deltas.
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_program(exe, n, images)
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
    text = run_program(exe, n, images, env)
    count = lambda pat: len(re.findall(pat, text))  # noqa: E731
    return {
        "h2d": count(r"Copying data from host to device"),
        "d2h": count(r"Copying data from device to host"),
        "launches": count(r"Launching kernel"),
        "new_maps": count(r"Creating new map entry"),
    }


def measure(quick=False, reps=None, workdir=None, callgrind=True, cg_small=1000, cg_large=20000):
    """Builds and measures every loop and variant; returns (launches per
    loop, reps, {loop: {variant: {cpu_s, cpu_all, ir_per_launch, xfers}}})."""
    reps = reps or (3 if quick else 5)
    launches = {k: v // 10 for k, v in LAUNCHES.items()} if quick else dict(LAUNCHES)
    if not os.path.exists(PLUGIN):
        sys.exit(f"no plugin at {PLUGIN}: run cargo build --release first")
    if callgrind and not shutil.which("valgrind"):
        log("valgrind not found: no instruction counts (apt-get install valgrind)")
        callgrind = False
    work = workdir or tempfile.mkdtemp(prefix="clang-peer-bench.")
    os.makedirs(work, exist_ok=True)
    images = Images()
    results = {}
    try:
        log(f"[clang-peer] building in {work}")
        exes = build(work, images)
        for loop in LOOPS:
            res = {v: {"xfers": transfers(exes[(loop, v)], images)} for v in VARIANTS}
            log(f"[clang-peer] {loop}: CPU time, {launches[loop]} launches, {reps} reps")
            times = {v: [] for v in VARIANTS}
            for _ in range(reps):
                for v in VARIANTS:
                    times[v].append(cpu_seconds(exes[(loop, v)], launches[loop], images))
            for v in VARIANTS:
                res[v]["cpu_s"] = min(times[v])
                res[v]["cpu_all"] = times[v]
            if callgrind:
                log(f"[clang-peer] {loop}: callgrind, {cg_small} and {cg_large} launches")
                for v in VARIANTS:
                    small = callgrind_ir(exes[(loop, v)], cg_small, images)
                    large = callgrind_ir(exes[(loop, v)], cg_large, images)
                    res[v]["ir_per_launch"] = (large - small) / (cg_large - cg_small)
            results[loop] = res
    finally:
        if not workdir:
            shutil.rmtree(work, ignore_errors=True)
    return launches, reps, results


def table(launches, results):
    lines = ["| loop | variant | CPU s (min) | CPU vs clang | Ir/launch | Ir vs clang "
             "| 10 launches: H→D, D→H, kernels, new maps |", "|---|---|---|---|---|---|---|"]
    for loop, res in results.items():
        c = res["clang"]
        for v in VARIANTS:
            r = res[v]
            ir = r.get("ir_per_launch")
            irs = f"{ir / 1000:.1f}k" if ir is not None else "-"
            irr = f"{ir / c['ir_per_launch']:.2f}×" if ir is not None else "-"
            x = r["xfers"]
            lines.append(f"| {loop} ({launches[loop]:,}) | {v} | {r['cpu_s']:.3f} | "
                         f"{r['cpu_s'] / c['cpu_s']:.2f}× | {irs} | {irr} | "
                         f"{x['h2d']:g}, {x['d2h']:g}, {x['launches']:g}, {x['new_maps']:g} |")
    return "\n".join(lines)


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
    launches, reps, results = measure(args.quick, args.reps, args.workdir, not args.no_callgrind,
                                      args.cg_small, args.cg_large)
    print(table(launches, results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"launches": launches, "reps": reps, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
