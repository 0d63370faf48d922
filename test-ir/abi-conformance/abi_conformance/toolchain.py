"""Running the tools (rustc, opt-22, llc-22, clang-22) and reading their
errors; the harness's own failures."""

import os
import re
import subprocess

# test-ir/abi-conformance (driver.c's directory) and the repository root.
HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(HARNESS_DIR))


class HarnessError(Exception):
    """A failure of the harness itself (the generated C does not compile,
    clang's side cannot be laid out or executed), not of the plugin."""


class ToolFailure(Exception):
    """rustc with the plugin, opt or llc failed on the plugin's side; `full`
    is the tool's stderr."""

    def __init__(self, msg, full):
        super().__init__(msg)
        self.full = full


def run(cmd, env=None, timeout=600):
    """(returncode, stdout, stderr) of a tool, with the caller's plugin
    variables removed, RUSTC_BOOTSTRAP=1 (rustc's -Z flags) and `env` added."""
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
