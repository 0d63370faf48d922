#!/usr/bin/env bash
# The cost of GPU semantics on the CPU (not part of the test suite): builds
# examples/rust-gpu-toolkit in the release profile and runs its tiled matmul
# on a 64-team x 256-thread grid (a 128 x 128 matrix) through libomptarget's
# host plugin, where the x86_64 image runs every thread of every team as an
# OS thread with real barriers, against a plain Rust triple loop on one
# thread; prints both times (best of 5) and their ratio. See bench/README.md.
#
#   bench/grid-matmul.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "${OFFLOAD_PASSES_PLUGIN:-}" ]]; then
  (cd "$root" && cargo build --release --quiet)
  export OFFLOAD_PASSES_PLUGIN=$root/target/release/liboffload_passes.so
fi
example=$root/examples/rust-gpu-toolkit
target=${CARGO_TARGET_DIR:-$example/target}
(cd "$example" && CARGO_TARGET_DIR=$target cargo build --release --locked --quiet)
image=$(ls -t "$target"/release/build/rust-gpu-toolkit-*/out/*.so | head -n 1)
OMP_TARGET_OFFLOAD=MANDATORY sh "$root/scripts/run-offload.sh" "$image" "$target/release/rust-gpu-toolkit" --bench
