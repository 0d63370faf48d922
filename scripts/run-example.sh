#!/usr/bin/env bash
# Builds and runs a Rust offload example (examples/rust-offload,
# examples/rust-linalg, or a copy of one): cargo builds its host crate
# (host/), whose build script builds the kernel crate into the device image;
# the program launches the kernels through libomptarget's host (x86_64)
# plugin with OMP_TARGET_OFFLOAD=MANDATORY (no host fallback).
#
#   bash scripts/run-example.sh EXAMPLE_DIR [--release]
#
# OFFLOAD_PASSES_PLUGIN defaults to this repository's
# target/release/liboffload_passes.so. CARGO_TARGET_DIR is honoured.
set -euo pipefail
scripts=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$scripts")
if [ $# -lt 1 ] || [ ! -f "$1/host/Cargo.toml" ]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
cd "$1"
shift
if [ -z "${OFFLOAD_PASSES_PLUGIN:-}" ] && [ -e "$root/target/release/liboffload_passes.so" ]; then
  export OFFLOAD_PASSES_PLUGIN=$root/target/release/liboffload_passes.so
fi
profile=debug
[ "${1:-}" = "--release" ] && profile=release

cargo build "$@" --locked --quiet
# The program is the host crate's binary; the device image is the one .so
# its build script leaves in its OUT_DIR (the newest build of it).
program=$(sed -n 's/^name = "\(.*\)"$/\1/p' host/Cargo.toml | head -n 1)
target=${CARGO_TARGET_DIR:-target}
image=$(ls -t "$target"/$profile/build/"$program"-*/out/*.so | head -n 1)

# scripts/run-offload.sh removes the /tmp/tmpfile_* copies of the image that
# libomptarget's host plugin leaves behind.
OMP_TARGET_OFFLOAD=MANDATORY sh "$scripts/run-offload.sh" "$image" "$target/$profile/$program"
