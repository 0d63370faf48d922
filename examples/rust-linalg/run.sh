#!/usr/bin/env bash
# Builds and runs the rust-linalg example: cargo builds the host crate, whose
# build script builds the kernel crate (kernels/) into the device image; the program
# launches the kernels through libomptarget's host (x86_64) plugin with
# OMP_TARGET_OFFLOAD=MANDATORY (no host fallback).
#
#   OFFLOAD_PASSES_PLUGIN=/abs/path/liboffload_passes.so bash run.sh [--release]
#
# Inside the offload-passes repository OFFLOAD_PASSES_PLUGIN defaults to its
# target/release/liboffload_passes.so. CARGO_TARGET_DIR is honoured.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${OFFLOAD_PASSES_PLUGIN:-}" ] && [ -e ../../target/release/liboffload_passes.so ]; then
  export OFFLOAD_PASSES_PLUGIN=$(cd ../.. && pwd)/target/release/liboffload_passes.so
fi
profile=debug
[ "${1:-}" = "--release" ] && profile=release

cargo build ${1:-} --locked --quiet
target=${CARGO_TARGET_DIR:-target}
image=$(ls -t "$target"/$profile/build/rust-linalg-*/out/liblinalg_kernels.so | head -n 1)

# libomptarget's host plugin copies the image it loads to /tmp/tmpfile_XXXXXX
# and never deletes it: remove the copies of this image made by this run.
before=$(ls /tmp/tmpfile_* 2>/dev/null || true)
status=0
OMP_TARGET_OFFLOAD=MANDATORY "$target/$profile/rust-linalg" || status=$?
for f in /tmp/tmpfile_*; do
  [ -f "$f" ] || continue
  case "
$before
" in *"
$f
"*) continue ;; esac
  cmp -s "$f" "$image" && rm -f "$f"
done
exit $status
