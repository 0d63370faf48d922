#!/usr/bin/env python3
"""offload-passes benchmarks: ratios measured in one run. Not tests.

Run through bench/run.sh (which builds the plugin first):

    bench/run.sh [--quick] [--reps N] [--workdir DIR] [--only NAME ...]

Benchmarks (NAME for --only):
  abi-vs-llvm  amdgpu-kernel-abi vs LLVM's amdgpu-lower-kernel-arguments,
               per-pass CPU time from one `opt-22 -time-passes` process
  scaling      N vs 10N kernels for each ABI pass (linear: ratio <= 12),
               and LLVM's deadargelim and instnamer at the same sizes
  load         opt-22 -passes=verify with vs without -load-pass-plugin
  host         offload-host (launch sites; 64 MiB image vs
               llvm-offload-wrapper-22), skipped while the plugin does not
               register that pass
  clang-peer   launch cost of offload-host's lowering (v1 and v2 call forms)
               against clang-22's OpenMP offload: CPU time and instructions
               per launch (callgrind), transfers (bench/clang_peer.py)
  launch-region  the offload crate's launches (host data, in a mapped
               region, on a device buffer) against clang-22's target and
               target data loops, instructions per launch (callgrind), and
               two streams against back to back (bench/launch_region.py)

Times are CPU seconds (user+system) of the pass as -time-passes reports it,
the minimum over --reps runs: the machine may be shared, and CPU time is the
least disturbed by other load. Wall times are printed alongside.
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen  # noqa: E402


def llvm_bindir():
    out = subprocess.run(["llvm-config-22", "--bindir"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


BIN = llvm_bindir()
OPT = os.path.join(BIN, "opt")
LLC = os.path.join(BIN, "llc")
LLVM_AS = os.path.join(BIN, "llvm-as")
LLD = os.path.join(BIN, "ld.lld")
WRAPPER = os.path.join(BIN, "llvm-offload-wrapper")
PLUGIN = os.environ.get(
    "OFFLOAD_PASSES_PLUGIN", os.path.join(ROOT, "target", "release", "liboffload_passes.so")
)
AMDGCN = ["-mtriple=amdgcn-amd-amdhsa"]
# LLVM's pass is a function pass: in a pipeline that also holds a module pass
# it must be wrapped in function(...) explicitly.
LLVM_KERNARG = "function(amdgpu-lower-kernel-arguments)"
LINEAR_LIMIT = 12.0  # time ratio allowed for 10x the work


class PassClasses(dict):
    """Pipeline name -> the class name -time-passes prints, asked of the
    plugin itself (`-debug-pass-manager` names the class of each pass it
    runs); None for a name the plugin does not register."""

    def __missing__(self, name):
        probe = "offload-host<image=/nonexistent>" if name == "offload-host" else name
        res = subprocess.run(
            [OPT, f"-load-pass-plugin={PLUGIN}", f"-passes={probe}", "-debug-pass-manager",
             "-disable-output", "-"],
            input="", capture_output=True, text=True)
        m = re.search(r"Running pass: (\w+) on", res.stdout + res.stderr)
        self[name] = m.group(1) if m else None
        return self[name]

    def get(self, name, default=None):
        value = self[name]
        return default if value is None else value


CLASSES = PassClasses()


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if res.returncode != 0:
        raise RuntimeError(f"command failed ({res.returncode}): {' '.join(cmd)}\n{res.stderr[-4000:]}")
    return res


# ---------------------------------------------------------------------------
# Inputs


class Inputs:
    """Generated modules, as bitcode (parses faster than text), cached by kind and size."""

    def __init__(self, workdir):
        self.dir = workdir

    def module(self, kind, n, **kw):
        suffix = "".join(f".{k}{v}" for k, v in sorted(kw.items()))
        bc = os.path.join(self.dir, f"{kind}.{n}{suffix}.bc")
        if not os.path.exists(bc):
            ll = bc[:-3] + ".ll"
            log(f"  generating {os.path.basename(bc)}")
            with open(ll, "w") as out:
                gen.GENERATORS[kind](n, out, **kw)
            run([LLVM_AS, ll, "-o", bc])
            os.remove(ll)
        return bc

    def text_module(self, kind, n):
        ll = os.path.join(self.dir, f"{kind}.{n}.ll")
        if not os.path.exists(ll):
            with open(ll, "w") as out:
                gen.GENERATORS[kind](n, out)
        return ll


# ---------------------------------------------------------------------------
# Measurement helpers

TIMING_ROW = re.compile(r"^\s*((?:\d+\.\d+ \(\s*[\d.]+%\)\s+)+)(\S.*)$")


def parse_time_passes(stderr):
    """{class name: (cpu seconds, wall seconds)} from the 'Pass execution
    timing report' of -time-passes (cpu = the User+System column)."""
    out = {}
    section = None
    for line in stderr.splitlines():
        if "timing report" in line or "LLVM IR Parsing" in line:
            section = line.strip()
            continue
        if section != "Pass execution timing report":
            continue
        m = TIMING_ROW.match(line)
        if not m:
            continue
        nums = [float(x) for x in re.findall(r"(\d+\.\d+) \(", m.group(1))]
        # Columns: User [System] User+System Wall.
        out[m.group(2).strip()] = (nums[-2], nums[-1])
    return out


def time_passes(pipeline, path, extra=()):
    res = run([OPT, f"-load-pass-plugin={PLUGIN}", *extra, f"-passes={pipeline}",
               "-time-passes", "-disable-output", path])
    return parse_time_passes(res.stderr)


def ratio_of(a, b):
    """a / b, with times under -time-passes' resolution (0.1 ms) read as 0.1 ms."""
    return max(a, 1e-4) / max(b, 1e-4)


def best(samples):
    """The minimum (cpu, wall) pair by cpu."""
    return min(samples, key=lambda s: s[0])


def time_v(cmd):
    """(wall seconds, peak RSS MiB) of one run under /usr/bin/time -v."""
    res = run(["/usr/bin/time", "-v", *cmd])
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", res.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", res.stderr).group(1)
    secs = 0.0
    for part in wall.split(":"):
        secs = secs * 60 + float(part)
    return secs, rss / 1024


# ---------------------------------------------------------------------------
# A.1 amdgpu-kernel-abi vs amdgpu-lower-kernel-arguments


def bench_abi_vs_llvm(inputs, n, reps):
    log(f"[abi-vs-llvm] {n} kernels, {reps} runs")
    bc = inputs.module("abi", n)
    ours_cls, theirs_cls = CLASSES["amdgpu-kernel-abi"], "AMDGPULowerKernelArgumentsPass"
    ratios, ours, theirs = [], [], []
    for _ in range(reps):
        t = time_passes(f"amdgpu-kernel-abi,{LLVM_KERNARG}", bc, AMDGCN)
        ours.append(t[ours_cls])
        theirs.append(t[theirs_cls])
        ratios.append(ratio_of(t[ours_cls][0], t[theirs_cls][0]))
    # Cross-check: LLVM's pass alone on the original module (in the pipeline
    # above it lowers our output, byref pointers, instead).
    alone = best([time_passes(LLVM_KERNARG, bc, AMDGCN)[theirs_cls] for _ in range(reps)])
    ratio = statistics.median(ratios)
    return {
        "name": "abi-vs-llvm",
        "kernels": n,
        "ours": best(ours),
        "theirs": best(theirs),
        "theirs_alone": alone,
        "ratio": ratio,
        "ratios": ratios,
        "ratio_vs_alone": ratio_of(best(ours)[0], alone[0]),
        "target": "<= 1.0",
        "met": ratio <= 1.0,
    }


# ---------------------------------------------------------------------------
# A.2 scaling

SCALING = [
    ("amdgpu-kernel-abi", "abi"),
    ("byref-callee-copy", "bcc"),
    ("offload-wrap-kernels", "wrap"),
]

# LLVM's own passes at the same sizes, for what N -> 10N costs LLVM itself
# on such modules (not targets): deadargelim gives every function of `dae`
# (the `wrap` functions, internal, plus one unused parameter) a new
# signature the way offload-wrap-kernels does (new function, body spliced
# over, names and uses moved, old one erased); instnamer walks every
# instruction of the `wrap` module and names the one unnamed value per
# kernel (the entry block).
LLVM_REFERENCES = [
    ("deadargelim", "dae", "DeadArgumentEliminationPass"),
    ("instnamer", "wrap", "InstructionNamerPass"),
]


def bench_scaling(inputs, n, reps, big_reps):
    results = []
    for pipeline, kind in SCALING:
        cls = CLASSES[pipeline]
        log(f"[scaling] {pipeline}: {n} vs {10 * n} kernels")
        small = best([time_passes(pipeline, inputs.module(kind, n))[cls] for _ in range(reps)])
        big = best([time_passes(pipeline, inputs.module(kind, 10 * n))[cls] for _ in range(big_reps)])
        ratio = ratio_of(big[0], small[0])
        results.append({
            "name": f"scaling {pipeline}",
            "kernels": (n, 10 * n),
            "small": small,
            "big": big,
            "ratio": ratio,
            "target": f"<= {LINEAR_LIMIT:g}",
            "met": ratio <= LINEAR_LIMIT,
        })
    for pipeline, kind, cls in LLVM_REFERENCES:
        log(f"[scaling] LLVM's {pipeline} (reference): {n} vs {10 * n}")
        small = best([time_passes(pipeline, inputs.module(kind, n))[cls] for _ in range(reps)])
        big = best([time_passes(pipeline, inputs.module(kind, 10 * n))[cls] for _ in range(big_reps)])
        results.append({
            "name": f"scaling {pipeline}",
            "reference": True,
            "kernels": (n, 10 * n),
            "small": small,
            "big": big,
            "ratio": ratio_of(big[0], small[0]),
            "target": "(LLVM, for comparison)",
            "met": None,
        })
    return results


# ---------------------------------------------------------------------------
# A.3 plugin load cost


def child_cpu(cmd):
    """CPU seconds (user+system) of one run of `cmd`, from its own rusage."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"command failed ({proc.returncode}): {' '.join(cmd)}")
    return usage.ru_utime + usage.ru_stime


def bench_load(inputs, runs):
    """The verdict uses the median per-run CPU time (user+system, from each
    process's rusage) of interleaved runs: the wall time of a 25 ms process
    moves by more than the plugin costs when the machine is shared. Wall
    medians come from hyperfine when it is installed."""
    log(f"[load] opt -passes=verify with/without the plugin, {runs} runs each")
    small = inputs.text_module("small", 20)
    plain = [OPT, "-passes=verify", "-disable-output", small]
    loaded = [OPT, f"-load-pass-plugin={PLUGIN}", "-passes=verify", "-disable-output", small]
    cpus = ([], [])
    for i in range(runs + 10):
        for cmd in (plain, loaded) if i % 2 else (loaded, plain):
            t = child_cpu(cmd)
            if i >= 10:  # warm-up
                cpus[0 if cmd is plain else 1].append(t)
    cpu = [statistics.median(c) for c in cpus]
    wall = None
    if shutil.which("hyperfine"):
        out = os.path.join(inputs.dir, "load.json")
        run(["hyperfine", "-N", "--warmup", "10", "--runs", str(runs), "--export-json", out,
             " ".join(plain), " ".join(loaded)])
        wall = [statistics.median(r["times"]) for r in json.load(open(out))["results"]]
    overhead = cpu[1] / cpu[0] - 1
    return {
        "name": "load",
        "tool": "rusage" + (" + hyperfine" if wall else ""),
        "plain": cpu[0],
        "loaded": cpu[1],
        "wall": wall,
        "overhead": overhead,
        "wall_overhead": wall[1] / wall[0] - 1 if wall else None,
        "target": "< 10%",
        "met": overhead < 0.10,
    }


# ---------------------------------------------------------------------------
# A.4 offload-host (hooks: measured once the pass is registered)

HOST_PASS = "offload-host"


def host_pass_registered(inputs):
    """True when the plugin registers offload-host: with an image that does
    not exist the pass may fail, but not with 'unknown pass name'."""
    host = inputs.module("host-launch", 1)
    res = subprocess.run([OPT, f"-load-pass-plugin={PLUGIN}",
                          f"-passes={HOST_PASS}<image=/nonexistent.so>", "-disable-output", host],
                         capture_output=True, text=True)
    return "unknown pass name" not in res.stderr and "unknown module pass" not in res.stderr


def build_image(inputs, kernels, image_bytes=0):
    """An x86_64 ELF .so image (offload-wrap-kernels, llc-22, ld.lld-22) of
    `kernels` kernels `k<i>(ptr %a, i64 %n)`, padded by a constant array."""
    so = os.path.join(inputs.dir, f"image.{kernels}.{image_bytes}.so")
    if not os.path.exists(so):
        ll = os.path.join(inputs.dir, "image.ll")
        with open(ll, "w") as out:
            gen.gen_host_device(kernels, out, image_bytes=image_bytes)
        obj, bc = so[:-3] + ".o", so[:-3] + ".bc"
        run([OPT, f"-load-pass-plugin={PLUGIN}", "-passes=offload-wrap-kernels", ll, "-o", bc])
        run([LLC, "-O2", "-relocation-model=pic", "-filetype=obj", bc, "-o", obj])
        run([LLD, "-shared", obj, "-o", so])
        os.remove(obj)
        os.remove(bc)
    return so


def host_pass_time(pipeline, path):
    t = time_passes(pipeline, path)
    cls = CLASSES.get(HOST_PASS)
    if cls and cls in t:
        return t[cls]
    rows = [v for k, v in t.items() if k not in ("VerifierPass", "Total")]
    return (sum(r[0] for r in rows), sum(r[1] for r in rows))


def bench_host_sites(inputs, few, many, reps):
    log(f"[host] {HOST_PASS}: {few} vs {many} launch sites")
    image = build_image(inputs, 1)
    pipeline = f"{HOST_PASS}<image={image}>"
    t_few = best([host_pass_time(pipeline, inputs.module("host-launch", few)) for _ in range(reps)])
    t_many = best([host_pass_time(pipeline, inputs.module("host-launch", many)) for _ in range(reps)])
    ratio = ratio_of(t_many[0], t_few[0])
    limit = LINEAR_LIMIT / 10 * (many / few)
    return {
        "name": "host sites",
        "sites": (few, many),
        "few": t_few,
        "many": t_many,
        "ratio": ratio,
        "target": f"<= {limit:g} (linear in sites)",
        "met": ratio <= limit,
    }


def bench_host_image(inputs, mib):
    log(f"[host] {HOST_PASS}: embedding a {mib} MiB image vs llvm-offload-wrapper-22")
    image = build_image(inputs, 1, image_bytes=mib << 20)
    host = inputs.module("host-launch", 100)
    ours = time_v([OPT, f"-load-pass-plugin={PLUGIN}", f"-passes={HOST_PASS}<image={image}>",
                   host, "-o", os.path.join(inputs.dir, "host.out.bc")])
    theirs = time_v([WRAPPER, "--kind=openmp", "--triple=x86_64-unknown-linux-gnu", image,
                     "-o", os.path.join(inputs.dir, "wrapper.out.bc")])
    # Targets: at most 0.5x the wrapper's wall time, and a peak RSS of at
    # most 4x the image size (the wrapper peaks near 12x).
    image_mib = os.path.getsize(image) / (1 << 20)
    wall_ratio, rss_per_image = ours[0] / theirs[0], ours[1] / image_mib
    return {
        "name": "host image",
        "mib": mib,
        "ours": ours,
        "theirs": theirs,
        "wall_ratio": wall_ratio,
        "rss_ratio": ours[1] / theirs[1],
        "rss_per_image": rss_per_image,
        "target": "wall <= 0.5x, peak RSS <= 4x image",
        "met": wall_ratio <= 0.5 and rss_per_image <= 4.0,
    }


# ---------------------------------------------------------------------------
# Launch cost against clang's OpenMP offload (bench/clang_peer.py)

CLANG_PEER_LOOPS = {
    "tiny": "a tiny kernel, one 4-byte tofrom map",
    "buf4k": "a 4 KB tofrom buffer",
    "tiny-region": "the tiny kernel inside a data region",
}


def bench_clang_peer(quick, reps, workdir):
    """One row per loop: ours (v1 and v2 call forms) against clang, CPU
    time and (deciding: CPU time on a shared machine moves 0.95-1.33x
    between runs) instructions per launch; target at most 1.0x, goal 0.9x."""
    import clang_peer
    launches, _, results = clang_peer.measure(quick=quick, reps=reps, workdir=workdir)
    rows = []
    for loop, res in results.items():
        c = res["clang"]
        xfer = lambda v: ", ".join(str(res[v]["xfers"][k]) for k in ("h2d", "d2h", "launches", "new_maps"))  # noqa: E731
        ir = {v: res[v].get("ir_per_launch") for v in ("clang", "ours", "ours-v2")}
        cpu = {v: res[v]["cpu_s"] / c["cpu_s"] for v in ("ours", "ours-v2")}
        if ir["clang"]:
            irr = {v: ir[v] / ir["clang"] for v in ("ours", "ours-v2")}
            measured = (f"Ir/launch: clang {ir['clang'] / 1000:.1f}k, v1 {ir['ours'] / 1000:.1f}k, "
                        f"v2 {ir['ours-v2'] / 1000:.1f}k; CPU: clang {c['cpu_s']:.3f} s, "
                        f"v1 {res['ours']['cpu_s']:.3f} s, v2 {res['ours-v2']['cpu_s']:.3f} s; "
                        f"10 launches (H→D, D→H, kernels, new maps): clang {xfer('clang')}, "
                        f"v1 {xfer('ours')}, v2 {xfer('ours-v2')}")
            ratio = (f"Ir v1 {irr['ours']:.2f}×, v2 {irr['ours-v2']:.2f}×; "
                     f"CPU v1 {cpu['ours']:.2f}×, v2 {cpu['ours-v2']:.2f}×")
            met = max(irr.values()) <= 1.0
        else:
            measured = f"CPU: clang {c['cpu_s']:.3f} s, v1 {res['ours']['cpu_s']:.3f} s (no valgrind)"
            ratio = f"CPU v1 {cpu['ours']:.2f}×, v2 {cpu['ours-v2']:.2f}×"
            met = max(cpu.values()) <= 1.0
        rows.append({
            "name": "clang-peer",
            "loop": loop,
            "what": CLANG_PEER_LOOPS[loop],
            "launches": launches[loop],
            "results": res,
            "measured": measured,
            "ratio": ratio,
            "target": "<= 1.0x clang (goal 0.9x)",
            "met": met,
        })
    return rows


def bench_launch_region(quick, workdir):
    """One row per N: the offload crate's launch in a region (and plain)
    against clang's, instructions per launch; two streams' wall time."""
    import launch_region
    results, (serial, streams) = launch_region.measure(quick=quick, workdir=workdir)
    out = []
    for r in launch_region.rows(results):
        ir = r["ir"]
        out.append({
            "name": "launch-region",
            "results": r,
            "measured": (f"N = {r['n']} floats, Ir/launch: clang target {ir['clang target'] / 1000:.1f}k, "
                         f"clang region {ir['clang region'] / 1000:.1f}k, rust plain {ir['rust plain'] / 1000:.1f}k, "
                         f"rust region {ir['rust region'] / 1000:.1f}k, rust buffer {ir['rust buffer'] / 1000:.1f}k; "
                         f"two busy kernels back to back {serial:.3f} s, two streams {streams:.3f} s"),
            "ratio": f"region {r['region_ratio']:.2f}×, plain {r['plain_ratio']:.2f}×",
            "target": "region <= 0.7x clang's, plain <= 0.9x",
            "met": r["met"],
        })
    whole = results.get("whole")
    if whole:
        clang, rust = (whole[v] for v in launch_region.ALL_VARIANTS)
        out.append({
            "name": "launch-region",
            "results": {"whole": whole},
            "measured": (f"a kernel without barriers over {launch_region.ALL_N} floats on "
                         f"Launch::grid(1, 1) in a region, Ir/launch: clang {clang / 1000:.1f}k, "
                         f"rust {rust / 1000:.1f}k"),
            "ratio": f"{rust / clang:.2f}×",
            "target": "<= 1.0x clang's target data + target loop",
            "met": rust <= clang,
        })
    return out


# ---------------------------------------------------------------------------
# Report


def mark(met):
    return {True: "met", False: "NOT met", None: "-"}[met]


def report(results):
    lines = ["| benchmark | measured | ratio | target | |", "|---|---|---|---|---|"]
    for r in results:
        name = r["name"]
        if name == "abi-vs-llvm":
            lines.append(
                f"| amdgpu-kernel-abi vs amdgpu-lower-kernel-arguments, {r['kernels']} kernels, one process "
                f"| ours {r['ours'][0]:.3f} s, theirs {r['theirs'][0]:.3f} s CPU "
                f"(theirs alone on the input: {r['theirs_alone'][0]:.3f} s) "
                f"| {r['ratio']:.2f}x (vs alone {r['ratio_vs_alone']:.2f}x) | {r['target']} | {mark(r['met'])} |")
        elif name.startswith("scaling"):
            n1, n2 = r["kernels"]
            what = f"LLVM's {name[8:]} (reference)" if r.get("reference") else name[8:]
            lines.append(
                f"| {what}: {n1} vs {n2} kernels "
                f"| {r['small'][0]:.3f} s vs {r['big'][0]:.3f} s CPU "
                f"({r['small'][0] / n1 * 1e6:.1f} vs {r['big'][0] / n2 * 1e6:.1f} us/kernel) "
                f"| {r['ratio']:.1f} | {r['target']} | {mark(r['met'])} |")
        elif name == "load":
            wall = ""
            if r["wall"]:
                wall = (f" (wall {r['wall'][0] * 1000:.1f} vs {r['wall'][1] * 1000:.1f} ms,"
                        f" {r['wall_overhead'] * 100:+.1f}%)")
            lines.append(
                f"| plugin load, opt-22 -passes=verify, small module ({r['tool']}) "
                f"| {r['plain'] * 1000:.1f} ms vs {r['loaded'] * 1000:.1f} ms CPU, medians{wall} "
                f"| {r['overhead'] * 100:+.1f}% CPU | {r['target']} | {mark(r['met'])} |")
        elif name == "host sites":
            few, many = r["sites"]
            lines.append(
                f"| offload-host: {few} vs {many} launch sites "
                f"| {r['few'][0]:.3f} s vs {r['many'][0]:.3f} s CPU "
                f"| {r['ratio']:.1f} | {r['target']} | {mark(r['met'])} |")
        elif name == "host image":
            lines.append(
                f"| offload-host vs llvm-offload-wrapper-22, {r['mib']} MiB image "
                f"| {r['ours'][0]:.2f} s / {r['ours'][1]:.0f} MiB vs "
                f"{r['theirs'][0]:.2f} s / {r['theirs'][1]:.0f} MiB (wall / peak RSS) "
                f"| {r['wall_ratio']:.2f}x wall, {r['rss_ratio']:.2f}x its RSS, RSS {r['rss_per_image']:.1f}x image | {r['target']} | {mark(r['met'])} |")
        elif name == "clang-peer":
            lines.append(
                f"| launch cost vs clang-22 OpenMP offload: {r['what']}, {r['launches']:,} launches "
                f"| {r['measured']} | {r['ratio']} | {r['target']} | {mark(r['met'])} |")
        elif name == "launch-region":
            lines.append(
                f"| offload crate launch vs clang-22 | {r['measured']} | {r['ratio']} "
                f"| {r['target']} | {mark(r['met'])} |")
        elif name == "host skipped":
            lines.append(f"| offload-host | not registered in this plugin: skipped | | | - |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs")
    ap.add_argument("--reps", type=int, help="runs per measurement (default 5, --quick 3)")
    ap.add_argument("--workdir", help="keep generated inputs here (default: a temporary directory)")
    ap.add_argument("--only", nargs="+", choices=["abi-vs-llvm", "scaling", "load", "host", "clang-peer",
                                                 "launch-region"])
    ap.add_argument("--json", help="also write the raw results here")
    args = ap.parse_args()

    if not os.path.exists(PLUGIN):
        sys.exit(f"plugin not built: {PLUGIN} (run cargo build --release)")
    quick = args.quick
    reps = args.reps or (3 if quick else 5)
    sizes = {
        "abi": 2000 if quick else 10000,
        "scale": 1000 if quick else 10000,
        "load_runs": 50 if quick else 300,
        "sites": (100, 1000) if quick else (100, 10000),
        "image_mib": 8 if quick else 64,
    }
    only = set(args.only or ["abi-vs-llvm", "scaling", "load", "host", "clang-peer", "launch-region"])
    workdir = args.workdir or tempfile.mkdtemp(prefix="offload-bench.")
    os.makedirs(workdir, exist_ok=True)
    inputs = Inputs(workdir)
    start = time.time()
    results = []
    try:
        if "abi-vs-llvm" in only:
            results.append(bench_abi_vs_llvm(inputs, sizes["abi"], reps))
        if "scaling" in only:
            results.extend(bench_scaling(inputs, sizes["scale"], reps, max(1, min(reps, 3))))
        if "load" in only:
            results.append(bench_load(inputs, sizes["load_runs"]))
        if "host" in only:
            if host_pass_registered(inputs):
                results.append(bench_host_sites(inputs, *sizes["sites"], reps))
                results.append(bench_host_image(inputs, sizes["image_mib"]))
            else:
                log(f"[host] {HOST_PASS} is not registered by {PLUGIN}: skipped")
                results.append({"name": "host skipped", "met": None})
        if "clang-peer" in only:
            results.extend(bench_clang_peer(quick, reps, os.path.join(workdir, "clang-peer")))
        if "launch-region" in only:
            results.extend(bench_launch_region(quick, os.path.join(workdir, "launch-region")))
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    print(report(results))
    cpu = os.cpu_count()
    print(f"\n{'quick' if quick else 'full'} run, {reps} runs per measurement, {cpu} CPUs, "
          f"{time.time() - start:.0f} s")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
