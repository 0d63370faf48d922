#!/usr/bin/env python3
"""Runs one rustc command that must fail, several times, and checks every
run failed the way an ordinary compiler error does: exit status 1 (not a
signal, not 101, rustc's status for an LLVM fatal error or an ICE), the
expected message on stderr, no "Rust panic", no crash report. Used by
parallel-errors.test.

Usage: repeat-failing-rustc.py --runs N --expect TEXT -- RUSTC ARGS...
Prints one summary line for FileCheck; exits 1 on the first bad run.
"""

import argparse
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--expect", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    for run in range(args.runs):
        res = subprocess.run(command, capture_output=True, text=True, errors="replace")
        problems = []
        if res.returncode < 0:
            problems.append(f"killed by signal {-res.returncode}")
        elif res.returncode != 1:
            problems.append(f"exit status {res.returncode}, not 1")
        if args.expect not in res.stderr:
            problems.append(f"no '{args.expect}' on stderr")
        for bad in ["Rust panic", "SIGSEGV", "Stack dump", "LLVM ERROR"]:
            if bad in res.stderr:
                problems.append(f"'{bad}' on stderr")
        if problems:
            print(f"run {run}: {'; '.join(problems)}\n{res.stderr[-3000:]}")
            sys.exit(1)
    print(f"{args.runs} runs, each an ordinary compiler error")


if __name__ == "__main__":
    main()
