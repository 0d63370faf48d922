"""The two sides of a batch: clang's kernels from the HIP C, and the
plugin's from rustc at one setting, each laid out and executed; tool
failures on the plugin's side are bisected down to the kernels causing them."""

import collections
import os
import re

from .causes import root_cause
from .classify import classify
from .execution import comparable, execute, to_x86_object
from .generate import crate_sources
from .layout import layout_of
from .selftest import self_test
from .settings import OPTIONS, PASSES, RUSTC_FLAGS, SETTINGS, TARGET
from .toolchain import HarnessError, ToolFailure, first_error, run


def write_sources(kernels, work):
    os.makedirs(work, exist_ok=True)
    rust, c = crate_sources(kernels)
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
    warnings, fallback, merged_across = read_plugin_log(stderr)
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


def read_plugin_log(stderr):
    """What the plugin said per kernel, from its warnings and debug log:
    ({kernel: [warning lines]}, kernels whose debug info did not match their
    IR parameters, kernels where one rewrite merged IR parameters of
    different source parameters)."""
    warnings = collections.defaultdict(list)
    fallback, merged_across = set(), set()
    for line in stderr.splitlines():
        if re.search(r"\bwarn(ing)?\b", line, re.I):
            for name in set(re.findall(r"\bk\d+\b", line)):
                warnings[name].append(line.strip())
        m = re.search(r"kernel '(k\d+)': debug info lists .* do not match", line)
        if m:
            fallback.add(m.group(1))
        # rustc names split pieces p.0, p.1
        m = re.search(r"kernel '(k\d+)', parameter #\d+(?:, #\d+)+ \(([^)]*)\)", line)
        if m:
            bases = {n.strip().lstrip("%").split(".")[0] for n in m.group(2).split(",")}
            if len(bases) > 1:
                merged_across.add(m.group(1))
    return warnings, fallback, merged_across
