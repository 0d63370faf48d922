#!/bin/sh
# lit's %device-image. Usage:
#   device-image.sh [-passes=PIPELINE] DEVICE IMAGE [LLC-OPTION...]
#
# Builds a device image (the shared object libomptarget loads) from device IR
# or bitcode DEVICE, with LLVM 22's tools:
#   opt -load-pass-plugin=PLUGIN -passes=PIPELINE DEVICE -o BASE.bc   (only with -passes=)
#   llc -O2 -relocation-model=pic -filetype=obj [LLC-OPTION...] DEVICE|BASE.bc -o BASE.o
#   ld.lld -shared BASE.o -o IMAGE
# BASE is IMAGE without its .so suffix; BASE.o (and BASE.bc) are left for
# the test to use. The target is DEVICE's triple (x86_64 for libomptarget's
# host plugin) unless an LLC-OPTION such as -mtriple= says otherwise.
# Tools: $LLVM_BINDIR (lit sets it; default `llvm-config-22 --bindir`);
# plugin: $OFFLOAD_PASSES_PLUGIN (lit sets it; default target/release).
# Each command is echoed to stderr before it runs, so a failing RUN line
# shows which one failed.
set -eu
passes=
case ${1-} in -passes=*) passes=$1; shift ;; esac
if [ $# -lt 2 ]; then
  echo "usage: $0 [-passes=PIPELINE] DEVICE IMAGE [LLC-OPTION...]" >&2
  exit 2
fi
device=$1 image=$2
shift 2
bindir=${LLVM_BINDIR:-$(llvm-config-22 --bindir)}
plugin=${OFFLOAD_PASSES_PLUGIN:-$(dirname "$0")/../../target/release/liboffload_passes.so}
base=${image%.so}
run() { echo "+ $*" >&2; "$@"; }
if [ -n "$passes" ]; then
  if [ "$device" = "$base.bc" ]; then
    echo "$0: $device would be overwritten by opt's output; name the image otherwise" >&2
    exit 2
  fi
  run "$bindir/opt" -load-pass-plugin="$plugin" "$passes" "$device" -o "$base.bc"
  device=$base.bc
fi
run "$bindir/llc" -O2 -relocation-model=pic -filetype=obj "$@" "$device" -o "$base.o"
run "$bindir/ld.lld" -shared "$base.o" -o "$image"
