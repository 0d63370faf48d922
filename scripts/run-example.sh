#!/usr/bin/env bash
# Builds and runs a Rust offload example (examples/rust-offload,
# examples/rust-linalg, or a copy of one): cargo builds its host crate
# (host/); the build script of the kernel crate (kernels/build.rs) or of the
# host crate builds the kernel crate into the device image; the program
# launches the kernels through libomptarget's host (x86_64) plugin with
# OMP_TARGET_OFFLOAD=MANDATORY (no host fallback). The OUT_DIR holding the
# image is written to TARGET/PROFILE/PROGRAM.offload-out.
#
#   bash scripts/run-example.sh EXAMPLE_DIR [--release]
#
# OFFLOAD_PASSES_PLUGIN defaults to this repository's
# target/release/liboffload_passes.so. CARGO_TARGET_DIR is honoured.
set -euo pipefail
scripts=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$scripts")
if [ $# -lt 1 ] || [ ! -f "$1/host/Cargo.toml" ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
cd "$1"
shift
if [ -z "${OFFLOAD_PASSES_PLUGIN:-}" ] && [ -e "$root/target/release/liboffload_passes.so" ]; then
  export OFFLOAD_PASSES_PLUGIN=$root/target/release/liboffload_passes.so
fi
profile=debug
[ "${1:-}" = "--release" ] && profile=release

# cargo's JSON messages name the OUT_DIR of every build script that ran (or
# was fresh); the device image is the .so in the one holding the launch
# stubs (the kernel crate's or the host crate's build script wrote it).
messages=$(mktemp)
trap 'rm -f "$messages"' EXIT
cargo build "$@" --locked --quiet --message-format=json-render-diagnostics > "$messages"
program=$(sed -n 's/^name = "\(.*\)"$/\1/p' host/Cargo.toml | head -n 1)
target=${CARGO_TARGET_DIR:-target}
outs=$(sed -n 's/.*"reason":"build-script-executed".*"out_dir":"\([^"]*\)".*/\1/p' "$messages")
image=""
for out in $outs; do
  if [ -f "$out/offload_stubs.rs" ]; then
    echo "$out" > "$target/$profile/$program.offload-out"
    image=$(ls "$out"/*.so | head -n 1)
  fi
done
if [ -z "$image" ]; then
  echo "run-example.sh: no build script of $program's packages built a device image" >&2
  exit 1
fi

# scripts/run-offload.sh removes the /tmp/tmpfile_* copies of the image that
# libomptarget's host plugin leaves behind.
OMP_TARGET_OFFLOAD=MANDATORY sh "$scripts/run-offload.sh" "$image" "$target/$profile/$program"
