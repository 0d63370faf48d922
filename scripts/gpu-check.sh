#!/usr/bin/env bash
# gpu-check.sh: the NVPTX end-to-end check on an NVIDIA GPU, prepared on the
# development machine (no GPU) and run on the device machine (one H200,
# sm_90, NVIDIA driver, CUDA 13 with ptxas, python3; no LLVM, no network,
# at most 64 MiB carried there). One script, two steps:
#
#   bash scripts/gpu-check.sh --prepare [DIR] [--no-runtime]   # here; DIR = target/gpu-check
#   bash scripts/gpu-check.sh --run [DIR]       # on the GPU machine, < 5 minutes
#
# With the `run` tool: carry ["target/gpu-check"], command
# `bash scripts/gpu-check.sh --run target/gpu-check`, timeout_s 360.
#
# What --prepare builds into DIR (needs the plugin built, ptxas from
# scripts/setup.sh, LLVM 22, libomptarget; rustc for the Rust kernels):
#   device/ir.cubin, c.cubin, rust.cubin   examples/nvptx/kernels.{ll,cu,rs}
#       through offload-wrap-kernels, llc-22 -mcpu=sm_90 -mattr=+ptx80 and
#       ptxas 12.9 -arch=sm_90 (the commands of test-ir/nvptx/*-flow.test)
#   device/ir.ptx     the IR kernels' PTX, for the device's own ptxas (CUDA 13)
#   device/ir.bc      the wrapped IR kernels as nvptx64 bitcode (a JIT image)
#   hosts/ir, c, rust examples/nvptx/host.c through offload-host with the
#                     matching cubin (arch=sm_90), linked with -lomptarget
#   hosts/bitcode     the same host program with device/ir.bc embedded
#   hosts/bitcode-init  ditto, plus a constructor that registers LLVM's NVPTX
#                     target in the process (weak references to libLLVM's
#                     LLVMInitializeNVPTX*), which Debian's libomptarget
#                     22.1.8 does not do for its JIT (docs/nvptx-notes.md)
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
#   1. driver: for each cubin, python3 + ctypes on libcuda.so.1 (no other
#      package) loads it (cuModuleLoadData), finds the three kernels, reads
#      each kernel's parameter layout (cuFuncGetParamInfo: every slot 8 bytes
#      at 0, 8, 16, ...), reads each kernel's manifest back from the device
#      (cuModuleGetGlobal + copy: the cubin's bytes of __offload_manifest_<K>,
#      an offload-passes note with the kernel's name and parameter count),
#      and launches every kernel
#      exactly as libomptarget 22's CUDA plugin does: one packed buffer of
#      8-byte slots, first the dyn pointer (~0 for kernels without an OpenMP
#      kernel environment), then each argument (device pointers; scalars as
#      their bits zero-extended), passed with CU_LAUNCH_PARAM_BUFFER_POINTER
#      and CU_LAUNCH_PARAM_BUFFER_SIZE = the kernel's parameter size; then it
#      compares the results with the numbers host.c expects.
#   2. device ptxas: assembles device/ir.ptx with the machine's ptxas (CUDA
#      13), prints the cubin's header (ELF ABI version, e_flags, sm), checks
#      kernels and manifests survive (test-ir/Inputs/elf-info.py) and runs
#      check 1 on that cubin.
#   3. libomptarget: unpacks runtime.tar.xz and runs hosts/* with
#      OMP_TARGET_OFFLOAD=MANDATORY through libomptarget's CUDA plugin; each
#      program checks its own results ("all: PASS"). hosts/bitcode is
#      expected to fail with "no targets are registered" (the documented
#      limit), hosts/bitcode-init to pass (the JIT then calls the ptxas on
#      PATH).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

# ---------------------------------------------------------------- prepare
prepare() {
  set -e
  local out=$1 runtime=$2
  local plugin=${OFFLOAD_PASSES_PLUGIN:-$root/target/release/liboffload_passes.so}
  local ptxas=${PTXAS:-$root/tools/bin/ptxas}
  local libdir ex=$root/examples/nvptx
  libdir=$(llvm-config-22 --libdir)
  [ -f "$plugin" ] || { echo "gpu-check: build the plugin first (cargo build --release)" >&2; exit 1; }
  [ -x "$ptxas" ] || { echo "gpu-check: no ptxas at $ptxas (bash scripts/setup.sh)" >&2; exit 1; }
  rm -rf "$out"
  mkdir -p "$out/device" "$out/hosts" "$out/work"
  local w=$out/work
  run() { echo "+ $*" | sed "s|$root/||g"; "$@"; }
  local llc=(llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80)

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
  local images=(ir c)
  if command -v rustc >/dev/null; then
    run env RUSTC_BOOTSTRAP=1 rustc -Zllvm-plugins="$plugin" -Cpasses=offload-wrap-kernels --target nvptx64-nvidia-cuda \
      -Ctarget-cpu=sm_90 -Copt-level=3 --crate-type cdylib --emit=llvm-bc "$ex/kernels.rs" -o "$w/rust.bc"
    run "${llc[@]}" "$w/rust.bc" -o "$w/rust.ptx"
    run "$ptxas" -arch=sm_90 "$w/rust.ptx" -o "$out/device/rust.cubin"
    images+=(rust)
  else
    echo "gpu-check: no rustc; the Rust kernels are left out" >&2
  fi

  # Host programs: one per image, all from host.c.
  run clang-22 -O1 -emit-llvm -c "$ex/host.c" -o "$w/host.bc"
  link() { run clang-22 -O1 "$@" -L"$libdir" -lomptarget -Wl,-rpath,'$ORIGIN/../lib'; }
  local image
  for image in "${images[@]}"; do
    run opt-22 -load-pass-plugin="$plugin" "-passes=offload-host<image=$out/device/$image.cubin;arch=sm_90>" "$w/host.bc" -o "$w/host.$image.bc"
    link "$w/host.$image.bc" -o "$out/hosts/$image"
  done
  run opt-22 -load-pass-plugin="$plugin" "-passes=offload-host<image=$out/device/ir.bc>" "$w/host.bc" -o "$w/host.bitcode.bc"
  link "$w/host.bitcode.bc" -o "$out/hosts/bitcode"
  cat >"$w/register-nvptx.c" <<'EOF'
/* Registers LLVM's NVPTX target before main, so that libomptarget's JIT
   (which registers none) can compile an nvptx64 bitcode image. Weak: the
   functions come from the libLLVM.so.22.1 that libomptarget loads. */
extern void LLVMInitializeNVPTXTargetInfo(void) __attribute__((weak));
extern void LLVMInitializeNVPTXTarget(void) __attribute__((weak));
extern void LLVMInitializeNVPTXTargetMC(void) __attribute__((weak));
extern void LLVMInitializeNVPTXAsmPrinter(void) __attribute__((weak));
__attribute__((constructor)) static void register_nvptx(void) {
  if (LLVMInitializeNVPTXTarget) {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  }
}
EOF
  link "$w/host.bitcode.bc" "$w/register-nvptx.c" -o "$out/hosts/bitcode-init"

  if [ "$runtime" = yes ]; then
    # libomptarget and everything it loads, except glibc (glibc/ instead).
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
  fi
  rm -rf "$w"

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
  local label=$1 cubin=$2
  python3 - "$label" "$cubin" <<'PY'
import ctypes as C, struct, sys

label, path = sys.argv[1], sys.argv[2]
image = open(path, "rb").read()
results = []

def report(ok, what, detail):
    print(f"{'PASS' if ok else 'FAIL'} driver {label} {what}: {detail}", flush=True)

try:
    cuda = C.CDLL("libcuda.so.1")
except OSError as e:
    report(False, "libcuda", f"cannot load libcuda.so.1: {e}")
    sys.exit(0)

class CudaError(Exception):
    pass

def ck(res, what):
    if res != 0:
        name = C.c_char_p()
        cuda.cuGetErrorName(res, C.byref(name))
        raise CudaError(f"{what}: {name.value.decode() if name.value else res} ({res})")

u64, size_t, vp = C.c_uint64, C.c_size_t, C.c_void_p
ck(cuda.cuInit(0), "cuInit")
dev, major, minor, version = C.c_int(), C.c_int(), C.c_int(), C.c_int()
ck(cuda.cuDeviceGet(C.byref(dev), 0), "cuDeviceGet")
ck(cuda.cuDeviceGetAttribute(C.byref(major), 75, dev), "compute capability major")
ck(cuda.cuDeviceGetAttribute(C.byref(minor), 76, dev), "compute capability minor")
ck(cuda.cuDriverGetVersion(C.byref(version)), "cuDriverGetVersion")
ctx = vp()
ck(cuda.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
ck(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
print(f"     driver {label}: device sm_{major.value}{minor.value}, CUDA driver {version.value}", flush=True)

module = vp()
buf = C.create_string_buffer(image, len(image))
try:
    ck(cuda.cuModuleLoadData(C.byref(module), buf), "cuModuleLoadData")
    report(True, "load", f"{len(image)}-byte cubin loaded")
except CudaError as e:
    report(False, "load", str(e))
    sys.exit(0)

cuda.cuFuncGetParamInfo.argtypes = [vp, size_t, C.POINTER(size_t), C.POINTER(size_t)]
cuda.cuLaunchKernel.argtypes = [vp] + [C.c_uint] * 7 + [vp, vp, C.POINTER(vp)]
cuda.cuMemAlloc_v2.argtypes = [C.POINTER(u64), size_t]
cuda.cuMemcpyHtoD_v2.argtypes = [u64, vp, size_t]
cuda.cuMemcpyDtoH_v2.argtypes = [vp, u64, size_t]
cuda.cuMemFree_v2.argtypes = [u64]
cuda.cuModuleGetGlobal_v2.argtypes = [C.POINTER(u64), C.POINTER(size_t), vp, C.c_char_p]

def function(name):
    f = vp()
    ck(cuda.cuModuleGetFunction(C.byref(f), module, name.encode()), f"cuModuleGetFunction({name})")
    return f

def params(f):
    layout, i = [], 0
    while True:
        off, size = size_t(), size_t()
        res = cuda.cuFuncGetParamInfo(f, i, C.byref(off), C.byref(size))
        if res == 1:  # CUDA_ERROR_INVALID_VALUE: past the last parameter
            return layout
        ck(res, "cuFuncGetParamInfo")
        layout.append((off.value, size.value))
        i += 1

def device(data):
    p = u64()
    ck(cuda.cuMemAlloc_v2(C.byref(p), len(data)), "cuMemAlloc")
    ck(cuda.cuMemcpyHtoD_v2(p, data, len(data)), "cuMemcpyHtoD")
    return p.value

def back(p, n):
    out = C.create_string_buffer(n)
    ck(cuda.cuMemcpyDtoH_v2(out, p, n), "cuMemcpyDtoH")
    return out.raw

def launch(f, grid, block, slots, args_size):
    # libomptarget's buffer: the dyn pointer (~0), then one 8-byte slot per argument.
    packed = C.create_string_buffer(struct.pack(f"<{len(slots) + 1}Q", 2**64 - 1, *slots))
    size = size_t(args_size)
    config = (vp * 5)(1, C.cast(packed, vp), 2, C.cast(C.pointer(size), vp), 0)
    ck(cuda.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, None, None, config), "cuLaunchKernel")
    ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize")

bits_f32 = lambda v: struct.unpack("<I", struct.pack("<f", v))[0]
bits_f64 = lambda v: struct.unpack("<Q", struct.pack("<d", v))[0]
bits_f16 = lambda v: struct.unpack("<H", struct.pack("<e", v))[0]

def symbol_bytes(name):
    """The bytes of ELF symbol `name` in the cubin file (.symtab)."""
    shoff, = struct.unpack_from("<Q", image, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", image, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * shentsize) for i in range(shnum)]
    for sec in sections:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sec[6]][4]
        for at in range(sec[4], sec[4] + sec[5], 24):
            st_name, _, _, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", image, at)
            end = image.index(b"\0", strtab + st_name)
            if image[strtab + st_name:end] == name.encode():
                data = sections[st_shndx]
                start = data[4] + st_value - data[3]
                return image[start:start + st_size]
    return None

def manifest_ok(note, name, count):
    """An offload-passes kernel manifest note (docs/kernel-manifest.md) of
    kernel `name` with `count` parameters."""
    if len(note) < 36:
        return False
    namesz, descsz, kind = struct.unpack_from("<III", note)
    desc = note[12 + ((namesz + 3) & ~3):][:descsz]
    version, params = struct.unpack_from("<II", desc)
    return (note[12:12 + namesz] == b"offload-passes\0" and kind == 0x4D4B and version == 1
            and params == count and desc.endswith(name.encode()))

def describe(note):
    if len(note) < 36:
        return f"{len(note)} bytes, no note"
    namesz, descsz, kind = struct.unpack_from("<III", note)
    desc = note[12 + ((namesz + 3) & ~3):][:descsz]
    version, params = struct.unpack_from("<II", desc)
    owner = note[12:12 + namesz].rstrip(b"\0").decode(errors="replace")
    return f"note {owner} type 0x{kind:x}, version {version}, {params} parameters"

kernels = {}
for name, count in (("saxpy", 4), ("scalars", 8), ("step", 4)):
    try:
        f = function(name)
        layout = params(f)
        want = [(8 * i, 8) for i in range(count + 1)]
        report(layout == want, f"{name} params", " ".join(f"{o}:{s}" for o, s in layout) + ("" if layout == want else f" (want {want})"))
        kernels[name] = (f, layout[-1][0] + layout[-1][1] if layout else 0)
    except CudaError as e:
        report(False, f"{name} params", str(e))
    g, n = u64(), size_t()
    try:
        ck(cuda.cuModuleGetGlobal_v2(C.byref(g), C.byref(n), module, f"__offload_manifest_{name}".encode()), "cuModuleGetGlobal")
        got = back(g.value, n.value)
        want = symbol_bytes(f"__offload_manifest_{name}")
        report(got == want and manifest_ok(got, name, count), f"manifest {name}",
               f"{n.value} bytes on the device, {'equal to' if got == want else 'NOT equal to'} the cubin's; {describe(got)}")
    except CudaError as e:
        report(False, f"manifest {name}", str(e))

try:
    if "saxpy" in kernels:
        N = 1000
        x = struct.pack(f"<{N}f", *[0.5 * i for i in range(N)])
        y = struct.pack(f"<{N}f", *[1000.0 - i for i in range(N)])
        dx, dy = device(x), device(y)
        f, size = kernels["saxpy"]
        launch(f, 4, 128, [bits_f32(2.5), dx, dy, N], size)
        r = struct.unpack(f"<{N}f", back(dy, 4 * N))
        bad = sum(r[i] != 1000.0 + 0.25 * i for i in range(N))
        report(bad == 0, "saxpy launch", f"4x128 threads, y[0]={r[0]:g} y[1]={r[1]:g} y[999]={r[999]:g} mismatches={bad}")
    if "scalars" in kernels:
        out = device(bytes(64))
        f, size = kernels["scalars"]
        slots = [(-5) & 0xFF, (-300) & 0xFFFF, 70000, (-5000000000) & (2**64 - 1), bits_f16(0.5), bits_f32(2.25), bits_f64(-1.125), out]
        launch(f, 1, 32, slots, size)
        r = struct.unpack("<8d", back(out, 64))
        want = (-5.0, -300.0, 70000.0, -5000000000.0, 0.5, 2.25, -1.125, -4999930303.375)
        report(r == want, "scalars launch", " ".join(f"{v:g}" for v in r[:7]) + f" sum={r[7]:.3f}")
    if "step" in kernels:
        p = device(struct.pack("<3d", 1.0, 2.0, 4.0))
        out = device(bytes(24))
        f, size = kernels["step"]
        launch(f, 1, 32, [p, bits_f64(8.0), bits_f64(0.25), out], size)
        r = struct.unpack("<3d", back(out, 24))
        report(r == (1.625, 2.5, 4.0), "step launch", f"x={r[0]:g} v={r[1]:g} mass={r[2]:g}")
except CudaError as e:
    report(False, "launch", str(e))
cuda.cuModuleUnload(module)
PY
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

run_checks() {
  local dir=$1
  [ -d "$dir/device" ] || { echo "gpu-check: $dir is not prepared (bash scripts/gpu-check.sh --prepare $dir)" >&2; exit 2; }
  dir=$(cd "$dir" && pwd)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "== gpu-check on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ)"
  head -n 3 "$dir/BUILD-INFO" 2>/dev/null | sed 's/^/   /'
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | sed 's/^/   gpu: /'
  local glibc
  glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
  echo "   glibc $glibc, $(python3 --version 2>&1)"

  echo "== 1. driver API: our cubins, libomptarget's argument layout"
  local cubin
  for cubin in "$dir"/device/*.cubin; do
    tally < <(driver_check "$(basename "$cubin" .cubin)" "$cubin" 2>&1)
  done

  echo "== 2. the device's ptxas on our PTX"
  local ptxas
  ptxas=${GPU_CHECK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
  if [ -x "$ptxas" ]; then
    echo "   $("$ptxas" --version | tail -n 1)"
    if timeout 60 "$ptxas" -arch=sm_90 "$dir/device/ir.ptx" -o "$work/device-ptxas.cubin" 2>"$work/ptxas.err"; then
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
    else
      fail "device-ptxas ir: $(head -c 300 "$work/ptxas.err")"
    fi
  else
    fail "device-ptxas: no ptxas on PATH or in /usr/local/cuda/bin"
  fi

  echo "== 3. libomptarget 22.1.8 (Debian) with its CUDA plugin"
  if [ ! -f "$dir/runtime.tar.xz" ]; then
    fail "libomptarget: $dir/runtime.tar.xz missing (prepared with --no-runtime)"
  elif ! tar -C "$work" -xJf "$dir/runtime.tar.xz"; then
    fail "libomptarget: cannot unpack runtime.tar.xz"
  else
    # The CUDA plugin dlopens "libcuda.so" (no version): point it at the driver's.
    local libcuda
    libcuda=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
    [ -n "$libcuda" ] || libcuda=$(python3 -c 'import ctypes.util; print(ctypes.util.find_library("cuda") or "")')
    mkdir -p "$work/cuda"
    [ -n "$libcuda" ] && ln -sf "$libcuda" "$work/cuda/libcuda.so"
    echo "   libcuda: ${libcuda:-not found}"
    local loader=()
    if [ -n "${GPU_CHECK_CARRIED_GLIBC:-}" ] || { [ -n "$glibc" ] && [ "$(printf '%s\n' 2.36 "$glibc" | sort -V | head -n 1)" != 2.36 ]; }; then
      echo "   glibc $glibc < 2.36 (libLLVM.so.22.1 needs 2.36): using Debian's carried glibc"
      loader=("$work/lib/glibc/ld-linux-x86-64.so.2" --library-path "$work/lib:$work/lib/glibc:$work/cuda:$(dirname "${libcuda:-/x}")")
    fi
    local cudabin
    cudabin=$(dirname "$ptxas")
    local host
    for host in "$dir"/hosts/*; do
      local name
      name=$(basename "$host")
      env LD_LIBRARY_PATH="$work/lib:$work/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$cudabin:$PATH" \
        OMP_TARGET_OFFLOAD=MANDATORY timeout 120 "${loader[@]}" "$host" >"$work/$name.out" 2>&1
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
        env LD_LIBRARY_PATH="$work/lib:$work/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$cudabin:$PATH" \
          OMP_TARGET_OFFLOAD=MANDATORY LIBOMPTARGET_INFO=-1 timeout 120 "${loader[@]}" "$host" 2>&1 | tail -n 15 | sed 's/^/   info| /'
      fi
    done
  fi
  echo "gpu-check: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
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
