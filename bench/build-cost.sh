#!/usr/bin/env bash
# The cost of GPU targets in a Rust offload program's build: clean release
# builds of examples/rust-offload (`cargo build --release --locked`, a fresh
# CARGO_TARGET_DIR each, so the host crates' dependencies are built every
# time too), timed by wall clock:
#
#   host     OFFLOAD_TARGETS=host                      (the baseline)
#   first    OFFLOAD_TARGETS=host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90,
#            with an empty shared-core cache (OFFLOAD_SYSROOT_CACHE): core
#            is built for gfx90a and sm_90 first
#   second   the same three targets, the shared core already built
#
# and prints one markdown table with each time and its ratio to `host`
# (the target for `second`: at most 1.5x). Not a test; needs the plugin
# (cargo build --release), rust-src, llvm-bitcode-linker and ptxas
# (scripts/setup.sh). About 10 minutes on 2 cores.
#
#   bash bench/build-cost.sh [--keep WORKDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
keep=no
if [ "${1:-}" = --keep ]; then
  work=$2
  keep=yes
  mkdir -p "$work"
fi
[ "$keep" = yes ] || trap 'rm -rf "$work"' EXIT
export OFFLOAD_PASSES_PLUGIN=${OFFLOAD_PASSES_PLUGIN:-$root/target/release/liboffload_passes.so}
[ -f "$OFFLOAD_PASSES_PLUGIN" ] || { echo "build-cost: build the plugin first (cargo build --release)" >&2; exit 1; }
export OFFLOAD_SYSROOT_CACHE=$work/sysroot
three=host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90

# Seconds (one decimal) of a clean build with OFFLOAD_TARGETS=$1 into $2.
build() {
  local start end
  rm -rf "$2"
  start=$(date +%s.%N)
  (cd "$root/examples/rust-offload" &&
    OFFLOAD_TARGETS=$1 CARGO_TARGET_DIR=$2 cargo build --release --locked --quiet 2>"$2.log") ||
    { echo "build-cost: the build with OFFLOAD_TARGETS=$1 failed:" >&2; tail -n 20 "$2.log" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.1f", $2 - $1}'
}

rm -rf "$OFFLOAD_SYSROOT_CACHE"
echo "build-cost: host only" >&2
host=$(build host "$work/host")
echo "build-cost: three targets, no shared core yet" >&2
first=$(build "$three" "$work/first")
echo "build-cost: three targets, shared core built" >&2
second=$(build "$three" "$work/second")

ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }
echo "| clean build of examples/rust-offload (release) | seconds | × host only |"
echo "|---|---|---|"
echo "| host only (\`OFFLOAD_TARGETS=host\`) | $host | 1.00 |"
echo "| host + gfx90a + sm_90, core not yet built | $first | $(ratio "$first" "$host") |"
echo "| host + gfx90a + sm_90, shared core built (target ≤ 1.5) | $second | $(ratio "$second" "$host") |"
echo
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(rustc --version)"
