#!/usr/bin/env python3
"""Randomized differential ABI conformance test: the plugin's AMDGPU kernels
from rustc 1.95 against clang 22's for the equivalent HIP C.

For each batch of random kernels (abigen.py) and each setting:

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
   also equal what abigen expects (a check of the harness itself). Kernels
   whose argument count or sizes differ from clang's are not executed.

Statuses per kernel and setting: ok; layout (args differ from clang's);
exec (layout equal, stored record differs, or the kernel faulted); crash
(rustc, opt or llc failed on the kernel: batches are bisected to find it);
harness (clang's run disagrees with the model: a bug here, not in the
plugin). For settings without debug info a layout difference is `warned`
when the plugin printed a warning naming the kernel.

Usage:
  abirun.py --kernels 1000 --seed 1 --jobs 2 --settings O3-g2,O0-g2,O3-g2-start,O3-nodebug
  abirun.py --kernels 40 --seed 7 --report out.json --keep-failures DIR
  abirun.py --case cases/foo.json --settings O3-g2        # exit 1 unless ok
  abirun.py --kernels 200 --seed 3 --reduce 2 --cases-dir DIR   # minimise failures

Exit status: 0 when every kernel is ok in every setting (warned layout
differences in no-debug settings count as ok only with --allow-warned),
1 otherwise, 2 on a harness error.
"""

import argparse
import collections
import json
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import abigen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
PASSES = "amdgpu-kernel-abi,byref-callee-copy"
TARGET = ["--target", "amdgcn-amd-amdhsa", "-Ctarget-cpu=gfx90a"]
KERNARG_BLOB = 4096

# mode: "opt" (rustc --emit=llvm-ir, then opt-22 -passes=PASSES), "start"
# (the plugin inside rustc, OFFLOAD_PASSES_PIPELINE_START=PASSES), "none"
# (rustc alone: the baseline the plugin fixes).
SETTINGS = {
    "O3-g2": ("3", True, "opt"),
    "O0-g2": ("0", True, "opt"),
    "O3-g2-start": ("3", True, "start"),
    "O0-g2-start": ("0", True, "start"),
    "O3-nodebug": ("3", False, "opt"),
    "O0-nodebug": ("0", False, "opt"),
    "O3-g2-none": ("3", True, "none"),
    "O3-g2-nomerge": ("3", True, "opt"),
}
# Extra rustc flags of a setting. rustc's MergeFunctions (on at -O3) makes one
# of two identical kernels an alias, which has no kernel descriptor; at the
# pipeline start the plugin stops it (kernels lose unnamed_addr), on rustc's
# finished .ll it can only warn. O3-g2-nomerge is O3-g2 as a user of that flow
# is told to build.
RUSTC_FLAGS = {"O3-g2-nomerge": ["-Zmerge-functions=disabled"]}
DEFAULT_SETTINGS = "O3-g2,O0-g2,O3-g2-start,O3-nodebug"


class HarnessError(Exception):
    pass


# Set by main before workers fork.
OPTIONS = {"self_test": False}


def run(cmd, env=None, timeout=600):
    full = dict(os.environ)
    for var in ("OFFLOAD_PASSES_PIPELINE_START", "OFFLOAD_PASSES_OPTIMIZER_LAST", "RUST_LOG"):
        full.pop(var, None)
    full["RUSTC_BOOTSTRAP"] = "1"
    full.update(env or {})
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=full, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"timeout after {timeout}s: {' '.join(cmd)}"
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------------------
# Layout

def parse_layout(asm):
    """{kernel: [(offset, size, value_kind)]} from .amdhsa.kernels (explicit args)."""
    if "amdhsa.kernels:" not in asm:
        return {}
    lines = asm.split("amdhsa.kernels:", 1)[1].splitlines()
    kernels, cur, arg = {}, None, None
    for line in lines:
        if line.startswith(".end_amdgpu_metadata"):
            break
        if line.startswith("  - "):
            cur = {"name": None, "args": []}
            kernels[id(cur)] = cur
            line = "    " + line[4:]
        if cur is None:
            continue
        if line.startswith("      - "):
            arg = {}
            cur["args"].append(arg)
            line = "        " + line[8:]
        key, _, value = line.strip().partition(":")
        value = value.strip()
        if line.startswith("    .") and not line.startswith("     ") and key == ".name":
            cur["name"] = value
        elif line.startswith("        .") and cur["args"]:
            cur["args"][-1][key[1:]] = value
    out, names = {}, {}
    for k in kernels.values():
        args = [a for a in k["args"] if not a.get("value_kind", "").startswith("hidden")]
        out[k["name"]] = [(int(a["offset"]), int(a["size"]), a["value_kind"]) for a in args]
        names[k["name"]] = [a.get("name") for a in args]
    return out, names


# ---------------------------------------------------------------------------
# Execution: AMDGPU IR -> x86_64 object

X86_DL = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128-A5"


def prepare_for_lowering(text):
    """Drops kernel parameter attributes that only guide optimisation and
    that LLVM 22's amdgpu-lower-kernel-arguments mishandles:
    - range(iN a, b) on a sub-dword argument: the pass widens the load to
      i32 but copies the range onto it as !range, which the verifier rejects
      ("Range types must match instruction type!", also inside llc -O0: every
      rustc 1.95 kernel with a u8/u16 enum parameter hits it, plugin or not);
    - noalias on a pointer argument: the pass leaves such an argument alone,
      so it would not come from the kernarg segment.
    Neither says anything about the layout."""
    def fix(m):
        line = re.sub(r" range\(i\d+ -?\d+, -?\d+\)", "", m.group(1))
        return line.replace(" noalias", "")
    return re.sub(r"^(define [^\n]*)", fix, text, flags=re.M)


def kernels_with_subdword_range(text):
    """Kernels with a range() on an i8/i16 parameter (see above)."""
    out = set()
    for l in text.splitlines():
        m = re.match(r"define .*amdgpu_kernel void @([-\w.$]+)\(", l)
        if m and re.search(r"\bi(?:8|16) (?:noundef )?(?:signext |zeroext )?range\(", l):
            out.add(m.group(1))
    return out


def layout_of(ll, work, tag):
    """(layouts, kernels with the sub-dword range attribute) of a module:
    llc-22 -O0 on it, range attributes dropped first (prepare_for_lowering)."""
    with open(ll) as f:
        text = f.read()
    pre = os.path.join(work, f"{tag}.layout.ll")
    with open(pre, "w") as f:
        f.write(prepare_for_lowering(text))
    asm = os.path.join(work, f"{tag}.s")
    rc, _, err = run(["llc-22", "-O0", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", pre, "-o", asm])
    if rc:
        return None, err
    with open(asm) as f:
        layouts, names = parse_layout(f.read())
    aliases = dict(re.findall(r"^@([-\w.$]+) = [^\n]*\balias\b[^\n]*@([-\w.$]+)\s*$", text, flags=re.M))
    return (layouts, names, kernels_with_subdword_range(text), aliases), None


def retarget(text):
    """Lowered AMDGPU module text -> x86_64 module text: kernels without
    parameters, the kernarg segment pointer loaded from @abi_kernarg."""
    text = re.sub(r'target datalayout = "[^"]*"', f'target datalayout = "{X86_DL}"', text)
    text = re.sub(r'target triple = "[^"]*"', 'target triple = "x86_64-unknown-linux-gnu"', text)
    text, n = re.subn(r"(%[-\w.$]+) = (?:tail |notail )?call [^\n]*@llvm\.amdgcn\.kernarg\.segment\.ptr\(\)[^\n]*",
                      r"\1 = load ptr addrspace(4), ptr @abi_kernarg, align 8", text)
    text = re.sub(r"declare [^\n]*@llvm\.amdgcn\.kernarg\.segment\.ptr\(\)[^\n]*\n", "", text)
    text = re.sub(r' "(?:target-cpu|target-features|amdgpu-[\w-]*|uniform-work-group-size)"(?:="[^"]*")?', "", text)
    out = []
    for line in text.split("\n"):
        m = re.match(r"define (.*?)amdgpu_kernel (.*?)@([-\w.$]+)\(", line)
        if m:
            i, depth = m.end(), 1
            while depth:
                depth += {"(": 1, ")": -1}.get(line[i], 0)
                i += 1
            line = f"define {m.group(1)}{m.group(2)}@{m.group(3)}(){line[i:]}"
        out.append(line)
    return "\n".join(out) + "\n@abi_kernarg = external global ptr addrspace(4)\n"


def to_x86_object(ll, work, tag):
    """Returns (object path, None) or (None, error)."""
    pre = os.path.join(work, f"{tag}.pre.ll")
    low = os.path.join(work, f"{tag}.low.ll")
    x86 = os.path.join(work, f"{tag}.x86.ll")
    obj = os.path.join(work, f"{tag}.x86.o")
    with open(ll) as f:
        text = f.read()
    with open(pre, "w") as f:
        f.write(prepare_for_lowering(text))
    # instcombine makes every constant GEP a byte offset while the module
    # still has AMDGPU's data layout: llc-22 upgrades any x86_64 layout to
    # i128:128, so rustc's -O0 GEPs through named IR types (`{ half, [3 x
    # i16], i128 }`, 24 bytes with AMDGPU's 8-byte i128) would step 32 bytes
    # on x86_64.
    rc, _, err = run(["opt-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-strip-debug",
                      "-passes=function(amdgpu-lower-kernel-arguments,instcombine<no-verify-fixpoint>),instnamer", pre, "-S", "-o", low])
    if rc:
        return None, f"amdgpu-lower-kernel-arguments: {first_error(err)}"
    with open(low) as f:
        text = f.read()
    with open(x86, "w") as f:
        f.write(retarget(text))
    rc, _, err = run(["llc-22", "-O0", "-mtriple=x86_64-unknown-linux-gnu", "-relocation-model=pic",
                      "-filetype=obj", x86, "-o", obj])
    if rc:
        return None, f"x86_64 llc: {first_error(err)}"
    return obj, None


def first_error(err):
    """The line of a tool's stderr that says what went wrong (the plugin's
    debug log lines left out)."""
    lines = [l for l in err.splitlines() if l.strip() and not re.match(r"\[\S* *(DEBUG|TRACE|INFO)", l)]
    for l in lines:
        if re.search(r"error|assert|panic|Segmentation|Aborted", l, re.I):
            return l.strip()[:300]
    if any("Stack dump:" in l for l in lines):
        return "crashed (signal; " + lines[0].strip()[:200] + ")"
    return (lines[0].strip() if lines else "(no output)")[:300]


_driver_lock = multiprocessing.Lock()


def driver_object(root_work):
    obj = os.path.join(root_work, "driver.o")
    with _driver_lock:
        if not os.path.exists(obj):
            tmp = obj + f".{os.getpid()}"
            rc, _, err = run(["clang-22", "-O1", "-c", os.path.join(HERE, "driver.c"), "-o", tmp])
            if rc:
                raise HarnessError(f"driver.c: {err}")
            os.replace(tmp, obj)
    return obj


def execute(kernels, layouts, obj, work, tag, root_work):
    """Runs each kernel in `kernels` (all present in obj) with kernarg bytes
    laid out by `layouts[name]`. Returns {name: (status, record bytes)}."""
    table = os.path.join(work, f"{tag}.table.c")
    with open(table, "w") as f:
        for k in kernels:
            f.write(f"extern void {k.name}(void);\n")
        f.write(f"const int abi_nkernels = {len(kernels)};\n")
        f.write("void (*const abi_kernels[])(void) = {" + ", ".join(k.name for k in kernels) + "};\n")
    exe = os.path.join(work, f"{tag}.exe")
    rc, _, err = run(["clang-22", "-O0", driver_object(root_work), table, obj, "-o", exe])
    if rc:
        return {k.name: ("error", f"link: {first_error(err)}") for k in kernels}
    blob_in = os.path.join(work, f"{tag}.in")
    blob_out = os.path.join(work, f"{tag}.out")
    with open(blob_in, "wb") as f:
        for k in kernels:
            blob = kernarg_blob(k, layouts[k.name])
            f.write(len(blob).to_bytes(4, "little") + blob + k.rec_ty.size.to_bytes(4, "little"))
    rc, _, err = run([exe, blob_in, blob_out], timeout=300)
    if rc:
        return {k.name: ("error", f"driver: {first_error(err)}") for k in kernels}
    res = {}
    with open(blob_out, "rb") as f:
        data = f.read()
    pos = 0
    for k in kernels:
        status = int.from_bytes(data[pos:pos + 4], "little", signed=True)
        size = int.from_bytes(data[pos + 4:pos + 8], "little")
        res[k.name] = (status, data[pos + 8:pos + 8 + size])
        pos += 8 + size
    return res


def kernarg_blob(k, layout):
    """The kernarg segment: junk (the same on both sides), each argument's
    value at the offset `layout` gives it."""
    r = random.Random(f"junk:{k.kid}")
    blob = bytearray(r.randbytes(KERNARG_BLOB))
    for (value, mask), (off, size, _) in zip(k.arg_bytes(), layout):
        assert size == len(value), (k.name, layout)
        for i in range(size):
            if mask[i]:
                blob[off + i] = value[i]
    return bytes(blob)


def comparable(a, b):
    return a is not None and b is not None and len(a) == len(b) and all(x[1] == y[1] for x, y in zip(a, b))


# ---------------------------------------------------------------------------
# One batch

def write_sources(kernels, work):
    os.makedirs(work, exist_ok=True)
    rust, c = abigen.crate_sources(kernels)
    rs = os.path.join(work, "k.rs")
    hip = os.path.join(work, "k.hip")
    with open(rs, "w") as f:
        f.write(rust)
    with open(hip, "w") as f:
        f.write(c)
    return rs, hip


def clang_side(kernels, work, root_work):
    """{name: {"layout", "status", "rec"}} for clang's kernels; raises
    HarnessError when the C does not compile (a generator bug)."""
    _, hip = write_sources(kernels, work)
    ll = os.path.join(work, "clang.ll")
    rc, _, err = run(["clang-22", "-x", "hip", "--cuda-device-only", "--offload-arch=gfx90a", "-nogpulib",
                      "-nogpuinc", "-O2", "-S", "-emit-llvm", hip, "-o", ll])
    if rc:
        raise HarnessError(f"clang on {hip}: {err[:3000]}")
    lay, err = layout_of(ll, work, "clang")
    if err:
        raise HarnessError(f"llc on clang's {ll}: {err[:2000]}")
    layouts = lay[0]
    obj, err = to_x86_object(ll, work, "clang")
    if err:
        raise HarnessError(f"clang side, execution: {err}")
    res = execute(kernels, layouts, obj, work, "clang", root_work)
    return {k.name: {"layout": layouts.get(k.name), "status": res[k.name][0], "rec": res[k.name][1]}
            for k in kernels}


def rust_module(kernels, setting, work, plugin):
    """Compiles kernels for `setting`; returns (ll path, stderr) or raises
    ToolFailure."""
    opt_level, debug, mode = SETTINGS[setting]
    os.makedirs(work, exist_ok=True)
    rs, _ = write_sources(kernels, work)
    ll = os.path.join(work, "rust.ll")
    cmd = ["rustc", *TARGET, f"-Copt-level={opt_level}", "-Ccodegen-units=1", "--crate-type", "cdylib",
           "--crate-name", "k", "--emit=llvm-ir", rs, "-o", ll]
    if debug:
        cmd.insert(1, "-Cdebuginfo=2")
    cmd[1:1] = RUSTC_FLAGS.get(setting, [])
    # the plugin's debug log says when a kernel's debug info did not match
    # its IR parameters (used to label failures only)
    env = {}
    if mode == "start":
        cmd.insert(1, f"-Zllvm-plugins={plugin}")
        env["OFFLOAD_PASSES_PIPELINE_START"] = PASSES
        env["RUST_LOG"] = "offload_passes=debug"
    rc, _, err = run(cmd, env=env)
    if rc:
        if mode != "start" or "error[E" in err:
            raise HarnessError(f"rustc on {rs}: {err[:3000]}")
        raise ToolFailure(f"rustc+plugin: {first_error(err)}", err)
    stderr = err
    if mode == "opt":
        out = os.path.join(work, "rust.abi.ll")
        # glibc fills freed memory with a pattern: a use after free in the
        # plugin then reads garbage and usually crashes instead of passing
        rc, _, err = run(["opt-22", f"-load-pass-plugin={plugin}", f"-passes={PASSES}", ll, "-S", "-o", out],
                         env={"MALLOC_PERTURB_": "165", "RUST_LOG": "offload_passes=debug"})
        if rc:
            raise ToolFailure(f"opt: {first_error(err)}", err)
        stderr += err
        ll = out
    return ll, stderr


class ToolFailure(Exception):
    def __init__(self, msg, full):
        super().__init__(msg)
        self.full = full


def rust_side(kernels, setting, work, plugin, clang, root_work):
    """{name: result} for the plugin's kernels at `setting`; bisects tool
    failures down to the kernels that cause them."""
    try:
        ll, stderr = rust_module(kernels, setting, work, plugin)
        lay, err = layout_of(ll, work, "rust")
        if err:
            raise ToolFailure(f"llc: {first_error(err)}", err)
    except ToolFailure as e:
        if len(kernels) == 1:
            res = {"status": "crash", "detail": str(e), "stderr": e.full[-4000:]}
            res["cause"] = root_cause(kernels[0], res, None, setting)
            return {kernels[0].name: res}
        half = len(kernels) // 2
        out = {}
        for i, part in enumerate((kernels[:half], kernels[half:])):
            out.update(rust_side(part, setting, os.path.join(work, f"b{i}"), plugin, clang, root_work))
        return out
    layouts, names, ranged, aliases = lay
    warnings = collections.defaultdict(list)
    fallback, merged_across = set(), set()
    for line in stderr.splitlines():
        if re.search(r"\bwarn(ing)?\b", line, re.I):
            for name in set(re.findall(r"\bk\d+\b", line)):
                warnings[name].append(line.strip())
        m = re.search(r"kernel '(k\d+)': debug info lists .* do not match", line)
        if m:
            fallback.add(m.group(1))
        # one rewrite that merges IR parameters of different source
        # parameters (rustc names split pieces p.0, p.1)
        m = re.search(r"kernel '(k\d+)', parameter #\d+(?:, #\d+)+ \(([^)]*)\)", line)
        if m:
            bases = {n.strip().lstrip("%").split(".")[0] for n in m.group(2).split(",")}
            if len(bases) > 1:
                merged_across.add(m.group(1))
    results = {}
    runnable = []
    for k in kernels:
        lay = layouts.get(k.name)
        res = {"layout": lay, "arg_names": names.get(k.name), "warnings": warnings.get(k.name, []),
               "subdword_range": k.name in ranged, "di_fallback": k.name in fallback,
               "merged_across": k.name in merged_across}
        results[k.name] = res
        if lay is None:
            res["status"] = "crash"
            res["detail"] = "kernel missing from the code object" + (
                f": @{k.name} became an alias of @{aliases[k.name]} (MergeFunctions), not a kernel"
                if k.name in aliases else "")
        elif comparable(lay, clang[k.name]["layout"]):
            runnable.append(k)
    if runnable:
        obj, err = to_x86_object(ll, work, "rust")
        if err:
            if len(kernels) > 1:
                # find the kernel that breaks lowering
                half = len(kernels) // 2
                out = {}
                for i, part in enumerate((kernels[:half], kernels[half:])):
                    out.update(rust_side(part, setting, os.path.join(work, f"x{i}"), plugin, clang, root_work))
                return out
            for k in runnable:
                results[k.name]["exec"] = ("error", err)
        else:
            ex = execute(runnable, layouts, obj, work, "rust", root_work)
            for k in runnable:
                results[k.name]["exec"] = ex[k.name]
            if OPTIONS["self_test"]:
                self_test(runnable, layouts, ex, obj, work, root_work, results)
    for k in kernels:
        classify(k, results[k.name], clang[k.name], setting)
    return results


def plain(t):
    """Every bit pattern of the type is a valid value, read as an integer."""
    return (isinstance(t, abigen.Scalar) and t.kind in ("uint", "sint", "float")) or \
        (isinstance(t, abigen.Ptr) and t.kind in ("const", "mut"))


def mutation(k):
    """A wrong way to read the kernel's arguments, for the self-test:
    ("swap", i, j, kernel with the two values exchanged) for two parameters
    of the same size whose exchange changes the record, or ("move", i) to
    read parameter i from junk bytes; None if neither applies."""
    sig = k.sig_params()
    exp, mask = k.expected_record()
    idx = {n: i for i, (n, _, _) in enumerate(k.params)}
    for a in range(len(sig)):
        for b in range(a + 1, len(sig)):
            (na, ta), (nb, tb) = sig[a], sig[b]
            if ta is None or tb is None:
                continue
            if not (ta.json() == tb.json() or (plain(ta) and plain(tb) and ta.size == tb.size)):
                continue
            kj = k.to_json()
            pa, pb = kj["params"][idx[na]], kj["params"][idx[nb]]
            if pa[2] == pb[2]:
                continue
            pa[2], pb[2] = pb[2], pa[2]
            swapped = abigen.fix_enum_literals(abigen.kernel_from_json(kj))
            if not masked_equal(swapped.expected_record()[0], exp, mask):
                return ("swap", a, b, swapped)
    for a, (n, t) in enumerate(sig):
        if t is not None and plain(t) and any(k.rec_param[i] == n and v is not None for i, (_, v) in enumerate(k.rec)):
            if not any(p == n for w in k.writes for p, _ in w["targets"]):
                return ("move", a)
    return None


def self_test(runnable, layouts, ex, obj, work, root_work, results):
    """Checks that the execution check notices a kernel that reads the wrong
    bytes: runs kernels again with a wrong kernarg layout, the offsets of
    two parameters of the same size exchanged (the record must then be the
    one for the exchanged values) or one parameter read from junk bytes
    (the record must differ)."""
    muts = []
    for k in runnable:
        if ex[k.name][0] != 0:
            continue
        m = mutation(k)
        if m:
            muts.append((k, m))
    if not muts:
        return
    alt = {}
    for k, m in muts:
        lay = list(layouts[k.name])
        if m[0] == "swap":
            a, b = m[1], m[2]
            lay[a], lay[b] = (lay[b][0],) + lay[a][1:], (lay[a][0],) + lay[b][1:]
        else:
            lay[m[1]] = (KERNARG_BLOB - 64,) + lay[m[1]][1:]
        alt[k.name] = lay
    ex2 = execute([k for k, _ in muts], alt, obj, work, "selftest", root_work)
    for k, m in muts:
        exp, mask = k.expected_record()
        st, rec = ex2[k.name]
        if st != 0:
            results[k.name]["self_test"] = f"detected ({m[0]}, status {st})"
        elif masked_equal(rec, exp, mask):
            results[k.name]["self_test"] = f"missed ({m[0]})"
        elif m[0] == "swap" and not masked_equal(rec, m[3].expected_record()[0], mask):
            results[k.name]["self_test"] = "detected (swap, record not the exchanged one)"
        else:
            results[k.name]["self_test"] = f"detected ({m[0]})"


def classify(k, res, cres, setting):
    if res.get("status") == "crash":
        res["cause"] = root_cause(k, res, cres, setting)
        return
    exp, mask = k.expected_record()
    if cres["status"] != 0 or not masked_equal(cres["rec"], exp, mask):
        res["status"] = "harness"
        res["detail"] = f"clang's kernel status {cres['status']}, record differs from the model: " + \
            rec_diff(k, exp, cres["rec"], mask, "expected", "clang")
        return
    layout_ok = res["layout"] == cres["layout"]
    ex = res.get("exec")
    if ex is None:
        res["exec_result"] = "not run"
    elif ex[0] == "error":
        res["exec_result"] = f"error: {ex[1]}"
    elif ex[0] != 0:
        res["exec_result"] = f"status {ex[0]}" + (f" (signal {ex[0] - 128})" if 128 < ex[0] < 256 else "")
    elif masked_equal(ex[1], cres["rec"], mask):
        res["exec_result"] = "equal"
    else:
        res["exec_result"] = "differs: " + rec_diff(k, cres["rec"], ex[1], mask, "clang", "rust")
    if not layout_ok:
        res["status"] = "layout"
        res["detail"] = layout_diff(k, res["layout"], cres["layout"])
    elif res["exec_result"] != "equal":
        res["status"] = "exec"
        res["detail"] = res["exec_result"]
    else:
        res["status"] = "ok"
    if res["status"] != "ok":
        res["class"] = coarse_class(k, res, cres)
        res["cause"] = root_cause(k, res, cres, setting)
    if res["exec_result"].startswith(("differs", "status")):
        res["exec_class"] = exec_class(k, res)


def masked_equal(a, b, mask):
    return len(a) == len(b) == len(mask) and all(not m or x == y for x, y, m in zip(a, b, mask))


def rec_diff(k, a, b, mask, an, bn):
    out = []
    for i, ((t, _), o) in enumerate(zip(k.rec, k.rec_ty.offsets)):
        sl = slice(o, o + t.size)
        m = mask[sl]
        if any(m[j] and a[o + j] != b[o + j] for j in range(t.size)):
            out.append(f"r{i} ({k.rec_src[i]}): {an} {a[sl][::-1].hex()} {bn} {b[sl][::-1].hex()}")
    return "; ".join(out[:4]) + ("; ..." if len(out) > 4 else "")


def layout_diff(k, rust, clang):
    fmt = lambda lay: " ".join(f"{o}:{s}:{v}" for o, s, v in lay) if lay else "-"
    return f"rust [{fmt(rust)}] clang [{fmt(clang)}]"


def coarse(ty):
    """A coarse name for a parameter type, to group failures."""
    A = abigen
    if isinstance(ty, A.Scalar):
        return "scalar"
    if isinstance(ty, A.Ptr):
        return f"ptr:{ty.kind}"
    if isinstance(ty, A.Opt):
        return "Option<&T>-like"
    if isinstance(ty, A.Slice):
        return "slice"
    if isinstance(ty, A.CEnum):
        return "fieldless enum"
    if isinstance(ty, A.DataEnum):
        return "enum with fields"
    if isinstance(ty, A.Union):
        return "union"
    leaves = []

    def flat(t):
        if isinstance(t, A.Struct):
            for f in t.fields:
                flat(f)
        elif isinstance(t, A.Wrapper):
            flat(t.inner)
        elif isinstance(t, A.Array):
            for _ in range(t.n):
                flat(t.elem)
        else:
            leaves.append(coarse(t))
    flat(ty)
    has_array = '"array"' in json.dumps(ty.json())
    if len(leaves) == 1:
        pointer_like = leaves[0].startswith("ptr") or leaves[0] == "Option<&T>-like"
        return f"one-leaf aggregate around {'a pointer' if pointer_like else leaves[0]}"
    if len(leaves) == 2 and not has_array and all(l in ("scalar", "Option<&T>-like", "fieldless enum") or l.startswith("ptr")
                                                  for l in leaves):
        return "two-leaf aggregate (ScalarPair)"
    return "aggregate" + (" with arrays" if has_array else "")


def attribute_args(k, layout, names):
    """Groups the plugin's kernel arguments by the source parameter they
    come from: by argument name (rustc names split pieces p.0, p.1; the
    plugin names a merged one p), unnamed ones by their named neighbours.
    Returns {source name: [args]} or None when that is ambiguous."""
    src = [n for n, _ in k.sig_params()]
    index = {n: i for i, n in enumerate(src)}
    groups = {n: [] for n in src}
    pending, last = [], -1

    def flush(upto):
        if not pending:
            return True
        between = src[last + 1:upto]
        if len(between) != 1:
            return False
        groups[between[0]].extend(pending)
        pending.clear()
        return True
    for arg, name in zip(layout, names or [None] * len(layout)):
        base = name.split(".")[0] if name else None
        if base in index and index[base] >= last:
            if not flush(index[base]):
                return None
            groups[base].append(arg)
            last = index[base]
        else:
            pending.append(arg)
    if not flush(len(src)):
        return None
    return groups


def param_symptoms(k, res, cres):
    """[(parameter index, symptom)] for parameters whose own arguments
    differ from clang's (not merely shifted by an earlier difference)."""
    groups = attribute_args(k, res["layout"] or [], res.get("arg_names"))
    if groups is None:
        return None
    out = []
    for i, ((n, t), c) in enumerate(zip(k.sig_params(), cres["layout"])):
        ra = groups[n]
        if ra == [c]:
            continue
        if not ra:
            out.append((i, "no argument"))
        elif len(ra) > 1:
            out.append((i, f"split into {len(ra)} arguments"))
        elif ra[0][1:] == c[1:]:
            if not out:
                out.append((i, "offset"))
        elif ra[0][1] == c[1]:
            out.append((i, f"{ra[0][2]} instead of {c[2]}"))
        elif ra[0][2] == "global_buffer" and c[2] == "by_value":
            out.append((i, "left as a pointer"))
        else:
            out.append((i, f"{ra[0][1]}-byte {ra[0][2]} instead of {c[1]}-byte {c[2]}"))
    return out


def coarse_class(k, res, cres):
    sig = k.sig_params()
    label = lambda i: "out pointer" if sig[i][1] is None else coarse(sig[i][1])
    if res["status"] == "layout":
        sym = param_symptoms(k, res, cres)
        if not sym:
            return "layout: (arguments not attributable to parameters)"
        if res.get("di_fallback"):
            # the plugin could not match debug info to the IR parameters and
            # used the IR-only rules for the whole kernel: name the parameter
            # that broke the match (a split it did not recognise)
            def enumish(t):
                return t is not None and any(isinstance(n, (abigen.Opt, abigen.DataEnum)) for n in abigen.walk(t))
            splits = [(i, w) for i, w in sym if w.startswith("split")]
            splits.sort(key=lambda iw: not enumish(sig[iw[0]][1]))
            i, what = splits[0] if splits else sym[0]
            return f"layout: debug info not matched (kernel falls back to IR rules): {label(i)}: {what}"
        i, what = sym[0]
        return f"layout: {label(i)}: {what}"
    return exec_class(k, res)


CAUSES = {
    "crash": "the plugin crashes (use after free in amdgpu-kernel-abi)",
    "option": "Option<&T>-like enum (a pointer) taken for an indirect aggregate",
    "onepointer": "struct around one pointer: byref at -O3, rustc's indirect pointer kept at -O0",
    "pairenum": "ScalarPair not recovered (a leaf is an enum: Option<&T>-like, or an enum with fields)",
    "greedy": "-O0: an indirect aggregate and the next parameter matched as one split pair",
    "nodebug": "no debug info: split pairs and -O0 aggregates cannot be recovered",
    "alias": "identical kernels merged into an alias by MergeFunctions (no kernel in the code object)",
    "baseline": "rustc alone (no passes)",
}


def enumish(t):
    return t is not None and any(isinstance(n, (abigen.Opt, abigen.DataEnum)) for n in abigen.walk(t))


def one_leaf(t):
    """The single leaf of a struct/wrapper/array nest, else None."""
    while isinstance(t, (abigen.Struct, abigen.Wrapper, abigen.Array)):
        kids = t.fields if isinstance(t, abigen.Struct) else [t.inner] if isinstance(t, abigen.Wrapper) else [t.elem] * t.n
        if len(kids) != 1:
            return None
        t = kids[0]
    return t


def root_cause(k, res, cres, setting):
    """Which of CAUSES explains a failure, or "other: <class>". Rules on the
    source types and the symptom; they name a cause, they do not prove it."""
    st, detail = res["status"], res.get("detail") or ""
    if st == "crash":
        return "alias" if "alias" in detail else "crash" if detail.startswith(("opt", "rustc+plugin")) \
            else f"other: {detail[:60]}"
    if st == "harness":
        return "other: harness"
    opt_level, debug, mode = SETTINGS[setting]
    if mode == "none":
        return "baseline"
    if not debug:
        return "nodebug"
    sig = k.sig_params()
    if res.get("merged_across"):
        return "greedy"
    if res.get("di_fallback"):
        sym = param_symptoms(k, res, cres)
        if any(w.startswith("split") and enumish(sig[i][1]) for i, w in sym or []):
            return "pairenum"
        if sym is None and any(enumish(t) for _, t in sig):
            return "pairenum"
        if opt_level == "0":
            return "greedy"
        return f"other: {res.get('class')}"
    if st == "exec":
        p = k.rec_param[int(re.search(r"r(\d+) \(", res["exec_result"]).group(1))] \
            if re.search(r"r(\d+) \(", res.get("exec_result", "")) else None
        # a kernel that faulted stored nothing to trace: every parameter
        cands = [dict(sig).get(p)] if p else [t for _, t in sig]
    else:
        cands = [sig[i][1] for i, _ in (param_symptoms(k, res, cres) or [])]
    for t in cands:
        if t is None:
            continue
        leaf = one_leaf(t) if not isinstance(t, abigen.Opt) else t
        if isinstance(leaf, abigen.Opt):
            return "option"
        if isinstance(leaf, abigen.Ptr) and t is not leaf:
            return "onepointer"
        if enumish(t):
            return "pairenum"
    return f"other: {res.get('class')}"


def exec_class(k, res):
    """The parameter behind the first record field that differs."""
    er = res.get("exec_result", "")
    m = re.search(r"r(\d+) \(", er)
    if m:
        p = k.rec_param[int(m.group(1))]
        t = dict(k.sig_params()).get(p)
        return f"exec: {coarse(t) if t is not None else p}: stored value differs"
    return f"exec: {er[:80]}"


def process_batch(args):
    """Worker: one batch through the clang side and every setting."""
    batch_id, kernel_jsons, settings, plugin, root_work, keep = args
    kernels = [abigen.kernel_from_json(j) for j in kernel_jsons]
    work = os.path.join(root_work, f"batch{batch_id}")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    try:
        clang = clang_side(kernels, os.path.join(work, "clang"), root_work)
    except HarnessError as e:
        return {"error": str(e), "batch": batch_id}
    out = {}
    timing = {"clang": time.time() - t0}
    for s in settings:
        t1 = time.time()
        try:
            res = rust_side(kernels, s, os.path.join(work, s), plugin, clang, root_work)
        except HarnessError as e:
            return {"error": str(e), "batch": batch_id}
        timing[s] = time.time() - t1
        for name, r in res.items():
            r.pop("exec", None)
            out.setdefault(name, {})[s] = r
    for k in kernels:
        out[k.name]["_clang_layout"] = clang[k.name]["layout"]
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {"batch": batch_id, "results": out, "timing": timing}


# ---------------------------------------------------------------------------
# Reduction

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


def check_one(kj, setting, plugin, root_work):
    """(status, result) of one kernel at one setting, or None when it cannot
    be built (a candidate the reducer should skip)."""
    try:
        k = abigen.kernel_from_json(kj)
        k = abigen.fix_enum_literals(k)
    except Exception:
        return None
    work = tempfile.mkdtemp(dir=root_work, prefix="red")
    try:
        clang = clang_side([k], os.path.join(work, "clang"), root_work)
        res = rust_side([k], setting, os.path.join(work, "rust"), plugin, clang, root_work)[k.name]
        return res["status"], res
    except HarnessError:
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


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
            ty = abigen.ty_from_json(nt)
            c["params"][i] = [n, nt, abigen.rand_value(ty, r)]
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


# ---------------------------------------------------------------------------
# Driver

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


def main():
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

    case_files = []
    if a.case_dir:
        case_files = load_cases(a.case_dir)
        settings = sorted({s for c in case_files for s in c["expected"]}, key=list(SETTINGS).index)
        kernels = [abigen.fix_enum_literals(abigen.kernel_from_json(c["kernel"])) for c in case_files]
        # one crate per case (with the kernels it needs next to it): kernels
        # of different cases must not meet (MergeFunctions could merge them)
        # (companions first: of identical kernels MergeFunctions keeps the first)
        batches = [[abigen.fix_enum_literals(abigen.kernel_from_json(j)) for j in c.get("companions", [])] + [k]
                   for c, k in zip(case_files, kernels)]
    elif a.ids:
        kernels = [abigen.make_kernel(a.seed, int(i)) for i in a.ids.split(",")]
    else:
        kernels = [abigen.make_kernel(a.seed, a.start + i) for i in range(a.kernels)]
    if not a.case_dir:
        batches = [kernels[i:i + a.batch] for i in range(0, len(kernels), a.batch)]
    tasks = [(i, [k.to_json() for k in b], settings, plugin, root_work, a.keep) for i, b in enumerate(batches)]
    t0 = time.time()
    all_results = {}
    timing = collections.Counter()
    errors = []
    if a.jobs > 1:
        with multiprocessing.Pool(a.jobs) as pool:
            outs = list(pool.imap_unordered(process_batch, tasks))
    else:
        outs = [process_batch(t) for t in tasks]
    for o in outs:
        if "error" in o:
            errors.append(o)
            continue
        all_results.update(o["results"])
        timing.update(o["timing"])
    elapsed = time.time() - t0
    if errors:
        for e in errors:
            print(f"harness error in batch {e['batch']}: {e['error'][:4000]}", file=sys.stderr)
        # report the batches that ran, then fail
        kernels = [k for k in kernels if k.name in all_results]
        if not kernels:
            sys.exit(2)
    lines, by_class, failed = summarize(all_results, settings, kernels, a.allow_warned)
    for l in lines:
        print(l)
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
    print(f"time: {elapsed:.0f}s for {len(kernels)} kernels x {len(settings)} settings (jobs {a.jobs}); "
          + ", ".join(f"{k} {v:.0f}s" for k, v in timing.items()))
    kmap = {k.name: k for k in kernels}
    if a.classes or a.reduce:
        for s in settings:
            for cls, ks in sorted(by_class[s].items(), key=lambda x: -len(x[1])):
                ex = ks[0]
                r = all_results[ex.name][s]
                print(f"  [{s}] {len(ks):4d} x {cls}")
                print(f"         e.g. {ex.describe()}")
                print(f"         {r.get('detail', '')[:300]}")
    if a.report:
        with open(a.report, "w") as f:
            json.dump({"settings": settings, "seed": a.seed, "elapsed": elapsed,
                       "kernels": {k.name: {"kernel": k.to_json(), "describe": k.describe(),
                                            "results": all_results[k.name]} for k in kernels}},
                      f, indent=1, default=str)
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


def write_case(cases_dir, kj, cls, found_at, settings, plugin, root_work, name=None):
    k = abigen.fix_enum_literals(abigen.kernel_from_json(kj))
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
        json.dump({"class": cls, "found_at": found_at, "signature": k.describe(), "rust": k.rust(),
                   "c": k.c(), "expected": expected, "kernel": kj}, f, indent=1)
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


if __name__ == "__main__":
    main()
