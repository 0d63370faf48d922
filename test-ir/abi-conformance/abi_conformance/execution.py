"""Execution: AMDGPU IR -> x86_64 object, and the driver (driver.c) that
calls each kernel with its kernarg bytes and returns the record it stored."""

import multiprocessing
import os
import random
import re

from .layout import prepare_for_lowering
from .toolchain import HARNESS_DIR, HarnessError, first_error, run

KERNARG_BLOB = 4096

X86_DL = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128-A5"


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


_driver_lock = multiprocessing.Lock()


def driver_object(root_work):
    obj = os.path.join(root_work, "driver.o")
    with _driver_lock:
        if not os.path.exists(obj):
            tmp = obj + f".{os.getpid()}"
            rc, _, err = run(["clang-22", "-O1", "-c", os.path.join(HARNESS_DIR, "driver.c"), "-o", tmp])
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
