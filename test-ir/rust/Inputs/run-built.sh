#!/bin/sh
# Usage: run-built.sh TARGET_DIR PROFILE PACKAGE [ARG...]
# Runs an example program cargo built (TARGET_DIR/PROFILE/PACKAGE) on
# libomptarget with OMP_TARGET_OFFLOAD=MANDATORY through scripts/run-offload.sh,
# which removes the /tmp copies of its image afterwards: the lib*kernels.so in
# the OUT_DIR scripts/run-example.sh recorded in TARGET_DIR/PROFILE/PACKAGE.offload-out,
# else the newest TARGET_DIR/PROFILE/build/PACKAGE-*/out/lib*kernels.so.
set -eu
target=$1 profile=$2 package=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$target/$profile/$package.offload-out" ]; then
  image=$(ls "$(head -n 1 "$target/$profile/$package.offload-out")"/lib*kernels.so | head -n 1)
else
  image=$(ls -t "$target/$profile/build/$package"-*/out/lib*kernels.so | head -n 1)
fi
OMP_TARGET_OFFLOAD=MANDATORY exec sh "$here/../../../scripts/run-offload.sh" "$image" "$target/$profile/$package" "$@"
