#!/usr/bin/env bash
# Builds and runs the rust-offload example: cargo builds the host crate, whose
# build script compiles the device crate into the image; the host program
# then launches the kernels through libomptarget's host (x86_64) plugin with
# OMP_TARGET_OFFLOAD=MANDATORY (no host fallback). Needs the plugin built at
# the repository root (`cargo build --release`).
set -euo pipefail
cd "$(dirname "$0")"

cargo build --release --locked --quiet
target=${CARGO_TARGET_DIR:-target}
image=$(ls -t "$target"/release/build/host-*/out/libdevice.so | head -n 1)

# scripts/run-offload.sh removes the /tmp/tmpfile_* copies of the image that
# libomptarget's host plugin leaves behind.
OMP_TARGET_OFFLOAD=MANDATORY sh "$PWD"/../../scripts/run-offload.sh "$image" "$target/release/host"
