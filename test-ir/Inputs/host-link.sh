#!/bin/sh
# lit's %host-link. Usage:
#   host-link.sh HOST IMAGE EXE
#
# Lowers the host module HOST (IR or bitcode) against the device image IMAGE
# and links it with libomptarget, with LLVM 22's tools:
#   opt -load-pass-plugin=PLUGIN '-passes=offload-host<image=IMAGE>' HOST -o BASE.bc
#   clang -O1 BASE.bc -o EXE -LLIBDIR -lomptarget -Wl,-rpath,LIBDIR
# BASE is EXE without its .exe suffix; BASE.bc is left for the test to use.
# Tools: $LLVM_BINDIR, libomptarget: $LLVM_LIBDIR (lit sets both; defaults
# from llvm-config-22); plugin: $OFFLOAD_PASSES_PLUGIN (lit sets it; default
# target/release). Each command is echoed to stderr before it runs.
set -eu
if [ $# -ne 3 ]; then
  echo "usage: $0 HOST IMAGE EXE" >&2
  exit 2
fi
host=$1 image=$2 exe=$3
bindir=${LLVM_BINDIR:-$(llvm-config-22 --bindir)}
libdir=${LLVM_LIBDIR:-$(llvm-config-22 --libdir)}
plugin=${OFFLOAD_PASSES_PLUGIN:-$(dirname "$0")/../../target/release/liboffload_passes.so}
base=${exe%.exe}
run() { echo "+ $*" >&2; "$@"; }
run "$bindir/opt" -load-pass-plugin="$plugin" "-passes=offload-host<image=$image>" "$host" -o "$base.bc"
run "$bindir/clang" -O1 "$base.bc" -o "$exe" -L"$libdir" -lomptarget -Wl,-rpath,"$libdir"
