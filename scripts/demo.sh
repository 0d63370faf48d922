#!/usr/bin/env bash
# The main job on the bundled examples: install what is missing, build the
# plugin, then
# 1. compile examples/amdgpu-kernels/kernels.rs with rustc 1.95 for
#    amdgcn-amd-amdhsa and show kernels and their kernarg layout before and
#    after amdgpu-kernel-abi + byref-callee-copy, next to clang's layout for the
#    same C (examples/amdgpu-kernels/kernels.hip);
# 2. run the host flow from hand-written IR (examples/offload-ir): device IR →
#    image → host IR → a program that launches the kernel through libomptarget;
# 3. build and run the Rust offload programs (examples/rust-offload,
#    examples/rust-linalg, examples/rust-atomics) with Cargo on the offload crates (rust/).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cargo build --release --locked
plugin=$PWD/target/release/liboffload_passes.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo
echo "== AMDGPU kernel ABI: rustc 1.95, examples/amdgpu-kernels/kernels.rs"
if command -v rustc >/dev/null; then
  RUSTC_BOOTSTRAP=1 rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a -Copt-level=3 -Cdebuginfo=2 \
    -Ccodegen-units=1 --crate-type cdylib --emit=llvm-ir examples/amdgpu-kernels/kernels.rs -o "$work/before.ll"
else
  echo "(rustc not found: using the checked-in rustc 1.95 output)"
  cp test-ir/Inputs/rustc-1.95-O3-g.ll "$work/before.ll"
fi
opt-22 -load-pass-plugin="$plugin" -passes=amdgpu-kernel-abi,byref-callee-copy "$work/before.ll" -S -o "$work/after.ll"

show() { grep -E "^define .*@($2)\(" "$1" | sed -E 's/ (unnamed_addr|#[0-9]+|!dbg).*//'; }
kernels='k_three|k_tail|k_slice|k_one_c|k_mut_dyn'
echo "-- before (as rustc emits them):"; show "$work/before.ll" "$kernels"
echo "-- after -passes=amdgpu-kernel-abi,byref-callee-copy:"; show "$work/after.ll" "$kernels"

layout() { llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a "$1" -o "$1.s" && python3 test-ir/Inputs/kernarg-layout.py "$1.s"; }
clang-22 -x hip --cuda-device-only --offload-arch=gfx90a -nogpulib -nogpuinc -O2 -S -emit-llvm \
  examples/amdgpu-kernels/kernels.hip -o "$work/clang.ll" 2>/dev/null
layout "$work/clang.ll" > "$work/clang.layout"
layout "$work/before.ll" > "$work/before.layout"
layout "$work/after.ll" > "$work/after.layout"
echo
echo "-- kernarg layout (offset:size:kind), rustc before | after | clang:"
for k in k_three k_tail k_slice k_mixed k_over; do
  printf '%-10s %-55s | %-55s | %s\n' "$k" \
    "$(grep "^$k:" "$work/before.layout" | cut -d' ' -f2-)" \
    "$(grep "^$k:" "$work/after.layout" | cut -d' ' -f2-)" \
    "$(grep "^$k:" "$work/clang.layout" | cut -d' ' -f2-)"
done
if diff -q "$work/after.layout" "$work/clang.layout" >/dev/null; then
  echo "all $(wc -l < "$work/clang.layout") kernels: layout after the passes == clang's"
else
  echo "layout differs from clang's:"; diff "$work/clang.layout" "$work/after.layout" || true
  exit 1
fi

echo
echo "== Host flow from IR: examples/offload-ir (device.ll, host.ll)"
bash examples/offload-ir/run.sh 2> >(grep -v -e 'overriding the module target triple' -e 'warning generated' >&2)

echo
export OFFLOAD_PASSES_PLUGIN=$plugin
echo "== A Rust offload program: examples/rust-offload (#[offload::kernel]s, typed launches, a mapped region; libomptarget's host plugin)"
bash scripts/run-example.sh examples/rust-offload --release
echo
echo "== Patterns a GPU programmer knows: examples/rust-linalg (matvec, config struct, reduction, region, vendor library on device pointers)"
bash scripts/run-example.sh examples/rust-linalg --release
echo
echo "== Threads writing shared outputs soundly: examples/rust-atomics (histogram with global atomics, float atomic add, prefix sum, per-thread views)"
bash scripts/run-example.sh examples/rust-atomics --release
