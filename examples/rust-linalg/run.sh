#!/usr/bin/env bash
# Builds and runs the rust-linalg example: cargo builds the host crate, whose
# build script builds the `kernels` crate into the device image; the program
# launches the kernels through libomptarget's host (x86_64) plugin with
# OMP_TARGET_OFFLOAD=MANDATORY (no host fallback).
#
#   OFFLOAD_PASSES_PLUGIN=/abs/path/liboffload_passes.so bash run.sh [--release]
#
# Without OFFLOAD_PASSES_PLUGIN it uses the plugin built in this repository.
set -euo pipefail
cd "$(dirname "$0")"
repo=$(cd ../.. && pwd)
export OFFLOAD_PASSES_PLUGIN=${OFFLOAD_PASSES_PLUGIN:-$repo/target/release/liboffload_passes.so}
profile=debug
[ "${1:-}" = "--release" ] && profile=release

cargo build ${1:-} --locked --quiet
target=${CARGO_TARGET_DIR:-target}
image=$(ls -t "$target"/$profile/build/host-*/out/libkernels.so | head -n 1)

# scripts/run-offload.sh removes the /tmp/tmpfile_* copies of the image that
# libomptarget's host plugin leaves behind.
OMP_TARGET_OFFLOAD=MANDATORY sh "$repo"/scripts/run-offload.sh "$image" "$target/$profile/host"
