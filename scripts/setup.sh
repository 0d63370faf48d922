#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test the plugin:
# LLVM 22 (opt, llc, FileCheck, lit, llvm-config and headers), clang-22,
# lld-22, libomptarget (liboffload-22), and clang's OpenMP offload driver for
# the clang interop test and the clang benchmark (clang-tools-22:
# clang-linker-wrapper; libomp-22-dev: the libomp it links), rustup's rust-src
# and llvm-bitcode-linker (the Rust GPU device builds), and NVIDIA's ptxas
# from PyPI into tools/bin/ (the NVPTX tests; pip, from python3-pip if
# missing). Needs root for apt-get; does nothing when everything is already
# there.
set -euo pipefail

packages=(llvm-22 llvm-22-dev llvm-22-tools clang-22 lld-22 liboffload-22 liboffload-22-dev clang-tools-22 libomp-22-dev
  openmpi-bin libopenmpi-dev pkg-config libclang-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

command -v cargo >/dev/null || { echo "setup: cargo not found: install Rust 1.95 (rustup) first" >&2; exit 1; }
# The Rust front end's GPU device builds (-Zbuild-std=core for
# amdgcn-amd-amdhsa and nvptx64-nvidia-cuda) need the standard library's
# sources and, for nvptx, rustc's bitcode linker.
if command -v rustup >/dev/null; then
  installed=$(rustup component list --installed 2>/dev/null || true)
  for c in rust-src llvm-bitcode-linker; do
    case "$installed" in
    *"$c"*) ;;
    *) echo "setup: rustup component add $c"; rustup component add "$c" ;;
    esac
  done
fi

rustc_version=$(rustc --version)
case "$rustc_version" in
  "rustc 1.95."* | "rustc 1.9"[6-9]* | "rustc 1.1"[0-9][0-9]*) ;;
  *) echo "setup: warning: $rustc_version found; the rustc tests need rustc 1.95 or later (LLVM 22) and will fail to load the plugin with an older one" >&2 ;;
esac

# ptxas (NVIDIA's PTX assembler) for the NVPTX tests, from PyPI: pip
# downloads the nvidia-cuda-nvcc-cu12 wheel (a zip; nothing is installed),
# checked against its pinned sha256, and only nvidia/cuda_nvcc/bin/ptxas is
# extracted, into tools/bin/ (gitignored; lit's %ptxas looks there). No CUDA
# toolkit. With ptxas already there this does nothing; PTXAS=/path/to/ptxas
# (which lit uses too) skips the download. Without network the NVPTX tests
# are reported as unsupported (lit feature 'ptxas'); nothing else fails.
ptxas_version=12.9.86
ptxas_wheel=nvidia_cuda_nvcc_cu12-${ptxas_version}-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl
ptxas_sha256=5d6a0d32fdc7ea39917c20065614ae93add6f577d840233237ff08e9a38f58f0
ptxas=$(cd "$(dirname "$0")/.." && pwd)/tools/bin/ptxas
if [ -n "${PTXAS:-}" ] || [ -x "$ptxas" ]; then
  :
elif [ "$(uname -m)" != x86_64 ]; then
  echo "setup: warning: no pinned ptxas wheel for $(uname -m); set PTXAS=/path/to/ptxas for the NVPTX tests" >&2
else
  if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "setup: installing python3-pip (to download ptxas)"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends python3-pip
  fi
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  echo "setup: downloading ptxas $ptxas_version (PyPI wheel nvidia-cuda-nvcc-cu12, 40 MB)"
  printf 'nvidia-cuda-nvcc-cu12==%s --hash=sha256:%s\n' "$ptxas_version" "$ptxas_sha256" >"$download/req.txt"
  if python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
    --platform manylinux_2_12_x86_64 --python-version 3 --implementation py \
    -r "$download/req.txt" -d "$download" && [ -f "$download/$ptxas_wheel" ]; then
    mkdir -p "$(dirname "$ptxas")"
    python3 - "$download/$ptxas_wheel" "$ptxas" <<'PY'
import os, shutil, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z, z.open("nvidia/cuda_nvcc/bin/ptxas") as src, open(dest + ".part", "wb") as out:
    shutil.copyfileobj(src, out)
os.chmod(dest + ".part", 0o755)
os.replace(dest + ".part", dest)
PY
    echo "setup: $("$ptxas" --version | grep -o "V[0-9][0-9.]*" | head -1) in tools/bin/ptxas"
  else
    echo "setup: warning: could not download ptxas from PyPI; the NVPTX tests will be unsupported" >&2
  fi
fi
