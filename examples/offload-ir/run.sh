#!/usr/bin/env bash
# The host flow end to end from hand-written IR: device IR → wrapped device IR
# → image (x86_64 shared object) → host IR with launches → running program.
# Needs the plugin built at the repository root (`cargo build --release`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plugin=${OFFLOAD_PASSES_PLUGIN:-$here/../../target/release/liboffload_passes.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
libdir=$(llvm-config-22 --libdir)

run() { echo "+ $*" | sed "s|$work/||g; s|$plugin|liboffload_passes.so|g"; "$@"; }
run opt-22 -load-pass-plugin="$plugin" -passes=offload-wrap-kernels "$here/device.ll" -S -o "$work/device.wrapped.ll"
grep '^define' "$work/device.wrapped.ll" | sed 's/^/    /'
run llc-22 -O2 -relocation-model=pic -filetype=obj "$work/device.wrapped.ll" -o "$work/device.o"
run ld.lld-22 -shared "$work/device.o" -o "$work/device.so"
run opt-22 -load-pass-plugin="$plugin" "-passes=offload-host<image=$work/device.so>" "$here/host.ll" -S -o "$work/host.offload.ll"
grep -E '__tgt_target_kernel|__tgt_register_lib\(' "$work/host.offload.ll" | head -2 | sed 's/^ */    /'
run clang-22 -O1 "$work/host.offload.ll" -o "$work/host" -L"$libdir" -lomptarget -Wl,-rpath,"$libdir"

# scripts/run-offload.sh removes the /tmp/tmpfile_* copies of the image that
# libomptarget's host plugin leaves behind.
OMP_TARGET_OFFLOAD=MANDATORY sh "$here"/../../scripts/run-offload.sh "$work/device.so" "$work/host"
