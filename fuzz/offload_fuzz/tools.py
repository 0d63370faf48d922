"""Running the LLVM tools: one place for timeouts and the tool names."""

import subprocess

# Seconds one opt run may take before the case counts as a hang; builds
# (llc, ld.lld, rustc) get BUILD_TIMEOUT.
OPT_TIMEOUT = 20
BUILD_TIMEOUT = 300

# Return code standing for "killed after the timeout".
TIMED_OUT = -999


def run(cmd, timeout=BUILD_TIMEOUT, **kw):
    """subprocess.run with captured text output; a timeout gives a result
    with returncode TIMED_OUT instead of an exception."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, TIMED_OUT, "", f"timeout after {timeout}s")


def llvm_stress(seed, size):
    """The function llvm-stress-22 writes for a seed (the generators' bodies)."""
    return run(["llvm-stress-22", f"-seed={seed}", f"-size={size}", "-o", "-"]).stdout
