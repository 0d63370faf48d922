#!/usr/bin/env bash
# Runs every test: installs what is missing, builds the plugin, then the Rust
# unit tests (cargo test) and the lit suite in test-ir/ (FileCheck, llc
# layout checks, rustc runs and CPU end-to-end offload runs).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cargo build --release --locked
cargo test --locked
lit-22 -sv test-ir
