#!/usr/bin/env python3
"""rustc check of #[kernel] and #[derive(DeviceCopy)] on random items.

The items are the in-process fuzzer's (rust/offload-macros/src/fuzz/,
written by its ignored test `dump_cases`). Each one is compiled by rustc
(`--emit=metadata`: parsing, expansion, type and borrow checks) against the
`offload` crate, with the real proc macro: as a host crate, and, for the
kernels the macro expanded, as a device crate (`offload`'s `device`
feature, `#![no_std]`). The rule:

  - rustc never crashes: no "internal compiler error", no exit 101, no
    "proc macro panicked";
  - an item the macro refused in-process gets that error from rustc (or
    rustc refuses the item before the macro sees it, or a false `#[cfg]`
    removes it first);
  - an item the macro expanded, which compiles without the macro (a plain
    function, a struct without the derive), compiles with it too, or fails
    only the macro's own checks: E0277 naming DeviceCopy, DeviceAtomic,
    Scalar, HostIn, HostMut or Copy, or an unsized type (a DeviceCopy type is sized), `offload`'s own compile-time checks (E0080
    "offload: ..."), or a type too big to exist (E0080; the item alone never
    makes a value of it). An item that is no valid Rust by itself (the generator
    writes many: undeclared lifetimes, `Self` outside an impl, ...) only
    has to give some error, no crash.

Usage:
  fuzz/macro_compile.py --cases 500            # 500 kernels and 500 derive inputs
  fuzz/macro_compile.py --cases 200 --seed 7 --jobs 2 -v
Prints a summary line
  macro-compile: N cases, A expanded ok, I invalid items, R refused ok, E refused early, F failed
and exits 1 when a case failed; failing sources go to --keep.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELUDE = """#![allow(unused, dead_code, non_camel_case_types, non_snake_case, improper_ctypes_definitions)]
use offload::{DeviceCopy, InOut, Out, RawIn, RawInOut, RawOut};
use offload::atomic::{AtomicF64, AtomicUsize};
use core::sync::atomic::{AtomicPtr, AtomicU8};
#[derive(Clone, Copy, offload::DeviceCopy)]
#[repr(C)]
pub struct Point { pub x: f32, pub y: f32 }
#[derive(Clone, Copy)]
pub struct NotCopy(u8);
pub trait Tr { type Assoc; }
impl Tr for u32 { type Assoc = u32; }
macro_rules! ty_mac { () => { u32 } }
pub struct Wrap<X>(X);
pub struct Ö;
"""

# Attributes that remove an item before the macro sees it.
FALSE_CFG = re.compile(r'#\[cfg\((any\(\)|feature = "x")\)\]')

# Errors the macro's own checks give an expanded item.
OWN_CHECK = re.compile(r"DeviceCopy|DeviceAtomic|Scalar|HostIn|HostMut|cannot be passed to an offload kernel"
                       r"|cannot be an atomic kernel parameter|cannot be written-only|: Copy`"
                       r"|cannot be known at compilation time")


def cargo_artifacts(features):
    """Builds `offload` and returns (its rlib, the deps directory)."""
    cmd = ["cargo", "build", "--quiet", "-p", "offload", "--message-format=json"]
    if features:
        cmd += ["--features", features]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "offload":
            # The copy in deps/ (the one in target/debug is overwritten by
            # the other feature set's build).
            rmeta = next(f for f in msg["filenames"] if f.endswith(".rmeta"))
            rlib = rmeta[: -len(".rmeta")] + ".rlib"
            return (rlib if os.path.exists(rlib) else rmeta), os.path.dirname(rmeta)
    sys.exit("macro_compile: cargo did not build offload")


def dump_cases(seed, cases, path):
    env = dict(os.environ, OFFLOAD_MACROS_FUZZ_SEED=str(seed),
               OFFLOAD_MACROS_FUZZ_CASES=str(cases), OFFLOAD_MACROS_FUZZ_DUMP=path)
    subprocess.run(["cargo", "test", "--quiet", "-p", "offload-macros", "--lib", "dump_cases",
                    "--", "--ignored"], cwd=ROOT, env=env, check=True, capture_output=True)
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def source(case, with_macro, device):
    if case["macro"] == "kernel":
        attr = "#[offload::kernel({})]\n".format(case["attr"]) if with_macro else ""
    else:
        attr = "#[derive(offload::DeviceCopy)]\n" if with_macro else ""
    head = "#![no_std]\n" if device else ""
    # In a module, so that `pub(super)` has a parent.
    return head + PRELUDE + "pub mod m {\nuse super::*;\n" + attr + case["item"] + "\n}\n"


def rustc(text, build, workdir, name):
    """Compiles `text`; returns (exit status, stderr, [(code, message)])."""
    rlib, deps = build
    src = os.path.join(workdir, name + ".rs")
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    cmd = ["rustc", "--edition", "2024", "--crate-type", "lib", "--crate-name", "fuzzcase",
           "--emit=metadata", "-o", os.path.join(workdir, name + ".rmeta"),
           "--extern", "offload=" + rlib, "-L", "dependency=" + deps,
           "--error-format=json", "--cap-lints", "allow", src]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return -1, "timeout", []
    errors = []
    for line in proc.stderr.splitlines():
        try:
            diag = json.loads(line)
        except json.JSONDecodeError:
            continue
        if diag.get("level") == "error":
            code = (diag.get("code") or {}).get("code") or ""
            errors.append((code, diag.get("message", "")))
    return proc.returncode, proc.stderr, errors


def crashed(status, stderr):
    if status == -1:
        return "rustc hung (60 s)"
    if status == 101 or "internal compiler error" in stderr:
        return "rustc ICE (exit {})".format(status)
    if "proc macro panicked" in stderr or "proc-macro derive panicked" in stderr:
        return "the proc macro panicked"
    return None


def new_errors(errors, control):
    """The errors `control` does not have (by code, or by message without
    one), less the macro's own checks."""
    codes = {c for c, _ in control}
    messages = {m for c, m in control if not c}
    return [(c, m) for c, m in errors
            if not (c and c in codes) and not (not c and m in messages)
            and not (c == "E0277" and OWN_CHECK.search(m))
            and not (c == "E0080" and ("offload: " in m or "too big for the target" in m))
            and not m.startswith("aborting due to")]


def judge(case, builds, workdir):
    """(class, detail): class is expanded-ok, refused-ok, refused-early or failed: ..."""
    name = "{}-{}".format(case["macro"], case["index"])
    verdict = case["verdict"]
    if verdict.startswith("failed") or verdict == "unlexed":
        return "failed: in-process " + verdict[:200], ""
    targets = [("host", builds["host"], False)]
    if case["macro"] == "kernel" and verdict == "expanded":
        targets.append(("device", builds["device"], True))
    for label, build, device in targets:
        status, stderr, errors = rustc(source(case, True, device), build, workdir, name + label)
        crash = crashed(status, stderr)
        if crash:
            return "failed: " + crash, stderr[-2000:]
        if any("can't find crate" in m for _, m in errors):
            sys.exit("macro_compile: rustc does not find offload: " + stderr[:500])
        if verdict.startswith("refused: "):
            message = verdict[len("refused: "):]
            if any(message in m for _, m in errors):
                return "refused-ok", ""
            if errors:
                return "refused-early", errors[0][1][:80]
            if FALSE_CFG.search(case["item"]):
                return "refused-early", "a false #[cfg] removed the item"
            return "failed: rustc accepted what the macro refused", verdict
        if not errors:
            continue
        _, _, control = rustc(source(case, False, device), build, workdir, name + label + "-plain")
        if control:
            return "invalid-item", ""
        extra = new_errors(errors, control)
        if extra:
            detail = "; ".join("{} {}".format(c, m) for c, m in extra[:3])
            return "failed: {} build: errors the item alone does not have".format(label), detail
    return "expanded-ok", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=500, help="items per macro (default 500)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", default=os.path.join(ROOT, "fuzz", "failures", "macros"))
    ap.add_argument("-v", action="store_true", help="print every failure and the early refusals")
    args = ap.parse_args()

    builds = {"host": cargo_artifacts(""), "device": cargo_artifacts("device")}
    with tempfile.TemporaryDirectory() as workdir:
        cases = dump_cases(args.seed, args.cases, os.path.join(workdir, "cases.jsonl"))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda c: judge(c, builds, workdir), cases))

    classes = collections.Counter()
    early = collections.Counter()
    failures = []
    for case, (cls, detail) in zip(cases, results):
        classes[cls.split(":")[0]] += 1
        if cls == "refused-early":
            early[detail] += 1
        if cls.startswith("failed"):
            failures.append((case, cls, detail))
    for case, cls, detail in failures:
        os.makedirs(args.keep, exist_ok=True)
        path = os.path.join(args.keep, "{}-{}-{}.rs".format(case["macro"], args.seed, case["index"]))
        with open(path, "w", encoding="utf-8") as f:
            f.write(source(case, True, False))
        if args.v or len(failures) <= 20:
            print("FAIL {} {} (seed {}): {}\n  {}\n  kept: {}".format(
                case["macro"], case["index"], args.seed, cls, detail[:600], path))
    if args.v:
        for message, count in early.most_common():
            print("  refused early {:5}  {}".format(count, message))
    print("macro-compile: {} cases, {} expanded ok, {} invalid items, {} refused ok, {} refused early, "
          "{} failed (seed {}, {} kernels and {} derive inputs)".format(
              len(cases), classes["expanded-ok"], classes["invalid-item"], classes["refused-ok"],
              classes["refused-early"],
              len(failures), args.seed, args.cases, args.cases))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
