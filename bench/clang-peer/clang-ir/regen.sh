#!/usr/bin/env bash
# Regenerates the clang-22 IR kept here (see ../notes.md, "What clang 22 emits").
#   bash bench/clang-peer/clang-ir/regen.sh
set -euo pipefail
cd "$(dirname "$0")"
L=$(llvm-config-22 --libdir)
omp=(-fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu)
clang-22 -O2 "${omp[@]}" -S -emit-llvm --offload-host-only tiny.c -o tiny.host.O2.ll
clang-22 -O0 "${omp[@]}" -S -emit-llvm --offload-host-only tiny.c -o tiny.host.O0.ll
clang-22 -O2 "${omp[@]}" -S -emit-llvm --offload-device-only tiny.c -o tiny.device.O2.ll
clang-22 -O2 "${omp[@]}" -S -emit-llvm --offload-host-only maptypes.c -o maptypes.host.O2.ll
# What clang-linker-wrapper adds to the linked program (image bytes elided).
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
clang-22 -O2 "${omp[@]}" -c tiny.c -o "$t/tiny.o"
clang-22 "${omp[@]}" "$t/tiny.o" -o "$t/tiny" -L"$L" -Wl,-rpath,"$L" -Wl,--print-wrapped-module 2>&1 |
  sed -E 's/c"[^"]{200,}"/c"...OffloadBinary bytes elided..."/' > wrapper-module.ll
{ echo "# llvm-objdump-22 --offloading tiny.o"; llvm-objdump-22 --offloading "$t/tiny.o" | sed 1,2d
  echo "# llvm-readelf-22 -S tiny.o (offloading sections)"; llvm-readelf-22 -S "$t/tiny.o" | grep -E 'offload|Nr'
  clang-22 "${omp[@]}" "$t/tiny.o" -o "$t/tiny" -L"$L" -Wl,-rpath,"$L"
  echo "# llvm-objdump-22 --offloading tiny (linked)"; llvm-objdump-22 --offloading "$t/tiny" | sed 1,2d
  echo "# llvm-readelf-22 -S tiny (linked, offloading sections)"; llvm-readelf-22 -S "$t/tiny" | grep -E 'offload|Nr'
} > sections.txt
