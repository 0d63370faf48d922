#!/bin/sh
# Builds the multi-crate offload program (test-ir/rustc/Inputs/multi-crate):
#   build-multi-crate.sh OUT RUSTC-FLAGS...
# 1. the device crate, x86_64 cdylib, through offload-wrap-kernels: OUT/libdevice.so
# 2. OUT/digest.rs: the image digest as a Rust const (scripts/read-manifest.py --digest)
# 3. the library crate (rlib) and the binary crate with RUSTC-FLAGS (e.g.
#    -Ccodegen-units=16 -Clto=thin), both with
#    OFFLOAD_PASSES_OPTIMIZER_LAST=offload-host<image=OUT/libdevice.so>: OUT/main
# Needs: $RUSTC_PLUGIN_FLAGS (rustc -Zllvm-plugins=...), $LLVM_LIBDIR; each
# command is echoed to stderr.
set -eu
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$here/multi-crate
root=$here/../../..
rustc=${RUSTC:-rustc}
plugin=${OFFLOAD_PASSES_PLUGIN:-$root/target/release/liboffload_passes.so}
libdir=${LLVM_LIBDIR:-$(llvm-config-22 --libdir)}
run() { echo "+ $*" >&2; "$@"; }
mkdir -p "$out"
export RUSTC_BOOTSTRAP=1
run "$rustc" -Zllvm-plugins="$plugin" --edition=2024 -O --crate-type=cdylib --crate-name=device \
  '-Cpasses=offload-wrap-kernels<kernels=scale:add:fill>' "$src/device.rs" -o "$out/libdevice.so"
digest=$(python3 "$root/scripts/read-manifest.py" --digest "$out/libdevice.so" | sed -n 's/^digest //p')
echo "pub const DIGEST: u64 = 0x$digest;" > "$out/digest.rs"
export OFFLOAD_TEST_DIR="$out"
export OFFLOAD_PASSES_OPTIMIZER_LAST="offload-host<image=$out/libdevice.so>"
run "$rustc" -Zllvm-plugins="$plugin" --edition=2024 -O "$@" --crate-type=rlib --crate-name=offload_lib \
  "$src/lib.rs" -o "$out/liboffload_lib.rlib"
run "$rustc" -Zllvm-plugins="$plugin" --edition=2024 -O "$@" --crate-type=bin --crate-name=main \
  --extern offload_lib="$out/liboffload_lib.rlib" "$src/main.rs" -o "$out/main" \
  -L native="$libdir" -l omptarget -C link-arg=-Wl,-rpath,"$libdir"
