#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting and lints,
# builds the plugin, then the Rust unit tests (cargo test: the passes and the
# Rust front end's crates in rust/, their docs), a check build of
# the cargo-fuzz target (fuzz/, its own workspace) and the lit suite in
# test-ir/ (FileCheck, llc layout checks, rustc runs and CPU end-to-end
# offload runs).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cargo fmt --all -- --check
# cargo fmt does not reach modules declared inside a macro (the pass folders,
# declared by the `passes!` table in passes/src/lib.rs): check them by file.
rustfmt --edition 2024 --check passes/src/*/mod.rs
for example in examples/rust-offload examples/rust-mpi-heat examples/rust-linalg examples/rust-gpu-toolkit examples/rust-streams examples/rust-atomics examples/rust-shared-tiles examples/rust-kernel-library bench/launch-region bench/shared-tiles rust/offload-build/tests/gpu-kernels rust/offload-build/tests/differ-kernels test-ir/rust/Inputs/host-device-agree test-ir/rust/Inputs/workspace test-ir/rust/Inputs/uniformity test-ir/rust/Inputs/cpu-grid; do
  (cd "$example" && cargo fmt --all -- --check)
done
cargo build --release --locked
cargo clippy --release --all-targets --locked -- -D warnings
# The Rust crates' unit, compile-fail (trybuild) and GPU compile tests run
# here; the GPU ones need the release plugin built above.
OFFLOAD_PASSES_PLUGIN=$PWD/target/release/liboffload_passes.so cargo test --locked
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --quiet -p offload -p offload-macros -p offload-build -p offload-contract
(cd fuzz && cargo check --locked --quiet)
lit-22 -sv test-ir
