#!/usr/bin/env bash
# gpu-check.sh: the NVPTX end-to-end check on an NVIDIA GPU, prepared on a
# development machine (no GPU needed) and run on a machine with an NVIDIA
# GPU (sm_90 or newer) and its driver, python3 and, for check 2, CUDA's
# ptxas; no LLVM there. One script, two steps:
#
#   bash scripts/gpu-check.sh --prepare [DIR] [--no-runtime]   # here; DIR = target/gpu-check
#   bash scripts/gpu-check.sh --run [DIR]       # on the GPU machine, < 5 minutes
#
# Copy the working tree with DIR to the GPU machine (DIR stays under 60 MiB,
# so that both fit in 64 MiB) and run --run there.
#
# What --prepare builds into DIR (needs the plugin built, ptxas from
# scripts/setup.sh, LLVM 22, libomptarget; rustc for the Rust kernels):
#   device/ir.cubin, c.cubin, rust.cubin   examples/nvptx/kernels.{ll,cu,rs}
#       through offload-wrap-kernels, llc-22 -mcpu=sm_90 -mattr=+ptx80 and
#       ptxas 12.9 -arch=sm_90 (the commands of test-ir/nvptx/*-flow.test)
#   device/ir.ptx     the IR kernels' PTX, for the GPU machine's own ptxas
#   device/ir.bc      the wrapped IR kernels as nvptx64 bitcode (a JIT image)
#   hosts/ir, c, rust examples/nvptx/host.c through offload-host with the
#                     matching cubin (arch=sm_90), linked with -lomptarget
#   rust/rust-offload, rust/rust-linalg   examples/rust-offload and
#                     examples/rust-linalg (with cargo), each one program
#                     holding host, gfx90a and sm_90 images
#                     (OFFLOAD_TARGETS=host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90;
#                     the cubin made by this ptxas)
#   hosts/bitcode     the same host program with device/ir.bc embedded
#   hosts/bitcode-init  ditto, plus a constructor that registers LLVM's NVPTX
#                     target in the process (gpu-check/register_nvptx.c),
#                     which Debian's libomptarget 22.1.8 does not do for its
#                     JIT (docs/nvptx-notes.md)
#   runtime.tar.xz    Debian 12's libomptarget.so.22.1 (with the CUDA plugin,
#                     which dlopens libcuda.so), libLLVM.so.22.1 (150 MB),
#                     libomp, libstdc++/libgcc_s and every other library they
#                     need, xz -9 (about 46 MB); glibc/ holds Debian's glibc
#                     2.36 (libLLVM needs GLIBC_2.36), used only when the
#                     device's glibc is older. --no-runtime leaves it out.
#   BUILD-INFO        versions, sizes and sha256 of everything above
#
# What --run checks, each printing "PASS <check>: <numbers>" or "FAIL <check>:
# <why>", then "gpu-check: N passed, M failed" (exit 1 on any failure):
#   1. driver: for each cubin, gpu-check/driver_check.py (python3 + ctypes
#      on libcuda.so.1) loads it, checks the three kernels' parameter layouts
#      and manifests on the device, launches every kernel exactly as
#      libomptarget 22's CUDA plugin does and compares the results with the
#      numbers host.c expects.
#   2. device ptxas: assembles device/ir.ptx with the machine's ptxas
#      ($GPU_CHECK_PTXAS, else ptxas on PATH, else /usr/local/cuda/bin/ptxas),
#      prints the cubin's header (ELF ABI version, e_flags, sm), checks
#      kernels and manifests survive (test-ir/Inputs/elf-info.py) and runs
#      check 1 on that cubin.
#   3. libomptarget: unpacks runtime.tar.xz and runs hosts/* with
#      OMP_TARGET_OFFLOAD=MANDATORY through libomptarget's CUDA plugin; each
#      program checks its own results ("all: PASS"). hosts/bitcode is
#      expected to fail with "no targets are registered" (the documented
#      limit), hosts/bitcode-init to pass (the JIT then calls the ptxas on
#      PATH).
#   4. Rust programs: runs rust/* the same way; each checks its own results
#      against the CPU and exits non-zero on a difference; rust-linalg must
#      also report that its kernels ran on the GPU (its `runs_on_cpu` kernel).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The check's own programs (driver_check.py, register_nvptx.c).
here=$root/scripts/gpu-check

usage() {
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

# ---------------------------------------------------------------- prepare
# prepare's steps share its settings: plugin, ptxas, libdir, ex (the
# examples), llc (the NVPTX llc command), out (DIR) and w (its scratch dir).

# Echoes a command (paths relative to the repository) and runs it.
run() { echo "+ $*" | sed "s|$root/||g"; "$@"; }
# Links a host program against libomptarget, found in DIR/lib at run time.
link() { run clang-22 -O1 "$@" -L"$libdir" -lomptarget -Wl,-rpath,'$ORIGIN/../lib'; }

prepare() {
  set -e
  out=$1
  local runtime=$2
  plugin=${OFFLOAD_PASSES_PLUGIN:-$root/target/release/liboffload_passes.so}
  ptxas=${PTXAS:-$root/tools/bin/ptxas}
  ex=$root/examples/nvptx
  libdir=$(llvm-config-22 --libdir)
  [ -f "$plugin" ] || { echo "gpu-check: build the plugin first (cargo build --release)" >&2; exit 1; }
  [ -x "$ptxas" ] || { echo "gpu-check: no ptxas at $ptxas (bash scripts/setup.sh)" >&2; exit 1; }
  rm -rf "$out"
  mkdir -p "$out/device" "$out/hosts" "$out/work"
  w=$out/work
  llc=(llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80)

  build_cubins
  build_hosts
  build_rust_programs
  if [ "$runtime" = yes ]; then
    bundle_runtime
  fi
  rm -rf "$w"
  write_build_info
}

# device/*: the cubins of the IR, CUDA C and (with rustc) Rust kernels; sets
# images to their names.
build_cubins() {
  # IR
  run opt-22 -load-pass-plugin="$plugin" -passes=offload-wrap-kernels "$ex/kernels.ll" -o "$out/device/ir.bc"
  run "${llc[@]}" "$out/device/ir.bc" -o "$out/device/ir.ptx"
  run "$ptxas" -arch=sm_90 "$out/device/ir.ptx" -o "$out/device/ir.cubin"
  # CUDA C
  run clang-22 -x cuda --cuda-device-only --offload-arch=sm_90 -nocudainc -nocudalib --cuda-feature=+ptx80 \
    -O2 -emit-llvm -c "$ex/kernels.cu" -o "$w/c.bc"
  run opt-22 -load-pass-plugin="$plugin" -passes=offload-wrap-kernels "$w/c.bc" -o "$w/c.wrapped.bc"
  run "${llc[@]}" "$w/c.wrapped.bc" -o "$w/c.ptx"
  run "$ptxas" -arch=sm_90 "$w/c.ptx" -o "$out/device/c.cubin"
  # Rust
  images=(ir c)
  if command -v rustc >/dev/null; then
    run env RUSTC_BOOTSTRAP=1 rustc -Zllvm-plugins="$plugin" -Cpasses=offload-wrap-kernels --target nvptx64-nvidia-cuda \
      -Ctarget-cpu=sm_90 -Copt-level=3 --crate-type cdylib --emit=llvm-bc "$ex/kernels.rs" -o "$w/rust.bc"
    run "${llc[@]}" "$w/rust.bc" -o "$w/rust.ptx"
    run "$ptxas" -arch=sm_90 "$w/rust.ptx" -o "$out/device/rust.cubin"
    images+=(rust)
  else
    echo "gpu-check: no rustc; the Rust kernels are left out" >&2
  fi
}

# hosts/*: one host program per image, all from host.c.
build_hosts() {
  run clang-22 -O1 -emit-llvm -c "$ex/host.c" -o "$w/host.bc"
  local image
  for image in "${images[@]}"; do
    run opt-22 -load-pass-plugin="$plugin" "-passes=offload-host<image=$out/device/$image.cubin;arch=sm_90>" "$w/host.bc" -o "$w/host.$image.bc"
    link "$w/host.$image.bc" -o "$out/hosts/$image"
  done
  run opt-22 -load-pass-plugin="$plugin" "-passes=offload-host<image=$out/device/ir.bc>" "$w/host.bc" -o "$w/host.bitcode.bc"
  link "$w/host.bitcode.bc" -o "$out/hosts/bitcode"
  link "$w/host.bitcode.bc" "$here/register_nvptx.c" -o "$out/hosts/bitcode-init"
}

# rust/*: the Rust example programs with host, AMDGPU and NVIDIA images.
build_rust_programs() {
  if ! command -v cargo >/dev/null; then
    echo "gpu-check: no cargo; the Rust programs are left out" >&2
    return
  fi
  mkdir -p "$out/rust"
  local example program cargo_target=$root/target/gpu-check-cargo
  for example in rust-offload rust-linalg; do
    run env OFFLOAD_PASSES_PLUGIN="$plugin" OFFLOAD_PASSES_PTXAS="$ptxas" CARGO_TARGET_DIR="$cargo_target" \
      OFFLOAD_TARGETS=host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90 \
      cargo build --release --locked --quiet --manifest-path "$root/examples/$example/Cargo.toml"
    program=$(sed -n 's/^name = "\(.*\)"$/\1/p' "$root/examples/$example/host/Cargo.toml" | head -n 1)
    cp "$cargo_target/release/$program" "$out/rust/$example"
  done
}

# runtime.tar.xz: libomptarget and everything it loads, except glibc
# (glibc/ instead).
bundle_runtime() {
  local libs=() lib
  libs+=("$(readlink -f "$libdir/libomptarget.so.22.1")")
  for lib in $(ldd "$libdir/libomptarget.so.22.1" | awk '/=>/ {print $3}'); do
    case $(basename "$lib") in
      libc.so.6 | libm.so.6 | ld-linux*) ;;
      *) libs+=("$(readlink -f "$lib")") ;;
    esac
  done
  mkdir -p "$w/lib/glibc"
  for lib in "${libs[@]}"; do cp "$lib" "$w/lib/"; done
  # Name each copy by its soname (readlink -f gave the file names).
  for lib in "$w"/lib/*.so*; do
    local soname
    soname=$(objdump -p "$lib" 2>/dev/null | awk '/SONAME/ {print $2}')
    [ -n "$soname" ] && [ "$(basename "$lib")" != "$soname" ] && mv "$lib" "$w/lib/$soname"
  done
  # libLLVM's DynamicLibrary also opens "libomp.so" by that name: without
  # this link a second libomp (the system's, if any) would be initialised.
  ln -s libomp.so.5 "$w/lib/libomp.so"
  cp /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libm.so.6 "$w/lib/glibc/"
  cp "$(readlink -f /lib64/ld-linux-x86-64.so.2)" "$w/lib/glibc/ld-linux-x86-64.so.2"
  echo "+ tar -C work -cf - lib | xz -9 -T2 > runtime.tar.xz  (takes a few minutes)"
  tar -C "$w" -cf - lib | nice xz -9 -T2 >"$out/runtime.tar.xz"
}

# BUILD-INFO, and the bundle's size: it must stay under 60 MiB.
write_build_info() {
  {
    echo "prepared $(date -u +%Y-%m-%dT%H:%MZ) from $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "llvm $(llvm-config-22 --version); $("$ptxas" --version | tail -n 1)"
    command -v rustc >/dev/null && rustc --version
    (cd "$out" && find . -type f ! -name BUILD-INFO | sort | xargs sha256sum)
  } >"$out/BUILD-INFO"
  local size
  size=$(du -sb "$out" | cut -f1)
  echo "gpu-check: prepared $out: $((size / 1024 / 1024)) MiB ($size bytes)"
  if [ "$size" -gt $((60 * 1024 * 1024)) ]; then
    echo "gpu-check: $out is over 60 MiB; with the working tree it would not fit in 64 MiB" >&2
    exit 1
  fi
}

# ---------------------------------------------------------------- run
passed=0
failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# Python + ctypes on libcuda: load a cubin and launch its kernels with
# libomptarget's argument layout. Prints PASS/FAIL lines itself.
driver_check() {
  python3 "$here/driver_check.py" "$1" "$2"
}

# Counts the PASS/FAIL lines of a command's output into the totals.
tally() {
  local line
  while IFS= read -r line; do
    echo "$line"
    case $line in
      PASS*) passed=$((passed + 1)) ;;
      FAIL*) failed=$((failed + 1)) ;;
    esac
  done
}

# The checks share dir (the prepared DIR), work (a scratch dir), glibc (the
# machine's version), device_ptxas (the machine's ptxas), loader (the
# carried glibc's loader, or nothing) and host_env (a host program's
# environment).
run_checks() {
  dir=$1
  [ -d "$dir/device" ] || { echo "gpu-check: $dir is not prepared (bash scripts/gpu-check.sh --prepare $dir)" >&2; exit 2; }
  dir=$(cd "$dir" && pwd)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "== gpu-check on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ)"
  head -n 3 "$dir/BUILD-INFO" 2>/dev/null | sed 's/^/   /'
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | sed 's/^/   gpu: /'
  glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
  echo "   glibc $glibc, $(python3 --version 2>&1)"

  echo "== 1. driver API: our cubins, libomptarget's argument layout"
  local cubin
  for cubin in "$dir"/device/*.cubin; do
    tally < <(driver_check "$(basename "$cubin" .cubin)" "$cubin" 2>&1)
  done

  echo "== 2. the device's ptxas on our PTX"
  device_ptxas=${GPU_CHECK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
  if [ -x "$device_ptxas" ]; then
    check_device_ptxas
  else
    fail "device-ptxas: no ptxas on PATH or in /usr/local/cuda/bin"
  fi

  echo "== 3. libomptarget 22.1.8 (Debian) with its CUDA plugin"
  if [ ! -f "$dir/runtime.tar.xz" ]; then
    fail "libomptarget: $dir/runtime.tar.xz missing (prepared with --no-runtime)"
  elif ! tar -C "$work" -xJf "$dir/runtime.tar.xz"; then
    fail "libomptarget: cannot unpack runtime.tar.xz"
  else
    check_libomptarget
  fi
  echo "gpu-check: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# Check 2: the machine's ptxas assembles our PTX into a cubin that keeps the
# kernels and manifests, and that cubin passes the driver check.
check_device_ptxas() {
  echo "   $("$device_ptxas" --version | tail -n 1)"
  if ! timeout 60 "$device_ptxas" -arch=sm_90 "$dir/device/ir.ptx" -o "$work/device-ptxas.cubin" 2>"$work/ptxas.err"; then
    fail "device-ptxas ir: $(head -c 300 "$work/ptxas.err")"
    return
  fi
  python3 "$root/test-ir/Inputs/elf-info.py" "$work/device-ptxas.cubin" --data __offload_manifest_ >"$work/info"
  grep -v '^section' "$work/info" | sed 's/^/   /'
  local k missing=""
  for k in saxpy scalars step; do
    grep -q "^kernel $k " "$work/info" || missing+=" kernel:$k"
  done
  # The manifests read back as from our ptxas's cubin.
  python3 "$root/scripts/read-manifest.py" "$work/device-ptxas.cubin" >"$work/device-ptxas.manifest" 2>&1
  python3 "$root/scripts/read-manifest.py" "$dir/device/ir.cubin" >"$work/ir.manifest" 2>&1
  cmp -s "$work/device-ptxas.manifest" "$work/ir.manifest" && grep -q "^kernel step:" "$work/ir.manifest" ||
    missing+=" manifests (read-manifest.py differs from ir.cubin's)"
  if [ -z "$missing" ]; then
    pass "device-ptxas ir: kernels and manifests survive; $(head -n 1 "$work/info")"
  else
    fail "device-ptxas ir: missing$missing"
  fi
  tally < <(driver_check device-ptxas "$work/device-ptxas.cubin" 2>&1)
}

# Check 3: every host program through the unpacked libomptarget and the
# machine's libcuda (with the carried glibc where the machine's is older).
check_libomptarget() {
  # The CUDA plugin dlopens "libcuda.so" (no version): point it at the driver's.
  local libcuda
  libcuda=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
  [ -n "$libcuda" ] || libcuda=$(python3 -c 'import ctypes.util; print(ctypes.util.find_library("cuda") or "")')
  mkdir -p "$work/cuda"
  [ -n "$libcuda" ] && ln -sf "$libcuda" "$work/cuda/libcuda.so"
  echo "   libcuda: ${libcuda:-not found}"
  loader=()
  if [ -n "${GPU_CHECK_CARRIED_GLIBC:-}" ] || { [ -n "$glibc" ] && [ "$(printf '%s\n' 2.36 "$glibc" | sort -V | head -n 1)" != 2.36 ]; }; then
    echo "   glibc $glibc < 2.36 (libLLVM.so.22.1 needs 2.36): using Debian's carried glibc"
    loader=("$work/lib/glibc/ld-linux-x86-64.so.2" --library-path "$work/lib:$work/lib/glibc:$work/cuda:$(dirname "${libcuda:-/x}")")
  fi
  # The environment of a host program: the unpacked runtime, and the
  # machine's ptxas on PATH (for the JIT of a bitcode image).
  host_env=(LD_LIBRARY_PATH="$work/lib:$work/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    PATH="$(dirname "$device_ptxas"):$PATH" OMP_TARGET_OFFLOAD=MANDATORY)
  local host
  for host in "$dir"/hosts/*; do
    run_host "$host"
  done
  echo "== 4. Rust programs (host, gfx90a and sm_90 images in one binary)"
  for host in "$dir"/rust/*; do
    [ -f "$host" ] && run_rust "$host"
  done
}

# Runs one Rust program: it checks its own results and exits non-zero on a
# difference.
run_rust() {
  local host=$1 name start end
  name=$(basename "$host")
  start=$(date +%s%N)
  env "${host_env[@]}" timeout 120 "${loader[@]}" "$host" >"$work/$name.out" 2>&1
  local rc=$?
  end=$(date +%s%N)
  sed 's/^/   | /' "$work/$name.out" | head -n 20
  local ms=$(((end - start) / 1000000))
  if [ $rc -ne 0 ]; then
    fail "rust $name: exit $rc after $ms ms; $(grep -E 'error|panicked|FAIL' "$work/$name.out" | head -n 2 | tr '\n' ' ')"
    env "${host_env[@]}" LIBOMPTARGET_INFO=-1 timeout 120 "${loader[@]}" "$host" 2>&1 | tail -n 15 | sed 's/^/   info| /'
  elif [ "$name" = rust-linalg ] && ! grep -q "kernels ran on a GPU" "$work/$name.out"; then
    fail "rust $name: results right, but its kernels ran on libomptarget's CPU plugin, not the GPU"
  else
    pass "rust $name: results checked by the program, $ms ms"
  fi
}

# Runs one host program and judges its output.

run_host() {
  local host=$1 name
  name=$(basename "$host")
  env "${host_env[@]}" timeout 120 "${loader[@]}" "$host" >"$work/$name.out" 2>&1
  local rc=$?
  sed 's/^/   | /' "$work/$name.out" | head -n 20
  if [ "$name" = bitcode ]; then
    if grep -q "no targets are registered" "$work/$name.out"; then
      pass "libomptarget $name: refused as documented (the JIT registers no LLVM target)"
    elif [ $rc -eq 0 ] && grep -q "^all: PASS" "$work/$name.out"; then
      fail "libomptarget $name: ran, but docs/nvptx-notes.md says the JIT finds no target: update the notes"
    else
      fail "libomptarget $name: exit $rc, not the documented error"
    fi
  elif [ $rc -eq 0 ] && grep -q "^all: PASS" "$work/$name.out"; then
    pass "libomptarget $name: $(grep -c 'PASS$' "$work/$name.out") kernels checked ($(grep '^saxpy' "$work/$name.out" | sed 's/ PASS$//'))"
  else
    fail "libomptarget $name: exit $rc; $(grep -E 'FAIL|error' "$work/$name.out" | head -n 2 | tr '\n' ' ')"
    # Once more with libomptarget's trace, for the report.
    env "${host_env[@]}" LIBOMPTARGET_INFO=-1 timeout 120 "${loader[@]}" "$host" 2>&1 | tail -n 15 | sed 's/^/   info| /'
  fi
}

case ${1:-} in
  --prepare)
    dir=${2:-$root/target/gpu-check}
    runtime=yes
    [ "${3:-}" = --no-runtime ] && runtime=no
    prepare "$dir" "$runtime"
    ;;
  --run) run_checks "${2:-$root/target/gpu-check}" ;;
  *) usage ;;
esac
