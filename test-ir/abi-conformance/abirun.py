#!/usr/bin/env python3
"""Randomized differential ABI conformance test: the plugin's AMDGPU kernels
from rustc 1.95 against clang 22's for the equivalent HIP C. The harness is
the package abi_conformance/ next to this file; `abirun.py --help` describes
the run."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from abi_conformance import cli  # noqa: E402

if __name__ == "__main__":
    cli.main()
