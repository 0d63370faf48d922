#!/usr/bin/env python3
"""Writes a copy of an ELF64 device image with one defect, for the tests of
offload-host's image reader. Usage: break-image.py DEFECT IN OUT.

Defects: e_version_0, e_phnum_xnum, dynstr_past_eof, note_past_eof,
note_1tib (the manifest note section), manifest_name_0,
manifest_name_short, manifest_params_one_too_few (the first kernel
manifest note), amdgpu_metadata_int, amdgpu_metadata_garbage (the
NT_AMDGPU_METADATA note's description), manifest_symbol_outside (the first
__offload_manifest_ symbol of a cubin moved past its section's end)."""
import struct
import sys

SHT_NOTE, SHT_SYMTAB = 7, 2


def sections(b):
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    heads = []
    for i in range(shnum):
        at = shoff + i * shentsize
        name, kind, _, _, offset, size, link, _, _, entsize = struct.unpack_from("<IIQQQQIIQQ", b, at)
        heads.append(dict(at=at, name=name, type=kind, offset=offset, size=size, link=link, entsize=entsize))
    strtab = heads[shstrndx]
    for h in heads:
        start = strtab["offset"] + h["name"]
        h["name"] = bytes(b[start:b.index(b"\0", start)]).decode()
    return heads


def section(b, name):
    return next(h for h in sections(b) if h["name"] == name)


def notes(b, h):
    at, end = h["offset"], h["offset"] + h["size"]
    while at + 12 <= end:
        namesz, descsz, kind = struct.unpack_from("<III", b, at)
        owner = bytes(b[at + 12:at + 12 + namesz])
        desc = at + 12 + (namesz + 3) // 4 * 4
        yield owner, kind, desc, descsz
        at = desc + (descsz + 3) // 4 * 4


def manifest_desc(b):
    for h in sections(b):
        if h["type"] == SHT_NOTE:
            for owner, kind, desc, _ in notes(b, h):
                if owner == b"offload-passes\0" and kind == 0x4D4B:
                    return desc
    raise SystemExit("no kernel manifest note")


def amdgpu_desc(b):
    for h in sections(b):
        if h["type"] == SHT_NOTE:
            for owner, kind, desc, size in notes(b, h):
                if owner == b"AMDGPU\0" and kind == 32:
                    return desc, size
    raise SystemExit("no AMDGPU metadata note")


def set_section(b, h, offset=None, size=None):
    if offset is not None:
        struct.pack_into("<Q", b, h["at"] + 24, offset)
    if size is not None:
        struct.pack_into("<Q", b, h["at"] + 32, size)


def main():
    defect, src, dst = sys.argv[1:]
    b = bytearray(open(src, "rb").read())
    if defect == "e_version_0":
        struct.pack_into("<I", b, 20, 0)
    elif defect == "e_phnum_xnum":
        struct.pack_into("<H", b, 56, 0xFFFF)
    elif defect == "dynstr_past_eof":
        set_section(b, section(b, ".dynstr"), offset=len(b) + 4096)
    elif defect in ("note_past_eof", "note_1tib"):
        h = next(h for h in sections(b) if h["name"].startswith(".note.offload"))
        if defect == "note_past_eof":
            set_section(b, h, offset=len(b) + 4096)
        else:
            set_section(b, h, size=1 << 40)
    elif defect.startswith("manifest_"):
        if defect == "manifest_symbol_outside":
            symtab = next(h for h in sections(b) if h["type"] == SHT_SYMTAB)
            strtab = sections(b)[symtab["link"]]
            for at in range(symtab["offset"], symtab["offset"] + symtab["size"], 24):
                name, = struct.unpack_from("<I", b, at)
                start = strtab["offset"] + name
                if b[start:b.index(b"\0", start)].startswith(b"__offload_manifest_"):
                    struct.pack_into("<Q", b, at + 8, 1 << 20)  # st_value
                    break
            else:
                raise SystemExit("no manifest symbol")
        else:
            desc = manifest_desc(b)
            count, name_len = struct.unpack_from("<II", b, desc + 4)
            if defect == "manifest_name_0":
                struct.pack_into("<I", b, desc + 8, 0)
            elif defect == "manifest_name_short":
                struct.pack_into("<I", b, desc + 8, name_len - 1)
            elif defect == "manifest_params_one_too_few":
                struct.pack_into("<I", b, desc + 4, count - 1)
            else:
                raise SystemExit(f"unknown defect {defect}")
    elif defect.startswith("amdgpu_metadata_"):
        desc, size = amdgpu_desc(b)
        if defect == "amdgpu_metadata_int":
            # A positive fixint, then nils to keep the note's size.
            b[desc:desc + size] = b"\x05" + b"\xc0" * (size - 1)
        else:
            b[desc:desc + size] = bytes((i * 37 + 11) % 251 for i in range(size))
    else:
        raise SystemExit(f"unknown defect {defect}")
    open(dst, "wb").write(b)


main()
