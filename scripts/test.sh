#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting and lints,
# builds the plugin, then the Rust unit tests (cargo test), a check build of
# the cargo-fuzz target (fuzz/, its own workspace) and the lit suite in
# test-ir/ (FileCheck, llc layout checks, rustc runs and CPU end-to-end
# offload runs).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cargo fmt --all -- --check
cargo build --release --locked
cargo clippy --release --all-targets --locked -- -D warnings
cargo test --locked
(cd fuzz && cargo check --locked --quiet)
lit-22 -sv test-ir
