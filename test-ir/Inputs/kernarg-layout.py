#!/usr/bin/env python3
"""lit's %kernarg_layout. Usage: kernarg-layout.py FILE [LLC-OPTION...]

Prints the explicit kernel arguments of every AMDGPU kernel in FILE, one line
per kernel, sorted by name:  <kernel>: <offset>:<size>:<value_kind> ...
FILE ('-': standard input) is one of
  - LLVM IR or bitcode: compiled first with
    llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a [LLC-OPTION...] FILE -o -
  - a linked AMDGPU code object (an ELF file): read with llvm-readobj --notes
  - llc's AMDGPU assembly or llvm-readobj --notes output (holds amdhsa.kernels:)
LLVM 22's tools come from $LLVM_BINDIR (lit sets it; default
`llvm-config-22 --bindir`). Hidden arguments (hidden_*) are left out: they
follow the explicit ones and depend only on the code object version. The
layout lit tests use it to compare our output with clang's for the same C
signature."""
import os
import subprocess
import sys


def bindir():
    if "LLVM_BINDIR" in os.environ:
        return os.environ["LLVM_BINDIR"]
    out = subprocess.run(["llvm-config-22", "--bindir"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def metadata_text(path, llc_options):
    """The text holding `amdhsa.kernels:` for FILE."""
    data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    if data.startswith(b"\x7fELF"):
        if llc_options:
            sys.exit(f"kernarg-layout.py: {path} is a code object; LLC-OPTIONs make no sense: {llc_options}")
        cmd = [os.path.join(bindir(), "llvm-readobj"), "--notes", path]
    elif b"amdhsa.kernels:" in data:
        return data.decode()
    else:
        cmd = [os.path.join(bindir(), "llc"), "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a",
               *llc_options, path, "-o", "-"]
    out = subprocess.run(cmd, input=data if path == "-" else None, capture_output=True)
    sys.stderr.write(out.stderr.decode())
    if out.returncode != 0:
        sys.exit(f"kernarg-layout.py: `{' '.join(cmd)}` failed (exit {out.returncode})")
    return out.stdout.decode()


if len(sys.argv) < 2:
    sys.exit("usage: kernarg-layout.py FILE [LLC-OPTION...]")
lines = metadata_text(sys.argv[1], sys.argv[2:]).split("amdhsa.kernels:", 1)[1].splitlines()
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
