#!/usr/bin/env bash
# clang-22's OpenMP offload as a peer of the CPU grid (not part of the test
# suite): builds grid.c (the kernels of `rust-gpu-toolkit --bench` as
# `target teams distribute parallel for` regions) with clang-22's offload
# driver for the x86_64 host plugin, runs it on one worker and on two
# (OMP_NUM_THREADS=1 and 2: libomp's one team on the host gets that many
# threads), then prints the speed-up from one worker to two. Says why and
# exits 0 without running when clang-22, its offload linker or libomptarget
# is not installed. bench/cpu-grid.sh runs it last. See bench/README.md.
#
#   bench/clang-peer-grid/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
skip() {
  echo "skipped: $* (scripts/setup.sh installs it)"
  exit 0
}
for tool in clang-22 llvm-config-22 clang-linker-wrapper-22 llvm-offload-binary-22; do
  command -v "$tool" >/dev/null || skip "$tool not found"
done
libdir=$(llvm-config-22 --libdir)
for lib in libomp.so libomptarget.so; do
  [[ -e $libdir/$lib ]] || skip "$libdir/$lib not found"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# -lm for both links: the code clang emits for the `scan` directive calls
# libm's log2 and ceil, on the host and in the device image.
clang-22 -O2 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu "$here/grid.c" -o "$work/grid" \
  -L"$libdir" -Wl,-rpath,"$libdir" -lm -Xoffload-linker -lm
# The device image inside the program: the host plugin copies it to
# /tmp/tmpfile_* on every run, which run-offload.sh deletes by content.
llvm-offload-binary-22 "$work/grid" --image=file="$work/grid.img",triple=x86_64-unknown-linux-gnu
run() {
  OMP_NUM_THREADS=$1 OMP_TARGET_OFFLOAD=MANDATORY sh "$root/scripts/run-offload.sh" "$work/grid.img" "$work/grid"
}
echo "-- 1 worker (OMP_NUM_THREADS=1)"
run 1 | tee "$work/out.1"
echo "-- 2 workers (OMP_NUM_THREADS=2)"
run 2 | tee "$work/out.2"
echo "-- speed-up from 1 to 2 workers"
paste -d'|' "$work/out.1" "$work/out.2" |
  sed -n 's/^\([^|]*\): clang teams \([0-9.]*\) ms[^|]*|[^|]*: clang teams \([0-9.]*\) ms.*/\1|\2|\3/p' |
  awk -F'|' '{ printf "%s: %.2fx\n", $1, $2 / $3 }'
