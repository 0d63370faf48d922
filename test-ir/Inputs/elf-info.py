#!/usr/bin/env python3
"""Prints what a device image ELF holds, for FileCheck: the machine, for a cubin
the sm it was assembled for, its kernels, and data symbols with their bytes.
(The kernel manifests themselves: scripts/read-manifest.py, lit's %read-manifest.)

    elf-info.py IMAGE [--data PREFIX]...

Output, one fact per line (symbols sorted: kernels, functions, data):
    machine EM_CUDA type EXEC abi 7 flags 0x5a055a sm_90
    kernel k bind GLOBAL                      (cubin: STT_FUNC with st_other 0x10)
    function $k$helper bind GLOBAL            (cubin: STT_FUNC without it)
    params k 0:8 8:8 16:8 total 24            (cubin: offset:size of each parameter)
    note .note.offload_passes.manifest owner offload-passes type 19787 desc 0100... "...."
                                              (SHT_NOTE records; AMDGPU, AMD and GNU notes skipped)
    data __offload_manifest_k section .nv.global.init value 0x40 size 64 bind GLOBAL bytes 0f00... "...."
    section .nv.info.k                         (every section, by name, last)

Data symbols are printed only when their name starts with one of the --data
prefixes (all of them without --data). The bytes are read from the symbol's
section at st_value - sh_addr (sh_addr is 0 in a cubin and in relocatable
objects, the virtual address in linked shared objects), so "bytes" shows what
a reader of the file finds. A symbol in a NOBITS section prints "nobits".

The sm comes from e_flags the way LLVM reads it: CUDA ELF ABI version 7 keeps
it in bits 0-7 (EF_CUDA_SM), version 8 (Blackwell and later) in bits 8-15
(EF_CUDA_SM_MASK); EF_CUDA_ACCELERATORS (0x800 in v7, 0x8 in v8) adds "a".

A cubin's parameter layout comes from ptxas's per-kernel `.nv.info.K`
section, a list of attributes (u8 format, u8 attribute, then for format 4 a
u16 size and the payload, for formats 2 and 3 two bytes): attribute 0x17
(EIATTR_KPARAM_INFO, one per parameter) holds u32 index, u16 ordinal, u16
offset, u32 flags with the size in bits 18-31; attribute 0x19
(EIATTR_CBANK_PARAM_SIZE, format 3) the total. NVIDIA does not document
this format; the decoding agrees with the PTX `.param` lists it came from.
Only the standard library is used.
"""
import struct
import sys

EM = {62: "EM_X86_64", 190: "EM_CUDA", 224: "EM_AMDGPU"}
ET = {1: "REL", 2: "EXEC", 3: "DYN"}
BIND = {0: "LOCAL", 1: "GLOBAL", 2: "WEAK"}
STT_OBJECT, STT_FUNC = 1, 2
SHT_SYMTAB, SHT_NOTE, SHT_NOBITS, SHT_DYNSYM = 2, 7, 8, 11
STO_CUDA_ENTRY = 0x10


def cuda_sm(abi, flags):
    if abi == 8:
        sm, accel = (flags >> 8) & 0xFF, flags & 0x8
    else:
        sm, accel = flags & 0xFF, flags & 0x800
    return f"sm_{sm}{'a' if accel else ''}"


def main(argv):
    path, prefixes = argv[1], []
    rest = argv[2:]
    while rest:
        if rest[0] != "--data" or len(rest) < 2:
            sys.exit("usage: elf-info.py IMAGE [--data PREFIX]...")
        prefixes.append(rest[1])
        rest = rest[2:]
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"{path}: not a little-endian ELF64 file")
    abi = data[8]
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    e_flags = struct.unpack_from("<I", data, 48)[0]
    e_shoff = struct.unpack_from("<Q", data, 40)[0]
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", data, 58)
    sections = []
    for i in range(e_shnum):
        name, stype, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, e_shoff + i * e_shentsize
        )
        sections.append(dict(name=name, type=stype, addr=addr, off=off, size=size, link=link, entsize=entsize))
    shstr = sections[e_shstrndx]

    def cstr(table, offset):
        start = table["off"] + offset
        return data[start : data.index(b"\0", start)].decode()

    for s in sections:
        s["name"] = cstr(shstr, s["name"])
    line = f"machine {EM.get(e_machine, e_machine)} type {ET.get(e_type, e_type)} abi {abi} flags {e_flags:#x}"
    if e_machine == 190:
        line += " " + cuda_sm(abi, e_flags)
    print(line)

    seen, lines = set(), []
    for table in sections:
        if table["type"] not in (SHT_SYMTAB, SHT_DYNSYM):
            continue
        strtab = sections[table["link"]]
        for i in range(1, table["size"] // 24):
            st_name, st_info, st_other, st_shndx, st_value, st_size = struct.unpack_from(
                "<IBBHQQ", data, table["off"] + i * 24
            )
            name, kind, bind = cstr(strtab, st_name), st_info & 0xF, st_info >> 4
            if st_shndx == 0 or (name, kind) in seen:
                continue
            seen.add((name, kind))
            if kind == STT_FUNC:
                if e_machine == 190:
                    word = "kernel" if st_other & STO_CUDA_ENTRY else "function"
                else:
                    word = "function"
                lines.append((0 if word == "kernel" else 1, name, f"{word} {name} bind {BIND.get(bind, bind)}"))
            elif kind == STT_OBJECT and (not prefixes or any(name.startswith(p) for p in prefixes)):
                sec = sections[st_shndx] if st_shndx < len(sections) else None
                where = sec["name"] if sec else f"shndx {st_shndx:#x}"
                if sec is None:
                    content = "unreadable"
                elif sec["type"] == SHT_NOBITS:
                    content = "nobits"
                else:
                    start = sec["off"] + st_value - sec["addr"]
                    raw = data[start : start + st_size]
                    text = "".join(chr(b) if 32 <= b < 127 else "." for b in raw)
                    content = f'bytes {raw.hex()} "{text}"'
                lines.append((2, name, f"data {name} section {where} value {st_value:#x} size {st_size} bind {BIND.get(bind, bind)} {content}"))
    for _, _, line in sorted(lines):
        print(line)
    if e_machine == 190:
        infos = sorted((s["name"], s) for s in sections if s["name"].startswith(".nv.info."))
        for name, s in infos:
            print(kernel_params(name[len(".nv.info.") :], data[s["off"] : s["off"] + s["size"]]))
    for s in sections:
        if s["type"] == SHT_NOTE:
            for owner, kind, desc in notes(data[s["off"] : s["off"] + s["size"]]):
                if owner in ("AMDGPU", "AMD", "GNU"):
                    continue
                text = "".join(chr(b) if 32 <= b < 127 else "." for b in desc)
                print(f'note {s["name"]} owner {owner} type {kind} desc {desc.hex()} "{text}"')
    for s in sections[1:]:
        print(f"section {s['name']}")


def notes(blob):
    i, align = 0, lambda n: (n + 3) & ~3
    while i + 12 <= len(blob):
        namesz, descsz, kind = struct.unpack_from("<III", blob, i)
        name = blob[i + 12 : i + 12 + namesz].rstrip(b"\0").decode(errors="replace")
        start = i + 12 + align(namesz)
        yield name, kind, blob[start : start + descsz]
        i = start + align(descsz)


def kernel_params(kernel, info):
    params, total, i = [], None, 0
    while i + 2 <= len(info):
        fmt, attr = info[i], info[i + 1]
        if fmt == 4:
            size = struct.unpack_from("<H", info, i + 2)[0]
            payload, i = info[i + 4 : i + 4 + size], i + 4 + size
        elif fmt in (2, 3):
            payload, i = info[i + 2 : i + 4], i + 4
        else:
            payload, i = b"", i + 2
        if attr == 0x17 and len(payload) >= 12:
            _, ordinal, offset, flags = struct.unpack_from("<IHHI", payload)
            params.append((ordinal, offset, flags >> 18))
        elif attr == 0x19 and len(payload) == 2:
            total = struct.unpack_from("<H", payload)[0]
    layout = " ".join(f"{offset}:{size}" for _, offset, size in sorted(params))
    return f"params {kernel} {layout} total {total}"


if __name__ == "__main__":
    main(sys.argv)
