#!/usr/bin/env python3
"""A cargo registry in a directory, from `.crate` files (what `cargo package`
writes), for a test to use crates as if published:

    local-registry.py REGISTRY_DIR CRATE_FILE...

writes cargo's local-registry layout: the .crate files copied into
REGISTRY_DIR, and REGISTRY_DIR/index/ in the registry index format (one file
per crate under 1/, 2/, 3/x/ or ab/cd/, one JSON line per version). A
dependency on one of the given crates is a dependency on this registry;
every other dependency names crates.io, so cargo takes those from crates.io
as usual.

A program uses it through a named registry that cargo reads from the
directory (source replacement: the index URL is never fetched, so this
works offline), and takes the crates of crates.io's names from it:

    [registries.local]
    index = "file:///REGISTRY_DIR/index"
    [source.local-index]
    registry = "file:///REGISTRY_DIR/index"
    replace-with = "local-dir"
    [source.local-dir]
    local-registry = "/REGISTRY_DIR"
    [patch.crates-io]
    offload = { version = "0.1.0", registry = "local" }

and names the crates by version only.
"""

import hashlib
import json
import os
import shutil
import sys
import tarfile
import tomllib

CRATES_IO = "https://github.com/rust-lang/crates.io-index"
KINDS = {"dependencies": "normal", "build-dependencies": "build"}


def manifest(path):
    """The packaged (normalized) Cargo.toml of a .crate file."""
    with tarfile.open(path, "r:gz") as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if len(parts) == 2 and parts[1] == "Cargo.toml":
                return tomllib.loads(tar.extractfile(member).read().decode())
    sys.exit(f"local-registry.py: {path}: no Cargo.toml")


def dependency(name, spec, kind, target, ours):
    """One dependency as an index entry."""
    if isinstance(spec, str):
        spec = {"version": spec}
    package = spec.get("package", name)
    entry = {
        # The name the dependent uses; the crate's own in `package`.
        "name": name,
        "req": spec.get("version", "*"),
        "features": spec.get("features", []),
        "optional": spec.get("optional", False),
        "default_features": spec.get("default-features", True),
        "target": target,
        "kind": kind,
        # None: this registry.
        "registry": None if package in ours else CRATES_IO,
    }
    if package != name:
        entry["package"] = package
    return entry


def dependencies(toml, ours):
    deps = []
    tables = [(toml, None)]
    tables += [(t, cfg) for cfg, t in toml.get("target", {}).items()]
    for table, target in tables:
        for section, kind in KINDS.items():
            for name, spec in table.get(section, {}).items():
                deps.append(dependency(name, spec, kind, target, ours))
    return deps


def index_entry(path, toml, ours):
    package = toml["package"]
    with open(path, "rb") as f:
        cksum = hashlib.sha256(f.read()).hexdigest()
    features = toml.get("features", {})
    entry = {
        "name": package["name"],
        "vers": package["version"],
        "deps": dependencies(toml, ours),
        "cksum": cksum,
        "features": {},
        "features2": features,
        "yanked": False,
        "links": package.get("links"),
        "v": 2,
    }
    if "rust-version" in package:
        entry["rust_version"] = package["rust-version"]
    return entry


def index_path(name):
    name = name.lower()
    if len(name) <= 2:
        return os.path.join(str(len(name)), name)
    if len(name) == 3:
        return os.path.join("3", name[0], name)
    return os.path.join(name[0:2], name[2:4], name)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    registry = os.path.abspath(sys.argv[1])
    crates = sys.argv[2:]
    index = os.path.join(registry, "index")
    shutil.rmtree(registry, ignore_errors=True)
    os.makedirs(index)
    tomls = [(path, manifest(path)) for path in crates]
    ours = {toml["package"]["name"] for _, toml in tomls}
    lines = {}
    for path, toml in tomls:
        entry = index_entry(path, toml, ours)
        lines.setdefault(entry["name"], []).append(json.dumps(entry))
        shutil.copy(path, os.path.join(registry, f"{entry['name']}-{entry['vers']}.crate"))
    for name, entries in lines.items():
        file = os.path.join(index, index_path(name))
        os.makedirs(os.path.dirname(file), exist_ok=True)
        with open(file, "w") as f:
            f.write("\n".join(entries) + "\n")


if __name__ == "__main__":
    main()
