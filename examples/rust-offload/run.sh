#!/usr/bin/env bash
# Builds and runs the rust-offload example: cargo builds the host crate, whose
# build script compiles the device crate into the image; the host program
# then launches the kernels through libomptarget's host (x86_64) plugin with
# OMP_TARGET_OFFLOAD=MANDATORY (no host fallback). Needs the plugin built at
# the repository root (`cargo build --release`).
#
# The host plugin copies each image it loads to /tmp/tmpfile_XXXXXX and never
# deletes it; this script removes the copies of this run's image afterwards.
set -euo pipefail
cd "$(dirname "$0")"

cargo build --release --locked --quiet
target=${CARGO_TARGET_DIR:-target}
image=$(ls -t "$target"/release/build/host-*/out/libdevice.so | head -n 1)

before=$(ls /tmp/tmpfile_* 2>/dev/null || true)
status=0
OMP_TARGET_OFFLOAD=MANDATORY "$target/release/host" || status=$?
for f in /tmp/tmpfile_*; do
  [ -f "$f" ] || continue
  grep -qxF "$f" <<<"$before" && continue
  cmp -s "$f" "$image" && rm -f "$f"
done
exit $status
