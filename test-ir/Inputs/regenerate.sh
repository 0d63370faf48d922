#!/bin/sh
# Regenerates the compiler-made IR in test-ir/Inputs/ from
# examples/amdgpu-kernels/kernels.{rs,hip}: rustc-1.95-O0-g.ll,
# rustc-1.95-O3-g.ll, rustc-1.95-O3.ll and clang-22-hip.ll.
#
# Usage: sh test-ir/Inputs/regenerate.sh   (from anywhere; needs rustc 1.95
# and clang-22 on PATH)
#
# Each file's first line records the command that wrote it, with the
# repository root shown as <repo root>. The commands run from the root with
# relative paths, and --remap-path-prefix (rustc) and -ffile-prefix-map
# (clang) map the root to `.`, so no path of the machine that ran them is
# in the IR (debug info's compile directory included); clang's -cuid names
# the HIP module's CUID global, which clang otherwise hashes from machine-
# specific input. The tests that read these files (amdgpu-kernel-abi/rustc-*,
# byref-callee-copy/debug-declare.ll and rustc-k-mut-dyn.ll, rustc/
# amdgpu-examples.test) pin kernels, layouts and debug-info shapes, so
# rerun them after regenerating.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=test-ir/Inputs

# FILE VERSION COMMAND...: runs COMMAND (which writes FILE), then puts the
# header line in front.
produce() {
    file=$1 version=$2
    shift 2
    "$@"
    shown=$(printf '%s ' "$@" | sed "s|$root|<repo root>|g; s/ \$//")
    { printf '; produced by: cd <repo root> && %s   (%s)\n' "$shown" "$version"; cat "$file"; } > "$file.tmp"
    mv "$file.tmp" "$file"
}

rustc_version=$(rustc --version)
for variant in "O0-g -Copt-level=0 -Cdebuginfo=2" "O3-g -Copt-level=3 -Cdebuginfo=2" "O3 -Copt-level=3"; do
    set -- $variant
    name=$1
    shift
    produce "$out/rustc-1.95-$name.ll" "$rustc_version" \
        env RUSTC_BOOTSTRAP=1 rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib --emit=llvm-ir \
        -Ccodegen-units=1 "$@" "--remap-path-prefix=$root=." \
        examples/amdgpu-kernels/kernels.rs -o "$out/rustc-1.95-$name.ll"
done

produce "$out/clang-22-hip.ll" "$(clang-22 --version | head -n 1)" \
    clang-22 -x hip --cuda-device-only --offload-arch=gfx90a -nogpulib -nogpuinc -O2 -S -emit-llvm \
    "-ffile-prefix-map=$root=." -cuid=kernels \
    examples/amdgpu-kernels/kernels.hip -o "$out/clang-22-hip.ll"
