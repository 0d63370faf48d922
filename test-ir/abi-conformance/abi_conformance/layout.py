"""Layout extraction: each kernel's explicit kernel arguments (offset, size,
value_kind) from llc-22's `.amdhsa.kernels` metadata."""

import os
import re

from .toolchain import run


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
