#!/usr/bin/env python3
"""Example reader of offload-passes kernel manifests (docs/kernel-manifest.md).

Usage: read-manifest.py IMAGE [--digest]

IMAGE is a linked device image: an x86_64 shared object, an AMDGPU code
object, an NVPTX cubin, or one of these inside an OffloadBinary. Prints, per
kernel, its parameters as the host passes them and the wrapped slot layout:

    kernel scale: 2 parameters, 8-byte slots after 1 leading slot (dyn_ptr)
      slot 1: param 0 ptr addrspace(1) -> pointer
      slot 2: param 1 i32 -> value (zero-extended to 64 bits)

With --digest, prints the image digest first (the first 8 bytes of the file's
SHA-256 as a little-endian u64, in hex): what a v2 launch descriptor's word 1
holds. Only the Python standard library is used.
"""

import hashlib
import struct
import sys

NOTE_OWNER = b"offload-passes\0"
NOTE_TYPE = 0x4D4B
SYMBOL_PREFIX = b"__offload_manifest_"
OFFLOAD_BINARY_MAGIC = b"\x10\xff\x10\xad"
KINDS = {1: "pointer", 2: "integer", 3: "float", 4: "aggregate", 5: "byval"}
SLOTS = {1: "pointer", 2: "value (zero-extended to 64 bits)", 3: "pointer to the host's TO-mapped copy"}
FLOATS = {1: "half", 2: "bfloat", 3: "float", 4: "double"}


def inner_elf(data):
    """The ELF inside an OffloadBinary (its first entry), else data itself."""
    if not data.startswith(OFFLOAD_BINARY_MAGIC):
        return data
    entry_offset = struct.unpack_from("<Q", data, 16)[0]
    image_offset, image_size = struct.unpack_from("<QQ", data, entry_offset + 24)
    return data[image_offset:image_offset + image_size]


def sections(elf):
    """(name, type, addr, offset, size, link) of every section of an ELF64 LE file."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        sys.exit("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    raw = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx][4]

    def name(offset):
        end = elf.index(b"\0", names + offset)
        return elf[names + offset:end].decode()

    return [(name(s[0]), s[1], s[3], s[4], s[5], s[6]) for s in raw]


def notes(data):
    """Descriptions of the offload-passes manifest notes in a note sequence."""
    at = 0
    while at + 12 <= len(data):
        namesz, descsz, kind = struct.unpack_from("<III", data, at)
        desc = at + 12 + (namesz + 3) // 4 * 4
        if data[at + 12:at + 12 + namesz] == NOTE_OWNER and kind == NOTE_TYPE:
            yield data[desc:desc + descsz]
        at = (desc + descsz + 3) // 4 * 4


def manifests(elf):
    """Manifest note descriptions: from SHT_NOTE sections, else (a cubin)
    from the bytes of the __offload_manifest_<K> symbols."""
    table = sections(elf)
    found = [d for s in table if s[1] == 7 for d in notes(elf[s[3]:s[3] + s[4]])]
    if found:
        return found
    for name, kind, _, offset, size, link in table:
        if kind != 2:  # SHT_SYMTAB
            continue
        strtab = table[link][3]
        for at in range(offset, offset + size, 24):
            st_name, _, _, shndx, value, st_size = struct.unpack_from("<IBBHQQ", elf, at)
            symbol = elf[strtab + st_name:elf.index(b"\0", strtab + st_name)]
            if symbol.startswith(SYMBOL_PREFIX) and 0 < shndx < len(table):
                sec = table[shndx]
                start = sec[3] + value - sec[2]
                found.extend(notes(elf[start:start + st_size]))
    return found


def kernel_name(desc):
    count, name_len = struct.unpack_from("<II", desc, 4)
    return desc[16 + 16 * count:16 + 16 * count + name_len].decode()


def describe(desc):
    version, count = struct.unpack_from("<II", desc, 0)
    slot_bytes, leading = desc[12], desc[13]
    if version != 1:
        return f"manifest of version {version} (this reader knows version 1)"
    name = kernel_name(desc)
    lines = [f"kernel {name}: {count} parameters, {slot_bytes}-byte slots after {leading} leading slot (dyn_ptr)"]
    for i in range(count):
        kind, slot, detail, align, size = struct.unpack_from("<BBHIQ", desc, 16 + 16 * i)
        if kind == 1:
            text = "ptr" if detail == 0 else f"ptr addrspace({detail})"
        elif kind == 2:
            text = f"i{detail}"
        elif kind == 3:
            text = FLOATS.get(detail, f"float kind {detail}")
        elif kind == 4:
            text = f"{{{size} bytes, align {align}}} by value"
        else:
            text = f"ptr byval({{{size} bytes, align {align}}})"
        lines.append(f"  slot {leading + i}: param {i} {text} -> {SLOTS.get(slot, slot)}")
    return "\n".join(lines)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    data = open(args[0], "rb").read()
    if "--digest" in sys.argv:
        digest = struct.unpack("<Q", hashlib.sha256(data).digest()[:8])[0]
        print(f"digest {digest:016x}")
    found = manifests(inner_elf(data))
    if not found:
        print("no kernel manifest")
    for desc in sorted(found, key=kernel_name):
        print(describe(desc))


if __name__ == "__main__":
    main()
