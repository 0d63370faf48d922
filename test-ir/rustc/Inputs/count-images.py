#!/usr/bin/env python3
"""How many copies of an embedded device image a file holds.

  count-images.py PROGRAM     -> "N OffloadBinary, M .offload_passes.image section"
      N: OffloadBinary headers (magic 10 FF 10 AD, version 1) anywhere in the file
  count-images.py --objects ARCHIVE
      -> "K objects with .offload_passes.image": members of an ar archive (an
      rlib) whose ELF has that section
"""
import struct
import sys

MAGIC = bytes([0x10, 0xFF, 0x10, 0xAD, 1, 0, 0, 0])
SECTION = b".offload_passes.image"


def section_names(elf):
    if elf[:4] != b"\x7fELF":
        return []
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx][4]
    return [elf[names + h[0]:elf.index(b"\0", names + h[0])] for h in headers]


def members(archive):
    assert archive.startswith(b"!<arch>\n"), "not an ar archive"
    at = 8
    while at + 60 <= len(archive):
        size = int(archive[at + 48:at + 58].decode().strip())
        yield archive[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)


def main():
    args = sys.argv[1:]
    if args[0] == "--objects":
        data = open(args[1], "rb").read()
        n = sum(1 for m in members(data) if SECTION in section_names(m))
        print(f"{n} objects with .offload_passes.image")
        return
    data = open(args[0], "rb").read()
    sections = section_names(data).count(SECTION)
    print(f"{data.count(MAGIC)} OffloadBinary, {sections} .offload_passes.image section")


if __name__ == "__main__":
    main()
