#!/usr/bin/env python3
"""Runs every fuzz/findings/*.ll reproducer through the pass its header names
and checks the outcome that file's own header expects.

Usage: check-findings.py --plugin PLUGIN [--bindir DIR] [FILE_OR_DIR...]

Each reproducer names its pass in its header command (the first
`-passes=PASS` in a `;` comment line) and says, in exactly one line, what
must happen now:

  ; EXPECT: output
      opt exits 0 within the timeout, writes the module and prints nothing
      that looks like a crash; the output parses and verifies again
      (`opt -passes=verify`, which must print nothing: no "ignoring invalid
      debug info"); a second run of the pass on it prints the same module;
      the file's `; CHECK...:` lines (FileCheck, the reproducer itself as
      the check file) hold on the output, and there must be at least one
      (the property the finding was about); opt's stderr matches the
      file's `; STDERR...:` lines, or is empty when there are none.
  ; EXPECT: error: PASS: ...
      opt exits 1 with exactly this one `error:` line, nothing that looks
      like a crash, and no output file.

A finding that is not fixed yet also has a line `; OPEN: what is wrong`: its
EXPECT line says what should happen, and that must fail (`open NAME: why`);
when it passes, the file fails (`FAILED NAME: ... drop its OPEN line`).

Prints one line per file (`ok NAME`, `open NAME: why`, `FAILED NAME: why`)
and a summary `findings: N files, M as expected, K open, 0 failed`; exits 1
when a file fails or has no expectation. Tools: opt, FileCheck from --bindir (default
$LLVM_BINDIR, which lit sets), else opt-22 and FileCheck-22 on PATH.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 20  # seconds; a normal run of a reproducer takes a few ms
CRASH = re.compile(r"Stack dump|PLEASE submit|LLVM ERROR|Broken module|internal error|panicked|Segmentation")


def tool(bindir, name):
    return os.path.join(bindir, name) if bindir else f"{name}-22"


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, None, "", f"timed out after {TIMEOUT} s")


def header(path):
    """(pass, expectations, has CHECK lines, has STDERR lines, OPEN lines) from the file's comments."""
    with open(path) as f:
        comments = [line.rstrip("\n") for line in f if line.startswith(";")]
    passes = [m[1] for line in comments for m in [re.search(r"-passes=(\S+)", line)] if m]
    expects = [line.split("EXPECT:", 1)[1].strip() for line in comments if re.match(r";\s*EXPECT:", line)]
    checks = any(re.match(r";\s*CHECK(-\w+)?:", line) for line in comments)
    stderr = any(re.match(r";\s*STDERR(-\w+)?:", line) for line in comments)
    open_ = [line for line in comments if re.match(r";\s*OPEN:", line)]
    return (passes[0] if passes else None), expects, checks, stderr, open_


def module_text(path):
    with open(path) as f:
        return "".join(line for line in f if not line.startswith("; ModuleID"))


def check_file(path, opt, filecheck, work):
    """None when the file behaves as its header expects, else why not."""
    pass_, expects, has_checks, has_stderr, _ = header(path)
    if not pass_:
        return "no `-passes=PASS` in the header"
    if len(expects) != 1:
        return f"{len(expects)} `; EXPECT:` lines in the header (need exactly one)"
    expect = expects[0]
    out = os.path.join(work, "out.ll")
    if os.path.exists(out):
        os.remove(out)
    r = run(opt + [f"-passes={pass_}", "-S", path, "-o", out])
    if r.returncode is None:
        return f"opt {r.stderr}"
    if CRASH.search(r.stderr):
        return f"opt crashed or broke the module (exit {r.returncode}):\n{r.stderr}"
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    if expect.startswith("error:"):
        if r.returncode != 1:
            return f"expected exit 1 with `{expect}`, got exit {r.returncode}; stderr:\n{r.stderr}"
        if errors != [expect]:
            return f"expected exactly the error line\n  {expect}\ngot\n  " + "\n  ".join(errors or ["(none)"])
        if os.path.exists(out):
            return "refused, but wrote an output file"
        return None
    if expect != "output":
        return f"unknown expectation `{expect}` (`output` or `error: ...`)"
    if r.returncode != 0 or not os.path.exists(out):
        return f"expected exit 0 and an output, got exit {r.returncode}; stderr:\n{r.stderr}"
    if not has_checks:
        return "EXPECT: output needs at least one `; CHECK:` line (the property the finding was about)"
    v = run([opt[0], "-passes=verify", "-disable-output", out])
    if v.returncode != 0 or v.stderr.strip():
        return f"the output does not parse or verify cleanly (exit {v.returncode}):\n{v.stderr}"
    out2 = os.path.join(work, "out2.ll")
    s = run(opt + [f"-passes={pass_}", "-S", out, "-o", out2])
    if s.returncode != 0:
        return f"a second run of {pass_} on the output exits {s.returncode}:\n{s.stderr}"
    if module_text(out) != module_text(out2):
        return f"a second run of {pass_} on the output changes it"
    fc = run([filecheck, "--check-prefix=CHECK", path, "--input-file", out])
    if fc.returncode != 0:
        return f"CHECK lines fail on the output:\n{fc.stderr}"
    if has_stderr:
        fc = run([filecheck, "--check-prefix=STDERR", path], input=r.stderr)
        if fc.returncode != 0:
            return f"STDERR lines fail on opt's stderr:\n{fc.stderr}"
    elif r.stderr.strip():
        return f"opt printed something, and the header has no `; STDERR:` lines:\n{r.stderr}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--bindir", default=os.environ.get("LLVM_BINDIR", ""))
    ap.add_argument("paths", nargs="*", default=[os.path.join(os.path.dirname(__file__), "..", "..", "fuzz", "findings")])
    args = ap.parse_args()
    files = []
    for p in args.paths:
        files += sorted(glob.glob(os.path.join(p, "*.ll"))) if os.path.isdir(p) else [p]
    if not files:
        sys.exit("check-findings: no reproducers found")
    opt = [tool(args.bindir, "opt"), f"-load-pass-plugin={args.plugin}"]
    filecheck = tool(args.bindir, "FileCheck")
    failed = opened = 0
    with tempfile.TemporaryDirectory(prefix="findings-") as work:
        for path in files:
            why = check_file(path, opt, filecheck, work)
            name = os.path.basename(path)
            if header(path)[4]:
                if why:
                    opened += 1
                    print(f"open {name}: {why}")
                    continue
                why = "passes now, but its header says OPEN: the finding is fixed, drop its OPEN line"
            if why:
                failed += 1
                print(f"FAILED {name}: {why}")
            else:
                print(f"ok {name}")
    print(f"findings: {len(files)} files, {len(files) - failed - opened} as expected, {opened} open, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
