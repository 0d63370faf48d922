"""The digest of a program's device images, as offload_contract::digest::images_digest
computes it, written into a host module template.

Usage: images-digest.py TEMPLATE IMAGE... > OUT

Replaces every @DIGEST@ in TEMPLATE with the digest (decimal, as a v2
descriptor word) and writes the result to stdout, after a first comment line
`; digest HHHHHHHHHHHHHHHH` (the 16 hex digits that suffix the embedded
globals). One image: the first 8 bytes of its SHA-256, little-endian;
several: the first 8 bytes of the SHA-256 of their SHA-256s concatenated in
order.
"""

import hashlib
import struct
import sys


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def main():
    template, images = sys.argv[1], sys.argv[2:]
    if not images:
        sys.exit("usage: images-digest.py TEMPLATE IMAGE...")
    if len(images) == 1:
        whole = sha256(images[0])
    else:
        whole = hashlib.sha256(b"".join(sha256(i) for i in images)).digest()
    digest = struct.unpack("<Q", whole[:8])[0]
    with open(template) as f:
        text = f.read()
    sys.stdout.write(f"; digest {digest:016x}\n")
    sys.stdout.write(text.replace("@DIGEST@", str(digest)))


main()
