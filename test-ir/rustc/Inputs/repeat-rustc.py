#!/usr/bin/env python3
"""Runs one rustc command several times and checks every run gave the same
code. Used by parallel-codegen.test.

Usage: repeat-rustc.py --runs N --out DIR [--log] -- RUSTC ARGS...
Run i gets `--out-dir DIR/i`, its stderr goes to DIR/i.log, and the emitted
`*.ll` is written in canonical form to DIR/i.canon.ll. Exits 1 on a failed
run or when two canonical outputs differ; prints a summary for FileCheck.

Why a canonical form: amdgcn requires fat LTO, and rustc merges the codegen
units into the one that is first ready among the costliest, so the merged
module's name, function order and metadata numbering vary from run to run
even without the plugin. The canonical form keeps each function definition
and declaration, sorted by name, with attribute groups spelled out and
metadata numbers blanked; any difference in what the passes produced (a
signature, an attribute, an instruction) still shows.

With --log (run with RUST_LOG=offload_passes=debug): checks that every
stderr line is one whole log record (threads did not interleave inside a
line) and prints how many pass runs each pass logged.
"""

import argparse
import collections
import glob
import os
import re
import subprocess
import sys

LOG_LINE = re.compile(r"^\[DEBUG offload_passes_core::[\w:]+\] [\w-]+: .*$")


def canonical(text):
    groups = dict(re.findall(r"^attributes #(\d+) = (\{.*\})$", text, re.M))
    items, current = [], None
    for line in text.splitlines():
        if line.startswith("declare "):
            items.append([line])
        elif line.startswith("define "):
            current = [line]
        elif current is not None:
            if not line.startswith(";"):
                current.append(line)
            if line == "}":
                items.append(current)
                current = None
    out = []
    for item in items:
        body = "\n".join(item)
        body = re.sub(r"#(\d+)\b", lambda m: groups.get(m.group(1), m.group(0)), body)
        body = re.sub(r"!\d+\b", "!N", body)
        name = re.search(r"@([\w.$]+)\(", item[0]).group(1)
        out.append((name, body))
    return "\n\n".join(body for _, body in sorted(out)) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--log", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    os.makedirs(args.out, exist_ok=True)
    canon = []
    passes = collections.Counter()
    for i in range(args.runs):
        out_dir = os.path.join(args.out, str(i))
        res = subprocess.run(cmd + ["--out-dir", out_dir], capture_output=True, text=True)
        with open(os.path.join(args.out, f"{i}.log"), "w") as f:
            f.write(res.stderr)
        if res.returncode != 0:
            sys.exit(f"run {i} failed ({res.returncode}):\n{res.stderr[-3000:]}")
        (ll,) = glob.glob(os.path.join(out_dir, "*.ll"))
        text = canonical(open(ll).read())
        with open(os.path.join(args.out, f"{i}.canon.ll"), "w") as f:
            f.write(text)
        canon.append(text)
        if args.log:
            for line in res.stderr.splitlines():
                if line.startswith("warning") or not line.strip():
                    continue
                if not LOG_LINE.match(line):
                    sys.exit(f"run {i}: stderr line is not one whole log record: {line!r}")
                m = re.match(r"^\[DEBUG offload_passes_core::pass\] ([\w-]+): running on module", line)
                if m:
                    passes[m.group(1)] += 1
    differ = [i for i, text in enumerate(canon) if text != canon[0]]
    if differ:
        sys.exit(f"runs {differ} differ from run 0: diff {args.out}/0.canon.ll {args.out}/{differ[0]}.canon.ll")
    kernels = canon[0].count("define amdgpu_kernel ")
    print(f"{args.runs} runs, identical output, {kernels} kernels")
    for name, count in sorted(passes.items()):
        print(f"{name}: {count // args.runs} module runs per compile")


if __name__ == "__main__":
    main()
