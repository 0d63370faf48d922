"""The oracle: runs one module through one pipeline and says whether the
plugin behaved.

A case is
- ok: opt exits 0; the output parses, verifies and keeps its debug info
  (plain `opt-22 -passes=verify`); a second run of the pipeline on it
  (after `-passes=lint` for pipelines with byref-callee-copy: no "Write to
  memory in const addrspace") prints the same module; and the generator's
  own checks of the output hold (launch counts, llc, kernel signatures);
- unsupported: a pass the generator said may refuse this input refused it
  cleanly: exit 1, `error: <pass>: ...` (naming the kernel, parameter and
  reason where the generator says which), no crash, no "internal error", no
  output file;
- failed: anything else, with a failure class (FAILURE_CLASSES) and a log.
"""

import os
import re

from .tools import TIMED_OUT, run

# How a pass error starts. Pass errors are LLVM error diagnostics,
# `error: <pass>: <message>`; this is the one place that knows it.
ERROR_PREFIX = "error: "

INVALID_DEBUG_INFO = "ignoring invalid debug info"


def pass_error(name):
    """The text a refusal by pass `name` starts with."""
    return f"{ERROR_PREFIX}{name}: "


def pass_name(p):
    return p.split("<")[0]


class Refusal:
    """A pass may refuse the input. `text`: the error must contain it;
    `kernel`: the error must name `kernel 'K'`; `params`: it must also name
    one of these parameter indexes (`parameter #i`)."""

    def __init__(self, why, text=None, kernel=None, params=None):
        self.why = why
        self.text = text
        self.kernel = kernel
        self.params = params

    def mismatch(self, err):
        """None when `err` refuses for this reason, else (failure class,
        what is missing)."""
        if self.text is not None and self.text not in err:
            return "refusal with another reason", f"not with '{self.text}'"
        if self.kernel is not None and f"kernel '{self.kernel}'" not in err:
            return "refusal not naming the kernel", f"without naming kernel '{self.kernel}'"
        if self.params is not None and not any(f"parameter #{i}" in err for i in self.params):
            names = " or ".join(f"#{i}" for i in sorted(self.params))
            return "refusal not naming the parameter", f"without naming parameter {names}"
        return None


class Expect:
    """What the oracle accepts for one generated module."""

    def __init__(self):
        self.refusals = {}       # pass name -> Refusal
        self.counts = {}         # text -> times it must occur in the output's calls
        self.pipeline_params = ""  # appended to the host pass's parameters
        # (pass name or None, check): check(output text) returns None or
        # (failure class, detail); run for pipelines containing that pass
        # ("!pass": for pipelines without it; None: for every pipeline).
        self.output_checks = []
        self.variant = ""        # what the generator made (a lie, a kind of kernel), for grouping failures

    def refuse(self, pass_, why, **kw):
        self.refusals[pass_] = Refusal(why, **kw)


def strip_id(path):
    with open(path) as f:
        return "".join(line for line in f if not line.startswith("; ModuleID"))


def tail(s, n=4000):
    return s[-n:]


def crash_class(r, err):
    """The failure class of a run that did not end in a clean error, or None."""
    if r.returncode == TIMED_OUT:
        return "hang (timeout)"
    if "Broken module found" in err:
        return "Broken module found"
    if "internal error" in err:
        return "internal error"
    if r.returncode < 0:
        return f"crash (signal {-r.returncode})"
    if "Stack dump" in err or "PLEASE submit a bug report" in err:
        return "crash (stack dump)"
    if "LLVM ERROR" in err:
        return "LLVM ERROR"
    return None


def judge_refusal(r, err, pipeline, expect, src, out1):
    """(status, class, detail) for a first run that exited non-zero."""
    if re.search(re.escape(src) + r":\d+:\d+: error:", err):
        return "failed", "generator: input does not parse", tail(err)
    klass = crash_class(r, err)
    if klass:
        return "failed", klass, f"opt exited {r.returncode}:\n{tail(err)}"
    if os.path.exists(out1):
        return "failed", "failed run left an output file", tail(err)
    if r.returncode != 1 or ERROR_PREFIX not in err:
        return "failed", "opt failed without a pass error", f"opt exited {r.returncode}:\n{tail(err)}"
    refusing = [pass_name(p) for p in pipeline.split(",") if pass_error(pass_name(p)) in err]
    allowed = [p for p in refusing if p in expect.refusals]
    if not allowed:
        return "failed", "unexpected refusal", f"opt exited {r.returncode}:\n{tail(err)}"
    for p in allowed:
        missing = expect.refusals[p].mismatch(err)
        if missing:
            return "failed", missing[0], f"refused, but {missing[1]}:\n{tail(err)}"
    return "unsupported", None, err.splitlines()[-1]


def check_case(ctx, name, pipeline, checks, src, expect, work):
    """Returns (status, failure class or None, detail); status is 'ok',
    'unsupported' or 'failed'."""
    lint = "lint" in checks
    out1 = os.path.join(work, f"{name}.1.ll")
    out2 = os.path.join(work, f"{name}.2.ll")
    plugin = f"-load-pass-plugin={ctx.plugin}"
    r = run([ctx.opt, plugin, f"-passes={pipeline}", "-S", src, "-o", out1], timeout=ctx.timeout)
    err = r.stderr.strip()
    if r.returncode != 0:
        return judge_refusal(r, err, pipeline, expect, src, out1)
    if INVALID_DEBUG_INFO in err:
        return "failed", "generator: input debug info is invalid", tail(err)
    # The output must parse and verify on its own, debug info included.
    r = run([ctx.opt, "-passes=verify", "-disable-output", out1], timeout=ctx.timeout)
    if r.returncode != 0:
        klass = "output does not verify" if "input module is broken" in r.stderr else "output does not parse"
        return "failed", klass, tail(r.stderr)
    if INVALID_DEBUG_INFO in r.stderr:
        return "failed", "output has invalid debug info", tail(r.stderr)
    # The second run: lint (first, on that input) finds no write to the
    # constant address space, and the pipeline then changes nothing.
    second = [ctx.opt, plugin, "-S", f"-passes={'function(lint),' if lint else ''}{pipeline}"]
    r = run(second + [out1, "-o", out2], timeout=ctx.timeout)
    if r.returncode != 0:
        klass = crash_class(r, r.stderr) or "second run failed"
        return "failed", klass, f"second run exited {r.returncode}:\n{tail(r.stderr)}"
    if lint and "Write to memory in const addrspace" in r.stderr:
        return "failed", "lint: write to constant memory", f"lint after {pipeline}:\n{tail(r.stderr)}"
    if strip_id(out1) != strip_id(out2):
        d = run(["diff", out1, out2])
        return "failed", "second run changed the module", f"second run changed the module:\n{tail(d.stdout)}"
    return output_checks(ctx, name, pipeline, checks, expect, out1, work)


def output_checks(ctx, name, pipeline, checks, expect, out1, work):
    """The generator's checks of a good output."""
    with open(out1) as f:
        output = f.read()
    if expect.counts:
        calls = [line for line in output.splitlines(True) if " call " in line or "= call " in line]
        for needle, want in expect.counts.items():
            got = sum(line.count(needle) for line in calls)
            if got != want:
                return "failed", "launch count", f"{got} calls of {needle} in the output, expected {want}"
    passes = {pass_name(p) for p in pipeline.split(",")}
    for needed, check in expect.output_checks:
        if needed is None or (needed[1:] not in passes if needed.startswith("!") else needed in passes):
            found = check(output)
            if found:
                return "failed", found[0], found[1]
    if "llc" in checks:
        r = run(["llc-22", "-filetype=obj", out1, "-o", os.path.join(work, f"{name}.o")])
        if r.returncode != 0:
            return "failed", "llc failed", f"llc-22 on the output exited {r.returncode}:\n{tail(r.stderr)}"
    return "ok", None, ""


RUN_REPORTS = ("opt exited", "second run exited", "refused, but", "lint after", "llc-22 on the output",
               "output does not", "second run changed")


def error_signature(detail):
    """A failure's key line with names and numbers blanked, for grouping:
    the detail's first line, or for a report of a run, the first line of
    its output that says what went wrong."""
    frame = re.search(r"offload_passes\w*::[\w:]+?(?=::h[0-9a-f]{16}|\s)", detail)
    if "Stack dump" in detail and frame:
        return f"crash in {frame[0]}"
    lines = [l for l in detail.split(": ", 1)[-1].splitlines() if l.strip()]
    key = lines[0] if lines else ""
    if key.startswith(RUN_REPORTS) or not key:
        rest = lines[1:]
        key = next((l for l in rest if re.search(r"error|LLVM|Undefined behavior|^[-+<>] ", l)
                    and "ModuleID" not in l),
                   rest[0] if rest else key)
    key = re.sub(r"(/[\w.+-]+)+", "FILE", key)
    key = re.sub(r"'[^']*'", "'_'", key)
    key = re.sub(r"`[^`]*`", "`_`", key)  # quoted IR (a musttail call, ...)
    key = re.sub(r"%[\w.]+", "%_", key)
    key = re.sub(r"\d+", "N", key)
    return key.strip()[:160]
