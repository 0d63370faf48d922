#!/usr/bin/env bash
# What the device build costs a Rust offload program's build: clean release
# builds (`cargo build --release`, a fresh CARGO_TARGET_DIR each, so the host
# crates' dependencies are built every time too) of a copy of
# examples/rust-offload, timed by wall clock, in one run on one machine:
#
#   plain       the same program without a device build: a generated copy
#               whose kernels are plain functions (no #[kernel], no build.rs,
#               no offload-build) and whose main calls them directly with
#               InOut/Out views; the `offload` crate is built all the same
#   host cold   OFFLOAD_TARGETS=host with an empty offload-build cache
#               (OFFLOAD_SYSROOT_CACHE in the work directory: the shared
#               device target directory and cores are empty)
#   host warm   the same, the cache filled by `host cold`
#   three cold  OFFLOAD_TARGETS=host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90
#               with an empty cache (core built for gfx90a and sm_90 first)
#   three warm  the same three targets again
#   other       copies of the program in other directories, host only and
#               three targets, the cache filled: their kernel crates are new
#               to the device target directory, `offload` and the proc
#               macros are not (the `warm` builds above rebuild nothing of
#               the device build: an unchanged program after `cargo clean`)
#   edit        in the `host warm` build: one kernel edited (increment adds
#               2), then `cargo build --release` (the device build and the
#               link again)
#
# (wall clock and CPU time: on a machine shared with other builds the CPU
# time is the steadier measure) and prints two markdown tables: the three-target builds
# against `host warm` (the target for `three warm`: at most 1.5x), and
# the host-only builds against `plain` (the target: at most 1.5x; the
# edit: at most 3 s). Not a test; needs the plugin (cargo build --release),
# rust-src, llvm-bitcode-linker and ptxas (scripts/setup.sh). About 10
# minutes on 2 cores.
#
#   bash bench/build-cost.sh [--keep WORKDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
keep=no
if [ "${1:-}" = --keep ]; then
  work=$2
  keep=yes
  rm -rf "$work"
  mkdir -p "$work"
fi
[ "$keep" = yes ] || trap 'rm -rf "$work"' EXIT
export OFFLOAD_PASSES_PLUGIN=${OFFLOAD_PASSES_PLUGIN:-$root/target/release/liboffload_passes.so}
[ -f "$OFFLOAD_PASSES_PLUGIN" ] || { echo "build-cost: build the plugin first (cargo build --release)" >&2; exit 1; }
export OFFLOAD_SYSROOT_CACHE=$work/cache
unset OFFLOAD_DEVICE_TARGET_DIR OFFLOAD_TARGETS CARGO_TARGET_DIR
three=host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90

# The program, out of the repository (its crates named by absolute path).
app=$work/app
cp -r "$root/examples/rust-offload" "$app"
rm -rf "$app/target"
sed -i "s|path = \"../../rust/|path = \"$root/rust/|" "$app/Cargo.toml"

# The plain variant: kernels as functions, called directly.
plain=$work/plain
cp -r "$app" "$plain"
rm "$plain/kernels/build.rs"
sed -i '/^\[build-dependencies\]/,$d' "$plain/kernels/Cargo.toml"
sed -i '/^#\[kernel\]$/d; s/use offload::{InOut, Out, kernel};/use offload::{InOut, Out};/' "$plain/kernels/src/lib.rs"
cat > "$plain/host/src/main.rs" <<'RUST'
//! The rust-offload example's kernels called as plain functions.
use core::mem::MaybeUninit;

use kernels::{Nothing, Particle, increment, mix, saxpy, step, sum, touch};
use offload::{InOut, Out};

fn main() {
    let mut data = vec![1i32, 2, 3, 4, 5];
    increment(InOut::new(&mut data[..]));
    let (x, y) = ([1.0f32, 2.0, 3.0, 4.0], [0.5f32, 0.25, -1.0, 10.0]);
    let mut out = [MaybeUninit::<f32>::uninit(); 4];
    saxpy(2.5, &x, &y, Out::new(&mut out[..]));
    let mut mixed = MaybeUninit::uninit();
    mix(-7, 3_000_000_000, 0.5, 0.125, Out::new_one(&mut mixed));
    let mut moved = MaybeUninit::uninit();
    let p = Particle { x: 1.0, v: 2.0, mass: 4.0 };
    step(p, 8.0, 0.5, Out::new_one(&mut moved));
    let values: Vec<f64> = (1..=10).map(f64::from).collect();
    let mut total = 0.0f64;
    sum(&values, InOut::new_one(&mut total));
    let mut ran = 0u32;
    touch(Nothing {}, &Nothing {}, &[], InOut::new_one(&mut ran));
    println!("{data:?} {total} {ran}");
}
RUST

# "WALL CPU": the wall-clock and the CPU seconds (user + system of cargo and
# every process it waited for: rustc, the build scripts, the device build's
# cargo and ptxas), one decimal, of `cargo build --release` of $1 into $2
# with OFFLOAD_TARGETS=$3 ($2 emptied first unless $4 is `keep`).
build() {
  [ "${4:-}" = keep ] || rm -rf "$2"
  local TIMEFORMAT='%R %U %S'
  local times
  times=$({ time (cd "$1" && OFFLOAD_TARGETS=$3 CARGO_TARGET_DIR=$2 cargo build --release --offline --quiet 2>"$2.log"); } 2>&1) ||
    { echo "build-cost: the build of $1 with OFFLOAD_TARGETS=$3 failed:" >&2; tail -n 20 "$2.log" >&2; exit 1; }
  echo "$times" | awk '{printf "%.1f %.1f", $1, $2 + $3}'
}

start_load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "build-cost: plain functions, no device build" >&2
plain_s=$(build "$plain" "$work/t-plain" host)
rm -rf "$OFFLOAD_SYSROOT_CACHE"
echo "build-cost: host only, empty cache" >&2
host_cold=$(build "$app" "$work/t-host-cold" host)
echo "build-cost: host only, cache filled" >&2
host_warm=$(build "$app" "$work/t-host" host)
echo "build-cost: one kernel edited" >&2
sed -i 's|\*x += 1;|*x += 2;|' "$app/kernels/src/lib.rs"
grep -q '\*x += 2;' "$app/kernels/src/lib.rs"
edit=$(build "$app" "$work/t-host" host keep)
sed -i 's|\*x += 2;|*x += 1;|' "$app/kernels/src/lib.rs"
rm -rf "$OFFLOAD_SYSROOT_CACHE"
echo "build-cost: three targets, empty cache" >&2
three_cold=$(build "$app" "$work/t-three-cold" "$three")
echo "build-cost: three targets, cache filled" >&2
three_warm=$(build "$app" "$work/t-three" "$three")
# A new program: copies of the app elsewhere (their kernel crates are new
# to the device target directory; offload and the proc macros are not).
cp -r "$plain/../app" "$work/other-host"
cp -r "$plain/../app" "$work/other-three"
echo "build-cost: another copy, host only, cache filled" >&2
other_host=$(build "$work/other-host" "$work/t-other-host" host)
echo "build-cost: another copy, three targets, cache filled" >&2
other_three=$(build "$work/other-three" "$work/t-other-three" "$three")

wall() { echo "${1% *}"; }
cpu() { echo "${1#* }"; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }
# One row: label, measurement, baseline measurement.
row() {
  echo "| $1 | $(wall "$2") | $(cpu "$2") | $(ratio "$(wall "$2")" "$(wall "$3")") | $(ratio "$(cpu "$2")" "$(cpu "$3")") |"
}
echo "| clean build of examples/rust-offload (release) | wall s | CPU s | wall × host only | CPU × host only |"
echo "|---|---|---|---|---|"
row "host only (\`OFFLOAD_TARGETS=host\`), cache filled" "$host_warm" "$host_warm"
row "host + gfx90a + sm_90, empty cache" "$three_cold" "$host_warm"
row "host + gfx90a + sm_90, cache filled (target ≤ 1.5)" "$three_warm" "$host_warm"
row "another copy of the program: host only, cache filled" "$other_host" "$host_warm"
row "another copy of the program: host + gfx90a + sm_90, cache filled" "$other_three" "$host_warm"
echo
echo "| clean build of examples/rust-offload (release) | wall s | CPU s | wall × plain | CPU × plain |"
echo "|---|---|---|---|---|"
row "kernels as plain functions, no device build" "$plain_s" "$plain_s"
row "host image, empty cache (target ≤ 1.5)" "$host_cold" "$plain_s"
row "host image, cache filled (target ≤ 1.5)" "$host_warm" "$plain_s"
row "another copy of the program, host image, cache filled" "$other_host" "$plain_s"
echo "| one kernel edited, rebuild (target ≤ 3 s) | $(wall "$edit") | $(cpu "$edit") | | |"
echo
echo "$(nproc) cores, load $start_load at the start and $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(rustc --version)"
