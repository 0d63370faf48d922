#!/bin/sh
# Usage: run-mpi.sh TARGET_DIR PROFILE PACKAGE RANKS [ARG...]
# Runs an example program that scripts/run-example.sh built and ran
# (TARGET_DIR/PROFILE/PACKAGE; its image in the OUT_DIR recorded in
# PACKAGE.offload-out) as RANKS MPI ranks on this machine:
# mpirun --oversubscribe (more ranks than cores), --allow-run-as-root (CI
# runs as root), loopback only (Open MPI's self and shared-memory
# transports; the runtime's own TCP on lo), no binding to cores (the machine
# is shared), OMP_TARGET_OFFLOAD=MANDATORY. A job that runs past 120 s is
# killed (a hang fails the test). Prints "exit status N" (mpirun's) last on
# stdout and exits with it; removes the /tmp copies of the image.
set -eu
target=$1 profile=$2 package=$3 ranks=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
image=$(ls "$(head -n 1 "$target/$profile/$package.offload-out")"/lib*kernels.so | head -n 1)
status=0
OMP_TARGET_OFFLOAD=MANDATORY timeout -k 10 120 sh "$here/../../../scripts/run-offload.sh" "$image" \
  mpirun -n "$ranks" --oversubscribe --allow-run-as-root --bind-to none \
  --mca btl self,vader --mca oob_tcp_if_include lo -x OMP_TARGET_OFFLOAD \
  "$target/$profile/$package" "$@" || status=$?
[ "$status" -ne 124 ] || echo "run-mpi.sh: $package with $ranks ranks ran past 120 s" >&2
echo "exit status $status"
exit "$status"
