#!/usr/bin/env bash
# The cost of GPU semantics on the CPU (not part of the test suite): builds
# examples/rust-gpu-toolkit in the release profile and runs its kernels (a
# tiled matmul 128 x 128, 64 teams x 256 threads, two barriers per tile; a
# shared-memory tree reduction and a warp-shuffle reduction of 2^20 floats,
# 64 x 256; block prefix scans of 2^20 floats, Hillis-Steele on 4096 x 256
# and raking on 64 x 256; a tiled transpose 1024 x 1024, 4096 x 256; the
# reductions, the scans and the transpose mapped by each launch and on
# device buffers)
# through libomptarget's host plugin under the compiled executor on 1 and 2
# workers (best of RUNS) and under the thread-per-thread executor (one run),
# each against a plain single-threaded Rust loop; prints each time and ratio, then
# the compiled executor's speed-up from 1 to 2 workers. Last, the same
# kernels as clang-22 OpenMP offload (`target teams distribute parallel for`
# on libomptarget's host plugin, bench/clang-peer-grid/run.sh) on 1 and 2
# workers; skipped with a note when clang-22 or libomptarget is missing.
# The compiled executor's times are the best of RUNS (default 15: kernels
# of a millisecond or two on a shared virtual machine need that many to
# find an undisturbed one). See bench/README.md.
#
#   bench/cpu-grid.sh [RUNS]
set -euo pipefail
runs=${1:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "${OFFLOAD_PASSES_PLUGIN:-}" ]]; then
  (cd "$root" && cargo build --release --quiet)
  export OFFLOAD_PASSES_PLUGIN=$root/target/release/liboffload_passes.so
fi
example=$root/examples/rust-gpu-toolkit
target=${CARGO_TARGET_DIR:-$example/target}
(cd "$example" && CARGO_TARGET_DIR=$target cargo build --release --locked --quiet)
image=$(ls -t "$target"/release/build/rust-gpu-toolkit-*/out/*.so | head -n 1)
run() {
  OMP_TARGET_OFFLOAD=MANDATORY sh "$root/scripts/run-offload.sh" "$image" "$target/release/rust-gpu-toolkit" --bench "$@"
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "== compiled, 1 worker"
OFFLOAD_CPU_THREADS=1 run "$runs" | tee "$out.1"
echo "== compiled, 2 workers"
OFFLOAD_CPU_THREADS=2 run "$runs" | tee "$out.2"
echo "== threads (one OS thread per GPU thread; one run each: the scans take a minute)"
OFFLOAD_CPU_GRID=threads run 1
echo "== speed-up from 1 to 2 workers (compiled)"
paste -d'|' "$out.1" "$out.2" | sed -n 's/^\([^:]*\): grid \([0-9.]*\) ms.*|.*: grid \([0-9.]*\) ms.*/\1 \2 \3/p' |
  awk '{ t2 = $NF; t1 = $(NF-1); $NF = ""; $(NF-1) = ""; printf "%s: %.2fx\n", $0, t1 / t2 }'
rm -f "$out.1" "$out.2"
echo "== clang-22 target teams distribute parallel for (host plugin)"
"$root/bench/clang-peer-grid/run.sh"
