#!/usr/bin/env bash
# The cost of the shared tiles' checks (not part of the test suite): builds
# bench/shared-tiles in the release profile and runs one stencil on shared
# tiles (every access checked) and on static shared arrays through raw
# pointers (unchecked) through libomptarget's host plugin, 32 teams of 1, 4
# and 64 threads, 64 steps of 1024 cells per team; prints both times (best
# of 5, each result checked against a plain loop) and their ratio. See
# bench/README.md.
#
#   bench/shared-tiles.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "${OFFLOAD_PASSES_PLUGIN:-}" ]]; then
  (cd "$root" && cargo build --release --quiet)
  export OFFLOAD_PASSES_PLUGIN=$root/target/release/liboffload_passes.so
fi
crate=$root/bench/shared-tiles
target=${CARGO_TARGET_DIR:-$crate/target}
(cd "$crate" && CARGO_TARGET_DIR=$target cargo build --release --locked --quiet)
image=$(ls -t "$target"/release/build/tiles-bench-*/out/*.so | head -n 1)
OMP_TARGET_OFFLOAD=MANDATORY sh "$root/scripts/run-offload.sh" "$image" "$target/release/tiles-bench"
