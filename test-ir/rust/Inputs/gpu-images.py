#!/usr/bin/env python3
"""The device images a Rust offload program embeds, checked against its launch
stubs. Usage:

    gpu-images.py CARGO_TARGET_DIR PACKAGE

checks the program CARGO_TARGET_DIR/release/PACKAGE against the stubs of its
build (OUT_DIR/offload_stubs.rs in the OUT_DIR scripts/run-example.sh recorded
in CARGO_TARGET_DIR/release/PACKAGE.offload-out, else the newest
CARGO_TARGET_DIR/release/build/PACKAGE-*/out).
PROGRAM's `.offload_passes.image` section holds one LLVM OffloadBinary per
image (magic 10 FF 10 AD; header u32 version, u64 size, u64 entry offset, u64
entry size; entry u16 image kind, u16 offload kind, u32 flags, u64 string
offset, u64 string count, u64 image offset, u64 image size; strings are
key/value offset pairs). STUBS.rs is offload-build's generated stub module
(OUT_DIR/offload_stubs.rs): each `fn kN(d: *const u64, c: *const u8, a0: T,
...)` declared with `#[link_name = "__offload_launch2.K"]` writes one 8-byte
launch slot per argument `aI`, after libomptarget's leading `dyn_ptr`.

Prints, per image, `image <triple> <arch> <bytes>`, then per kernel of the
stubs `<triple> <kernel>: <n> slots of 8 bytes` when the image's own kernel
table agrees with the stubs (n = the stub's arguments + dyn_ptr), read with the
project's ELF tooling:
  - AMDGPU code object: `.amdhsa.kernels` `.args` (test-ir/Inputs/kernarg-layout.py),
    every explicit argument 8 bytes at offset 8*i;
  - cubin: the `.nv.info.K` EIATTR_KPARAM_INFO table (test-ir/Inputs/elf-info.py),
    parameter i 8 bytes at offset 8*i;
  - x86_64: the kernels' manifests (scripts/read-manifest.py), dyn_ptr and one
    8-byte slot per parameter;
otherwise `<triple> <kernel>: MISMATCH ...` (and exit status 1).
"""
import glob
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "..", "Inputs")
REPO = os.path.join(HERE, "..", "..", "..")
SECTION = ".offload_passes.image"
MAGIC = bytes([0x10, 0xFF, 0x10, 0xAD])


def section(elf, wanted):
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx][4]
    for name, _type, _flags, _addr, offset, size in headers:
        if elf[names + name:elf.index(b"\0", names + name)].decode() == wanted:
            return elf[offset:offset + size]
    sys.exit(f"gpu-images.py: no {wanted} section")


def offload_binaries(data):
    """(triple, arch, image bytes) of each OffloadBinary in data."""
    at = data.find(MAGIC)
    while at >= 0:
        _version, size, entry_offset, _entry_size = struct.unpack_from("<IQQQ", data, at + 4)
        _kind, _offload, _flags, strings, count, image_offset, image_size = struct.unpack_from(
            "<HHIQQQQ", data, at + entry_offset)
        meta = {}
        for i in range(count):
            key, value = struct.unpack_from("<QQ", data, at + strings + 16 * i)
            cstr = lambda o: data[at + o:data.index(b"\0", at + o)].decode()
            meta[cstr(key)] = cstr(value)
        yield meta.get("triple", "?"), meta.get("arch", "?"), data[at + image_offset:at + image_offset + image_size]
        at = data.find(MAGIC, at + max(size, 1))


def stub_slots(stubs):
    """{kernel: argument count} from the stub module's launch declarations."""
    text = open(stubs).read()
    found = {}
    pattern = r'#\[link_name = "__offload_launch2\.([^"]+)"\]\s*fn k\d+\(([^)]*)\)'
    for kernel, params in re.findall(pattern, text):
        args = [p for p in params.split(",") if re.match(r"\s*a\d+:", p)]
        found[kernel] = len(args)
    if not found:
        sys.exit(f"gpu-images.py: no launch declarations in {stubs}")
    return found


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def amdgpu_slots(path):
    """{kernel: [(offset, size)]} of the code object's explicit kernel arguments."""
    out = run(sys.executable, os.path.join(INPUTS, "kernarg-layout.py"), path)
    slots = {}
    for line in out.splitlines():
        kernel, _, args = line.partition(":")
        slots[kernel.strip()] = [tuple(int(x) for x in a.split(":")[:2]) for a in args.split()]
    return slots


def cubin_slots(path):
    """{kernel: [(offset, size)]} from the cubin's parameter tables."""
    out = run(sys.executable, os.path.join(INPUTS, "elf-info.py"), path, "--data", "none")
    slots = {}
    for line in out.splitlines():
        if line.startswith("params "):
            words = line.split()
            params = words[2:words.index("total")] if "total" in words else words[2:]
            slots[words[1]] = [tuple(int(x) for x in p.split(":")) for p in params]
    return slots


def host_slots(path):
    """{kernel: [(offset, size)]} from the kernels' manifests (8-byte slots)."""
    out = run(sys.executable, os.path.join(REPO, "scripts", "read-manifest.py"), path)
    slots, kernel = {}, None
    for line in out.splitlines():
        words = line.split()
        if words[:1] == ["kernel"]:
            kernel = words[1].rstrip(":")
            slots[kernel] = [(0, 8)]  # dyn_ptr
        elif kernel and words[:1] == ["slot"]:
            slots[kernel].append((8 * len(slots[kernel]), 8))
    return slots


def main(program, stubs):
    expected = stub_slots(stubs)
    tmp = os.environ.get("TMPDIR", "/tmp")
    failed = False
    for n, (triple, arch, image) in enumerate(offload_binaries(section(open(program, "rb").read(), SECTION))):
        print(f"image {triple} {arch} {len(image)}")
        path = os.path.join(tmp, f"gpu-images-{os.getpid()}-{n}")
        with open(path, "wb") as f:
            f.write(image)
        if triple.startswith("amdgcn"):
            slots = amdgpu_slots(path)
        elif triple.startswith("nvptx"):
            slots = cubin_slots(path)
        else:
            slots = host_slots(path)
        os.remove(path)
        for kernel, count in sorted(expected.items()):
            want = [(8 * i, 8) for i in range(count + 1)]
            got = slots.get(kernel)
            if got == want:
                print(f"{triple} {kernel}: {count + 1} slots of 8 bytes")
            else:
                failed = True
                print(f"{triple} {kernel}: MISMATCH stubs write {want}, the image has {got}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    target, package = sys.argv[1:]
    # The OUT_DIR scripts/run-example.sh recorded (the kernel crate's or the
    # host crate's build script built the image), else the host crate's.
    record = os.path.join(target, "release", package + ".offload-out")
    if os.path.exists(record):
        with open(record) as f:
            stubs = [os.path.join(f.readline().strip(), "offload_stubs.rs")]
    else:
        stubs = glob.glob(os.path.join(target, "release", "build", package + "-*", "out", "offload_stubs.rs"))
    if not stubs:
        sys.exit(f"gpu-images.py: no stubs of {package} in {target}")
    main(os.path.join(target, "release", package), max(stubs, key=os.path.getmtime))
