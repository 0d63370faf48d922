#!/usr/bin/env python3
"""Hand-written host and device IR for the clang-peer experiments (issue 11,
parts 4 and 5). Not used by the passes: it writes, as LLVM IR text, the
layouts the design note (notes.md) compares, so each can be compiled, linked
against clang-22's OpenMP objects and run on libomptarget's host plugin.

    hostgen.py device --kernel K:BYTES -o dev.ll
        Device module: K(ptr %b) adds 1 to each of the BYTES/4 i32s of b,
        marked !offload.kernel (run offload-wrap-kernels on it). With
        --wrapped it is written already in the launch signature
        K(ptr %dyn_ptr, ptr %b).

    hostgen.py natural --kernel K:BYTES -o host.ll
        Host module in offload-host's launch contract (a call of
        `declare void @K(ptr dereferenceable(BYTES))` in a loop): the input
        for today's `offload-host<image=...>`.

    hostgen.py host --image dev.so --kernel K:BYTES [layout options] -o host.ll
        Host module with everything offload-host would emit, written out:
          --embed bare      the raw ELF in .llvm.offloading (today)
          --embed ob        the whole OffloadBinary in .llvm.offloading,
                            ImageStart at the inner ELF (OffloadWrapper)
          --embed ob-none   same, OffloadBinary offload kind OFK_None
          --embed ob-private  the OffloadBinary in a section that is not
                            SHT_LLVM_OFFLOADING (".offload_passes.image")
          --embed ob-exclude  what clang's compile step embeds: the
                            OffloadBinary of --image (then a relocatable
                            device object or bitcode) as @llvm.embedded.object,
                            !exclude (SHF_EXCLUDE), for clang-linker-wrapper
                            to link; use with --entries clang
          --ob-kind N       image kind in the OffloadBinary (1 = IMG_Object)
          --ob-triple T / --ob-arch A   strings in the OffloadBinary
          --entries array-clang-section  one internal array in
                            llvm_offload_entries (today)
          --entries array-own  one internal array in its own section
                            (offload_passes_entries), not clang's
          --entries clang  one weak @.offloading.entry.K per kernel in
                            llvm_offload_entries and NO registration of our
                            own: clang-linker-wrapper must register the image
          --entries start-stop  one weak @.offloading.entry.K per kernel in
                            llvm_offload_entries, our descriptor takes
                            __start_/__stop_llvm_offload_entries
          --dedup           image, names, entries, descriptor and constructor in
                            one comdat named after the image global, which
                            carries the image's content hash, linkonce_odr
                            hidden; region ids .K.region_id.HASH
          --launch split    begin mapper + __tgt_target_kernel + end mapper
                            (today's lowering)
          --launch onecall  one __tgt_target_kernel carrying the map types
                            (TARGET_PARAM|TO|FROM) in __tgt_kernel_arguments,
                            as clang does
          --device N, --teams N, --threads N   __tgt_target_kernel's device,
                            NumTeams[0] and ThreadLimit[0] (defaults -1, 0, 0:
                            what offload-host passes)
          --region          a data region around the loop (begin mapper TO
                            before it, end mapper FROM after it); with
                            `natural`, __offload_data_begin/end calls
          --func NAME       the launching function, `i32 NAME(i64 n)`: n
                            launches on one zeroed buffer, returns its first
                            i32 (default: part)
          --main            also a `main(argc, argv)`: n = argv[1] (default 1),
                            prints "sum = S" and returns S != n * BYTES/4

All kernels of --kernel get entries (several --kernel are allowed; the first
one is launched).
"""

import argparse
import hashlib
import struct
import sys

DATALAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
TRIPLE = "x86_64-unknown-linux-gnu"

TO, FROM, TARGET_PARAM = 0x1, 0x2, 0x20
# The magic bytes 10 FF 10 AD in this order (file_magic::offload_binary).
OB_MAGIC = b"\x10\xff\x10\xad"
OFK_NONE, OFK_OPENMP = 0, 1
IMG_OBJECT = 1


def header():
    return f'target datalayout = "{DATALAYOUT}"\ntarget triple = "{TRIPLE}"\n\n'


def parse_kernels(specs):
    kernels = []
    for spec in specs:
        name, _, size = spec.partition(":")
        size = int(size or 4)
        if size % 4:
            sys.exit(f"kernel {name}: BYTES must be a multiple of 4")
        kernels.append((name, size))
    return kernels


def ir_bytes(data):
    """An LLVM IR c"..." string of `data`."""
    out = []
    for b in data:
        if 0x20 <= b < 0x7F and b not in (0x22, 0x5C):
            out.append(chr(b))
        else:
            out.append(f"\\{b:02X}")
    return 'c"' + "".join(out) + '"'


def align8(n):
    return (n + 7) & ~7


def offload_binary(image, offload_kind, image_kind, strings):
    """An OffloadBinary (version 1) holding one image, laid out as LLVM's
    OffloadBinary::write does: header (32 bytes), one entry (40), the string
    entries (16 each), the string table, the image at an 8-aligned offset, the
    total padded to 8. Returns (bytes, image offset)."""
    entry_off = 32
    str_entries_off = entry_off + 40
    table_off = str_entries_off + 16 * len(strings)
    table = bytearray(b"\0")
    offsets = []
    for key, value in strings:
        k = table_off + len(table)
        table += key.encode() + b"\0"
        v = table_off + len(table)
        table += value.encode() + b"\0"
        offsets.append((k, v))
    image_off = align8(table_off + len(table))
    total = align8(image_off + len(image))
    out = bytearray()
    out += OB_MAGIC + struct.pack("<IQQQ", 1, total, entry_off, 40)
    out += struct.pack("<HHIQQQQ", image_kind, offload_kind, 0, str_entries_off,
                       len(strings), image_off, len(image))
    for k, v in offsets:
        out += struct.pack("<QQ", k, v)
    out += table
    out += b"\0" * (image_off - len(out))
    out += image
    out += b"\0" * (total - len(out))
    return bytes(out), image_off


def device_module(kernels, wrapped):
    s = header()
    for name, size in kernels:
        words = size // 4
        params = "ptr %dyn_ptr, ptr %b" if wrapped else "ptr %b"
        md = " !offload.wrapped !0" if wrapped else " !offload.kernel !0"
        s += f"""define void @{name}({params}){md} {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds i32, ptr %b, i64 %i
  %v = load i32, ptr %p, align 4
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %p, align 4
  %i1 = add nuw i64 %i, 1
  %more = icmp ult i64 %i1, {words}
  br i1 %more, label %loop, label %exit
exit:
  ret void
}}

"""
    s += "!0 = !{}\n"
    return s


def loop_function(func, size, call_lines, allocas="", pre="", post=""):
    """`i32 func(i64 n)`: n launches on a zeroed buffer of `size` bytes;
    returns its first i32. call_lines use %buf; `pre` runs before the loop
    and `post` after it (a data region around the launches)."""
    return f"""define i32 @{func}(i64 %n) {{
entry:
  %buf = alloca [{size} x i8], align 16
{allocas}  call void @llvm.memset.p0.i64(ptr align 16 %buf, i8 0, i64 {size}, i1 false)
{pre}  %none = icmp sle i64 %n, 0
  br i1 %none, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
{call_lines}  %i1 = add nuw i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
{post}  %r = load i32, ptr %buf, align 16
  ret i32 %r
}}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

"""


def main_function(func, size):
    words = size // 4
    return f"""@.fmt.sum = private unnamed_addr constant [10 x i8] c"sum = %d\\0A\\00"

define i32 @main(i32 %argc, ptr %argv) {{
entry:
  %has = icmp sgt i32 %argc, 1
  br i1 %has, label %parse, label %run
parse:
  %a1p = getelementptr inbounds ptr, ptr %argv, i64 1
  %a1 = load ptr, ptr %a1p, align 8
  %parsed = call i64 @atol(ptr %a1)
  br label %run
run:
  %n = phi i64 [ 1, %entry ], [ %parsed, %parse ]
  %s = call i32 @{func}(i64 %n)
  %pr = call i32 (ptr, ...) @printf(ptr @.fmt.sum, i32 %s)
  %s64 = sext i32 %s to i64
  %want = mul i64 %n, 1
  %bad = icmp ne i64 %s64, %want
  %rc = zext i1 %bad to i32
  ret i32 %rc
}}
; {words} i32s per buffer; the first one counts the launches.

declare i64 @atol(ptr)
declare i32 @printf(ptr, ...)

"""


def natural_host(kernels, func, with_main, region):
    name, size = kernels[0]
    s = header()
    s += f"declare void @{name}(ptr dereferenceable({size}))\n\n"
    pre = post = ""
    if region:
        s += "declare void @__offload_data_begin(ptr, i64, i64)\ndeclare void @__offload_data_end(ptr, i64, i64)\n\n"
        pre = f"  call void @__offload_data_begin(ptr %buf, i64 {size}, i64 {TO})\n"
        post = f"  call void @__offload_data_end(ptr %buf, i64 {size}, i64 {FROM})\n"
    s += loop_function(func, size, f"  call void @{name}(ptr %buf)\n", pre=pre, post=post)
    if with_main:
        s += main_function(func, size)
    return s


def host_module(args, kernels):
    image = open(args.image, "rb").read()
    if args.embed == "bare":
        blob, start = image, 0
        section = ".llvm.offloading"
    else:
        okind = OFK_NONE if args.embed == "ob-none" else OFK_OPENMP
        strings = [("triple", args.ob_triple)]
        if args.ob_arch:
            strings.append(("arch", args.ob_arch))
        blob, start = offload_binary(image, okind, args.ob_kind, strings)
        section = ".offload_passes.image" if args.embed == "ob-private" else ".llvm.offloading"
    # The content key: the embedded bytes (OffloadBinary included).
    digest = hashlib.sha256(blob).hexdigest()[:16]
    sfx = f".{digest}" if args.dedup else ""
    # The comdat is named after the image global: LLVM puts a constructor
    # keyed by a global (third field of llvm.global_ctors) in a group whose
    # signature is that global's name, so this makes it one group.
    comdat_name = f".omp_offloading.device_image.{digest}"
    comdat = f', comdat($"{comdat_name}")' if args.dedup else ""
    # Linkage of everything that belongs to the image (one copy per program
    # with --dedup: the linker keeps one comdat group).
    img_linkage = "linkonce_odr hidden" if args.dedup else "internal"

    s = header()
    s += "%struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }\n"
    s += "%__tgt_device_image = type { ptr, ptr, ptr, ptr }\n"
    s += "%__tgt_bin_desc = type { i32, ptr, ptr, ptr }\n"
    s += ("%struct.__tgt_kernel_arguments = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, "
          "i64, i64, [3 x i32], [3 x i32], i32 }\n\n")
    if args.dedup:
        s += f"$\"{comdat_name}\" = comdat any\n\n"

    # Region ids: weak, so every object that launches K shares one address
    # (the host-side key in the entry table). With --dedup they carry the
    # image's hash: the same kernel name in two different images gets two keys.
    for name, _ in kernels:
        s += f"@.{name}.region_id{sfx} = weak constant i8 0\n"
    s += "\n"

    # The image.
    end = start + len(image)
    n = len(blob)
    if args.embed == "ob-exclude":
        # What clang's compile step embeds (-fembed-offload-object): device
        # code for clang-linker-wrapper to link, dropped by the host linker.
        img = "@llvm.embedded.object"
        s += (f"{img} = private constant [{n} x i8] {ir_bytes(blob)}, "
              'section ".llvm.offloading", align 8, !exclude !2\n\n')
    else:
        img = f"@.omp_offloading.device_image{sfx}"
        s += (f"{img} = {img_linkage} unnamed_addr constant [{n} x i8] {ir_bytes(blob)}, "
              f'section "{section}"{comdat}, align 8\n\n')

    # Names and entries.
    used = []
    # With --dedup the names are in the image's comdat too, and not local:
    # code outside the group (the launch check) may refer to them, and a
    # reference to a local symbol of a discarded group would not link.
    for name, _ in kernels:
        nm = f"@.offloading.entry_name.{name}{sfx}"
        s += (f'{nm} = {img_linkage} unnamed_addr constant [{len(name) + 1} x i8] c"{name}\\00", '
              f'section ".llvm.rodata.offloading"{comdat}, align 1\n')

    def entry(name):
        return (f"%struct.__tgt_offload_entry {{ i64 0, i16 1, i16 1, i32 0, ptr @.{name}.region_id{sfx}, "
                f"ptr @.offloading.entry_name.{name}{sfx}, i64 0, i64 0, ptr null }}")

    register = args.entries != "clang"
    if args.entries in ("clang", "start-stop"):
        for name, _ in kernels:
            s += (f"@.offloading.entry.{name} = weak constant {entry(name)}, "
                  f'section "llvm_offload_entries", align 8\n')
            used.append(f"@.offloading.entry.{name}")
    if args.entries == "start-stop":
        # Our descriptor takes whatever the linker put in the section.
        s += ("@__start_llvm_offload_entries = external hidden constant [0 x %struct.__tgt_offload_entry]\n"
              "@__stop_llvm_offload_entries = external hidden constant [0 x %struct.__tgt_offload_entry]\n")
        ebeg, eend = "@__start_llvm_offload_entries", "@__stop_llvm_offload_entries"
    elif args.entries != "clang":
        sec = "llvm_offload_entries" if args.entries == "array-clang-section" else "offload_passes_entries"
        k = len(kernels)
        arr = f"@.offloading.entries{sfx}"
        s += (f"{arr} = {img_linkage} constant [{k} x %struct.__tgt_offload_entry] "
              f"[{', '.join(entry(nm) for nm, _ in kernels)}], "
              f'section "{sec}"{comdat}, align 8\n')
        ebeg = arr
        eend = f"getelementptr ([{k} x %struct.__tgt_offload_entry], ptr {arr}, i64 1)"
        used.append(arr)
    if register:
        s += (f"@.omp_offloading.device_images{sfx} = {img_linkage} unnamed_addr constant "
              f"[1 x %__tgt_device_image] [%__tgt_device_image {{ "
              f"ptr getelementptr (i8, ptr {img}, i64 {start}), "
              f"ptr getelementptr (i8, ptr {img}, i64 {end}), ptr {ebeg}, ptr {eend} }}]{comdat}\n")
        s += (f"@.omp_offloading.descriptor{sfx} = {img_linkage} constant %__tgt_bin_desc "
              f"{{ i32 1, ptr @.omp_offloading.device_images{sfx}, ptr {ebeg}, ptr {eend} }}{comdat}\n")
    used.append(img)
    s += (f"@llvm.compiler.used = appending global [{len(used)} x ptr] [{', '.join('ptr ' + u for u in used)}], "
          'section "llvm.metadata"\n')
    if register:
        # The third field keys the constructor to the image: with --dedup the
        # .init_array entry lives in the image's comdat group and goes with it.
        key = img if args.dedup else "null"
        s += (f"@llvm.global_ctors = appending global [1 x {{ i32, ptr, ptr }}] "
              f"[{{ i32, ptr, ptr }} {{ i32 101, ptr @.omp_offloading.descriptor_reg{sfx}, ptr {key} }}]\n\n")
        fl = "linkonce_odr hidden" if args.dedup else "internal"
        fcomdat = f' comdat($"{comdat_name}")' if args.dedup else ""
        s += f"""define {fl} void @.omp_offloading.descriptor_reg{sfx}() section ".text.startup"{fcomdat} {{
entry:
  call void @__tgt_register_lib(ptr @.omp_offloading.descriptor{sfx})
  %r = call i32 @atexit(ptr @.omp_offloading.descriptor_unreg{sfx})
  ret void
}}

define {fl} void @.omp_offloading.descriptor_unreg{sfx}() section ".text.startup"{fcomdat} {{
entry:
  call void @__tgt_unregister_lib(ptr @.omp_offloading.descriptor{sfx})
  ret void
}}

declare void @__tgt_register_lib(ptr)
declare void @__tgt_unregister_lib(ptr)
declare i32 @atexit(ptr)

"""

    # The launch.
    name, size = kernels[0]
    s += f"@.offload_sizes.{name} = private unnamed_addr constant [1 x i64] [i64 {size}]\n"
    if args.launch == "split":
        s += f"@.offload_maptypes.{name}.begin = private unnamed_addr constant [1 x i64] [i64 {TO}]\n"
        s += f"@.offload_maptypes.{name} = private unnamed_addr constant [1 x i64] [i64 {TARGET_PARAM}]\n"
        s += f"@.offload_maptypes.{name}.end = private unnamed_addr constant [1 x i64] [i64 {FROM}]\n"
    else:
        s += (f"@.offload_maptypes.{name} = private unnamed_addr constant [1 x i64] "
              f"[i64 {TARGET_PARAM | TO | FROM}]\n")
    s += ('@.offload.launch_failed = private unnamed_addr constant [46 x i8] '
          'c"offload: kernel \'%s\' launch failed (code %d)\\0A\\00"\n\n')
    allocas = ("  %baseptrs = alloca [1 x ptr], align 8\n"
               "  %ptrs = alloca [1 x ptr], align 8\n"
               "  %kargs = alloca %struct.__tgt_kernel_arguments, align 8\n")
    dev = args.device
    mapper_args = (f"ptr null, i64 {dev}, i32 1, ptr %baseptrs, ptr %ptrs, ptr @.offload_sizes.{name}, "
                   "ptr @.offload_maptypes.{mt}, ptr null, ptr null")
    calls = "  store ptr %buf, ptr %baseptrs, align 8\n  store ptr %buf, ptr %ptrs, align 8\n"
    if args.launch == "split":
        calls += f"  call void @__tgt_target_data_begin_mapper({mapper_args.format(mt=name + '.begin')})\n"
    teams, threads = args.teams, args.threads
    calls += f"""  store i32 3, ptr %kargs, align 8
  %ka.n = getelementptr inbounds i8, ptr %kargs, i64 4
  store i32 1, ptr %ka.n, align 4
  %ka.bp = getelementptr inbounds i8, ptr %kargs, i64 8
  store ptr %baseptrs, ptr %ka.bp, align 8
  %ka.p = getelementptr inbounds i8, ptr %kargs, i64 16
  store ptr %ptrs, ptr %ka.p, align 8
  %ka.sz = getelementptr inbounds i8, ptr %kargs, i64 24
  store ptr @.offload_sizes.{name}, ptr %ka.sz, align 8
  %ka.mt = getelementptr inbounds i8, ptr %kargs, i64 32
  store ptr @.offload_maptypes.{name}, ptr %ka.mt, align 8
  %ka.rest = getelementptr inbounds i8, ptr %kargs, i64 40
  call void @llvm.memset.p0.i64(ptr align 8 %ka.rest, i8 0, i64 32, i1 false)
  %ka.teams = getelementptr inbounds i8, ptr %kargs, i64 72
  store [3 x i32] [i32 {teams}, i32 1, i32 1], ptr %ka.teams, align 4
  %ka.threads = getelementptr inbounds i8, ptr %kargs, i64 84
  store [3 x i32] [i32 {threads}, i32 1, i32 1], ptr %ka.threads, align 4
  %ka.dyn = getelementptr inbounds i8, ptr %kargs, i64 96
  store i32 0, ptr %ka.dyn, align 4
  %rc = call i32 @__tgt_target_kernel(ptr null, i64 {dev}, i32 {teams}, i32 {threads}, ptr @.{name}.region_id{sfx}, ptr %kargs)
"""
    if args.launch == "split":
        calls += f"  call void @__tgt_target_data_end_mapper({mapper_args.format(mt=name + '.end')})\n"
    calls += f"  call void @__offload_launch_check(i32 %rc, ptr @.offloading.entry_name.{name}{sfx})\n"
    pre = post = ""
    if args.region:
        # A data region around the loop, as offload-host lowers
        # __offload_data_begin/end: map TO at the start, FROM at the end.
        s += f"@.offload_maptypes.region.begin = private unnamed_addr constant [1 x i64] [i64 {TO}]\n"
        s += f"@.offload_maptypes.region.end = private unnamed_addr constant [1 x i64] [i64 {FROM}]\n"
        allocas += "  %rbase = alloca [1 x ptr], align 8\n  %rptrs = alloca [1 x ptr], align 8\n"
        rargs = (f"ptr null, i64 {dev}, i32 1, ptr %rbase, ptr %rptrs, ptr @.offload_sizes.{name}, "
                 "ptr @.offload_maptypes.region.{end}, ptr null, ptr null")
        pre = ("  store ptr %buf, ptr %rbase, align 8\n  store ptr %buf, ptr %rptrs, align 8\n"
               f"  call void @__tgt_target_data_begin_mapper({rargs.format(end='begin')})\n")
        post = f"  call void @__tgt_target_data_end_mapper({rargs.format(end='end')})\n"
    s += loop_function(args.func, size, calls, allocas, pre, post)
    s += """declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

@stderr = external global ptr
declare i32 @fprintf(ptr, ptr, ...)
declare void @abort()

define internal void @__offload_launch_check(i32 %rc, ptr %kernel) {
entry:
  %failed = icmp ne i32 %rc, 0
  br i1 %failed, label %fail, label %ok, !prof !1
fail:
  %err = load ptr, ptr @stderr, align 8
  %p = call i32 (ptr, ptr, ...) @fprintf(ptr %err, ptr @.offload.launch_failed, ptr %kernel, i32 %rc)
  call void @abort()
  unreachable
ok:
  ret void
}

"""
    if args.main:
        s += main_function(args.func, size)
    s += '!llvm.module.flags = !{!0}\n!0 = !{i32 7, !"openmp", i32 51}\n!1 = !{!"branch_weights", i32 1, i32 1048575}\n'
    s += "!2 = !{}\n"
    if args.embed == "ob-exclude":
        s += '!llvm.embedded.objects = !{!3}\n!3 = !{ptr @llvm.embedded.object, !".llvm.offloading"}\n'
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["device", "natural", "host"])
    ap.add_argument("--kernel", action="append", required=True, help="NAME:BYTES")
    ap.add_argument("--wrapped", action="store_true")
    ap.add_argument("--image")
    ap.add_argument("--embed", default="ob", choices=["bare", "ob", "ob-none", "ob-private", "ob-exclude"])
    ap.add_argument("--ob-kind", type=int, default=IMG_OBJECT)
    ap.add_argument("--ob-triple", default=TRIPLE)
    ap.add_argument("--ob-arch", default="generic")
    ap.add_argument("--entries", default="array-own", choices=["array-clang-section", "array-own", "clang", "start-stop"])
    ap.add_argument("--dedup", action="store_true")
    ap.add_argument("--launch", default="onecall", choices=["split", "onecall"])
    ap.add_argument("--device", type=int, default=-1)
    ap.add_argument("--teams", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--region", action="store_true")
    ap.add_argument("--func", default="part")
    ap.add_argument("--main", action="store_true")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    kernels = parse_kernels(args.kernel)
    if args.what == "device":
        text = device_module(kernels, args.wrapped)
    elif args.what == "natural":
        text = natural_host(kernels, args.func, args.main, args.region)
    else:
        if not args.image:
            sys.exit("host: --image is required")
        text = host_module(args, kernels)
    with open(args.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
