#!/bin/sh
# Usage: run-built.sh TARGET_DIR PROFILE PACKAGE
# Runs an example program cargo built (TARGET_DIR/PROFILE/PACKAGE) on
# libomptarget with OMP_TARGET_OFFLOAD=MANDATORY through scripts/run-offload.sh,
# which removes the /tmp copies of its image (the newest
# TARGET_DIR/PROFILE/build/PACKAGE-*/out/lib*kernels.so) afterwards.
set -eu
target=$1 profile=$2 package=$3
here=$(cd "$(dirname "$0")" && pwd)
image=$(ls -t "$target/$profile/build/$package"-*/out/lib*kernels.so | head -n 1)
OMP_TARGET_OFFLOAD=MANDATORY exec sh "$here/../../../scripts/run-offload.sh" "$image" "$target/$profile/$package"
