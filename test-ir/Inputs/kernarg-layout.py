#!/usr/bin/env python3
"""Prints the explicit kernel arguments of every kernel in an AMDGPU assembly
file (llc-22 -mtriple=amdgcn-amd-amdhsa output), one line per kernel, sorted
by name:  <kernel>: <offset>:<size>:<value_kind> ...
Hidden arguments (hidden_*) are left out: they follow the explicit ones and
depend only on the code object version. The layout lit tests use it to
compare our output with clang's for the same C signature."""
import sys

lines = open(sys.argv[1]).read().split("amdhsa.kernels:", 1)[1].splitlines()
kernels = []  # [name, [args]]
for line in lines:
    if line.startswith("  - "):  # a new kernel
        kernels.append([None, []])
        line = "    " + line[4:]
    if not kernels:
        continue
    if line.startswith("      - "):  # a new argument
        kernels[-1][1].append({})
        line = "        " + line[8:]
    key, _, value = line.strip().partition(":")
    if line.startswith("    .") and not line.startswith("     ") and key == ".name":
        kernels[-1][0] = value.strip()
    elif line.startswith("        .") and kernels[-1][1]:
        kernels[-1][1][-1][key[1:]] = value.strip()
    elif line.startswith(".end_amdgpu_metadata"):
        break
for name, args in sorted(kernels, key=lambda k: k[0] or ""):
    shown = [f"{a['offset']}:{a['size']}:{a['value_kind']}" for a in args
             if not a.get("value_kind", "").startswith("hidden")]
    print(f"{name}: {' '.join(shown)}")
