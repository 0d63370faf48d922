"""The image families: mutated device images given to offload-host.

offload-host reads the image named by `image=` in the process it runs in
(opt, or rustc with the plugin), so every byte of it is untrusted input.
Each family starts from one sound image built here (from IMAGE_DEVICE_IR,
or the repository's cubin fixture) and mutates it per case, with a seeded
`random.Random(seed)`: bit flips, bytes and little-endian words set to edge
values (0, 1, -1, 2^31, 2^40, the file's length +- 1, ...), truncation,
and chunks deleted or repeated. Half the mutations of the ELF families aim
at the ELF header, the program and section header tables and the note
sections (where the reader's offsets and sizes come from); family
`manifest` mutates only the kernel manifest note's bytes; `offload-binary`
mutates the OffloadBinary header, entry and string table around a sound
ELF.

A case runs `opt-22 -passes=offload-host<image=MUTANT>` on HOST_IR under
`ulimit -v` (MEMORY_KIB) and a timeout. The oracle: exit 0, or exit 1 with
the first line `error: offload-host: ` and no crash report; anything else
(a signal, another status, a crash report, a timeout) is a failure.
"""

import os
import random
import struct
import subprocess
import tempfile

from .tools import TIMED_OUT, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Two kernels (a pointer, an i32, a double, a struct by value) the host
# launches with matching arguments, so a sound image gives exit 0.
IMAGE_DEVICE_IR = """
%S = type { i32, double }
define void @scale(ptr %p, i32 %n, double %f) !offload.kernel !0 {
  ret void
}
define void @pair(ptr byval(%S) align 8 %s, i64 %x) !offload.kernel !0 {
  ret void
}
!0 = !{}
"""

HOST_IR = """
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%S = type { i32, double }
declare void @scale(ptr dereferenceable(64), i32, double)
declare void @pair(ptr byval(%S) align 8, i64)
define void @f(ptr %p, ptr %s) {
  call void @scale(ptr %p, i32 3, double 2.0), !offload.launch !0
  call void @pair(ptr byval(%S) align 8 %s, i64 7), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}
"""

# What the mutant's opt may map, in KiB (the bitcode reader's child gets
# what is left of it).
MEMORY_KIB = 4 << 20

FAMILIES = ["elf-x86", "elf-amdgpu", "cubin", "bitcode", "offload-binary", "manifest"]

EDGE_U32 = [0, 1, 2, 4, 7, 8, 15, 16, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
EDGE_U64 = EDGE_U32 + [1 << 32, 1 << 40, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]


def build_seeds(work, plugin, opt="opt-22"):
    """The sound image of each family, by name (bytes)."""
    bindir = subprocess.run(["llvm-config-22", "--bindir"], capture_output=True, text=True).stdout.strip()
    tool = lambda name: os.path.join(bindir, name)  # noqa: E731
    seeds = {}

    def must(cmd):
        r = run(cmd)
        if r.returncode != 0:
            raise SystemExit(f"building the seed images failed: {' '.join(cmd)}\n{r.stderr}")

    for name, triple, cpu in [("elf-x86", "x86_64-unknown-linux-gnu", None),
                              ("elf-amdgpu", "amdgcn-amd-amdhsa", "gfx90a")]:
        base = os.path.join(work, name)
        dev = base + ".ll"
        with open(dev, "w") as f:
            # AMDGPU kernels are amdgpu_kernel functions, which take no
            # byval (the struct by value instead: the same 16 bytes).
            f.write(IMAGE_DEVICE_IR.replace("define void", "define amdgpu_kernel void")
                    .replace("ptr byval(%S) align 8 %s", "%S %s") if cpu else IMAGE_DEVICE_IR)
        must([opt, f"-load-pass-plugin={plugin}", "-passes=offload-wrap-kernels",
              f"-mtriple={triple}", dev, "-o", base + ".bc"])
        llc = [tool("llc"), "-O2", "-relocation-model=pic", "-filetype=obj", f"-mtriple={triple}",
               base + ".bc", "-o", base + ".o"]
        must(llc + ([f"-mcpu={cpu}"] if cpu else []))
        must([tool("ld.lld"), "-shared", base + ".o", "-o", base + ".so"])
        seeds[name] = open(base + ".so", "rb").read()
    base = os.path.join(work, "nvptx")
    dev = base + ".ll"
    with open(dev, "w") as f:
        f.write(IMAGE_DEVICE_IR.replace("define void", "define ptx_kernel void"))
    must([opt, f"-load-pass-plugin={plugin}", "-passes=offload-wrap-kernels",
          "-mtriple=nvptx64-nvidia-cuda", dev, "-o", base + ".bc"])
    seeds["bitcode"] = open(base + ".bc", "rb").read()
    seeds["cubin"] = open(os.path.join(ROOT, "passes", "testdata", "kernels.sm_90.cubin"), "rb").read()
    must([tool("llvm-offload-binary"), "-o", base + ".bin",
          f"--image=file={os.path.join(work, 'elf-x86.so')},triple=x86_64-unknown-linux-gnu,arch=generic,kind=openmp"])
    seeds["offload-binary"] = open(base + ".bin", "rb").read()
    seeds["manifest"] = seeds["elf-x86"]
    return seeds


def elf_hot_ranges(b):
    """Byte ranges of an ELF64 the reader takes offsets and sizes from."""
    if len(b) < 64 or b[:4] != b"\x7fELF":
        return [(0, len(b))]
    phoff, shoff = struct.unpack_from("<QQ", b, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", b, 0x36)
    ranges = [(0, 64), (phoff, phoff + phentsize * phnum), (shoff, shoff + shentsize * shnum)]
    for i in range(shnum):
        at = shoff + i * shentsize
        if at + 64 > len(b):
            break
        kind, = struct.unpack_from("<I", b, at + 4)
        offset, size = struct.unpack_from("<QQ", b, at + 24)
        if kind in (7, 2, 11, 3):  # notes, symbol and string tables
            ranges.append((offset, offset + size))
    return [(lo, min(hi, len(b))) for lo, hi in ranges if lo < min(hi, len(b))]


def manifest_ranges(b):
    """The kernel manifest notes of an ELF64 (owner offload-passes)."""
    needle = b"offload-passes\0"
    out, at = [], b.find(needle)
    while at >= 12:
        namesz, descsz, _ = struct.unpack_from("<III", b, at - 12)
        if namesz == len(needle):
            out.append((at - 12, min(len(b), at + 16 + descsz)))
        at = b.find(needle, at + 1)
    return out or [(0, len(b))]


def offload_binary_ranges(b):
    """An OffloadBinary's header, entry and strings (before its image)."""
    image_at, = struct.unpack_from("<Q", b, 32 + 24)
    return [(0, min(image_at, len(b)))]


def mutate(seed_bytes, family, rnd):
    """One mutant of `seed_bytes` for `family`."""
    b = bytearray(seed_bytes)
    if family == "manifest":
        hot = manifest_ranges(b)
    elif family == "offload-binary":
        hot = offload_binary_ranges(b)
    elif family == "bitcode":
        hot = [(0, len(b))]
    else:
        hot = elf_hot_ranges(b)
    for _ in range(rnd.choice([1, 1, 1, 2, 3, 4])):
        lo, hi = rnd.choice(hot) if (family == "manifest" or rnd.random() < 0.5) else (0, len(b))
        hi = min(hi, len(b))
        if hi <= lo:
            continue
        at = rnd.randrange(lo, hi)
        op = rnd.randrange(7)
        if op == 0 or family == "bitcode" and op < 4:
            b[at] ^= 1 << rnd.randrange(8)
        elif op == 1:
            b[at] = rnd.choice([0, 1, 0x7F, 0x80, 0xFF, rnd.randrange(256)])
        elif op == 2 and at + 4 <= len(b):
            at -= at % 4 if family != "bitcode" else 0
            v = rnd.choice(EDGE_U32 + [len(b), len(b) - 1, len(b) + 1])
            struct.pack_into("<I", b, at, v & 0xFFFFFFFF)
        elif op == 3 and at + 8 <= len(b):
            at -= at % 8
            v = rnd.choice(EDGE_U64 + [len(b), len(b) + 4096])
            struct.pack_into("<Q", b, at, v & ((1 << 64) - 1))
        elif op == 4 and family != "manifest":
            del b[rnd.randrange(1, len(b)):]
        elif op == 5:
            n = rnd.randrange(1, 64)
            del b[at:at + n]
        else:
            n = rnd.randrange(1, 64)
            b[at:at] = b[at:at + n]
    return bytes(b)


def judge(r):
    """None when the run passes the oracle, else the failure's class."""
    err = r.stderr or ""
    if r.returncode == TIMED_OUT:
        return "hang"
    if "PLEASE submit a bug report" in err or "Stack dump" in err:
        return "crash report"
    if r.returncode < 0:
        return f"signal {-r.returncode}"
    if r.returncode == 0:
        return None
    if r.returncode == 1 and err.startswith("error: offload-host: "):
        return None
    return f"exit {r.returncode}: {err.splitlines()[0][:120] if err else '(no message)'}"


def run_case(ctx, family, seed):
    """(family, seed, outcome, failure) for one mutant."""
    rnd = random.Random(f"{family}/{seed}")
    data = mutate(ctx.seeds[family], family, rnd)
    path = os.path.join(ctx.work, f"{family}-{seed}.img")
    with open(path, "wb") as f:
        f.write(data)
    cmd = (f"ulimit -v {MEMORY_KIB}; exec {ctx.opt} -load-pass-plugin={ctx.plugin} "
           f"'-passes=offload-host<image={path}>' {ctx.host} -disable-output")
    r = run(["bash", "-c", cmd], timeout=ctx.timeout)
    failure = judge(r)
    if failure is None:
        os.unlink(path)
        return family, seed, ("ok" if r.returncode == 0 else "refused"), None
    kept = os.path.join(ctx.keep, f"{family}-{seed}.img")
    os.makedirs(ctx.keep, exist_ok=True)
    os.replace(path, kept)
    with open(kept + ".log", "w") as f:
        f.write(f"{failure}\n$ {cmd}\n{r.stderr}")
    return family, seed, "failed", failure


class Context:
    def __init__(self, args):
        self.opt, self.plugin, self.timeout = args.opt, args.plugin, args.timeout
        self.keep = args.keep
        self.work = tempfile.mkdtemp(prefix="offload-image-fuzz-")
        self.seeds = build_seeds(self.work, self.plugin, self.opt)
        self.host = os.path.join(self.work, "host.ll")
        with open(self.host, "w") as f:
            f.write(HOST_IR)
        for family in FAMILIES:
            path = os.path.join(self.work, f"sound-{family}.img")
            with open(path, "wb") as f:
                f.write(self.seeds[family])
            r = run([self.opt, f"-load-pass-plugin={self.plugin}",
                     f"-passes=offload-host<image={path}>", self.host, "-disable-output"])
            # (The cubin fixture's kernels take other arguments: a clean
            # refusal.)
            if judge(r) is not None or (r.returncode != 0 and family != "cubin"):
                raise SystemExit(f"the sound {family} image fails:\n{r.stderr}")
