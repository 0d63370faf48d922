#!/bin/sh
# Sorts libFuzzer artifacts into crashes of LLVM itself (plain opt-22, no
# plugin, fails the same input: its parser's fatal errors, e.g. "Broken
# module found" from UpgradeDebugInfo) and crashes of ours (everything else:
# reproduce with the fuzz binary and opt-22 -load-pass-plugin=...).
# Usage: fuzz/triage.sh [artifact dir]   (default fuzz/artifacts/device_passes)
dir=${1:-$(dirname "$0")/artifacts/device_passes}
bin=$(dirname "$0")/target/x86_64-unknown-linux-gnu/release/device_passes
for f in "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-*; do
  [ -e "$f" ] || continue
  if [ ! -s "$f" ]; then echo "empty-input $f"; continue; fi
  if ! timeout 60 opt-22 -disable-output "$f" >/dev/null 2>&1; then
    echo "llvm $f"
  else
    why=$(timeout 60 "$bin" "$f" 2>&1 | grep -m1 -A1 "panicked at" | tail -1 | cut -c1-160)
    echo "ours $f: $why"
  fi
done
