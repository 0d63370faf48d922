#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test the plugin:
# LLVM 22 (opt, llc, FileCheck, lit, llvm-config and headers), clang-22,
# lld-22, libomptarget (liboffload-22), and clang's OpenMP offload driver for
# the clang interop test and the clang benchmark (clang-tools-22:
# clang-linker-wrapper; libomp-22-dev: the libomp it links). Needs root for
# apt-get; does nothing when everything is already there.
set -euo pipefail

packages=(llvm-22 llvm-22-dev llvm-22-tools clang-22 lld-22 liboffload-22 liboffload-22-dev clang-tools-22 libomp-22-dev)
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
