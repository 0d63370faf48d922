#!/usr/bin/env bash
# Benchmarks for offload-passes (not part of the test suite): builds the
# plugin, then runs bench/bench.py, which prints a results table (markdown)
# on stdout and progress on stderr. See bench/README.md.
#
#   bench/run.sh            # full run (~10 min on 2 cores; the clang comparison runs callgrind)
#   bench/run.sh --quick    # smaller sizes (~3 min)
#   bench/run.sh --only scaling --reps 3 --workdir /tmp/offload-bench
#
# OFFLOAD_PASSES_PLUGIN=/path/liboffload_passes.so skips the build and
# measures that plugin instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${OFFLOAD_PASSES_PLUGIN:-}" ]]; then
  cargo build --release --quiet
fi
exec python3 bench/bench.py "$@"
