#!/bin/sh
# Seeds the libFuzzer corpus from the lit tests: every test-ir/**/*.ll, with
# split-file tests (`;--- name.ll`) split into their parts, plus a few
# campaign modules. Writes fuzz/corpus/device_passes/ (git-ignored).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus/device_passes
mkdir -p "$out"
find "$here/../test-ir" -name '*.ll' | while read -r f; do
  name=$(echo "$f" | sed "s|.*/test-ir/||; s|/|_|g")
  if grep -q '^;--- ' "$f"; then
    tmp=$(mktemp -d)
    split-file "$f" "$tmp" 2>/dev/null || true
    for part in "$tmp"/*; do [ -f "$part" ] && cp "$part" "$out/${name}__$(basename "$part")"; done
    rm -rf "$tmp"
  else
    cp "$f" "$out/$name"
  fi
done
python3 - "$here" "$out" <<'PY'
import subprocess, sys
sys.path.insert(0, sys.argv[1])
from offload_fuzz import gen_device
for seed in range(1, 21):
    stress = subprocess.run(["llvm-stress-22", f"-seed={seed}", "-size=20", "-o", "-"],
                            capture_output=True, text=True, check=True).stdout
    for target in ("amdgpu", "x86"):
        ir, _ = gen_device.make_kernel(stress, seed, target)
        open(f"{sys.argv[2]}/campaign-{seed}-{target}.ll", "w").write(ir)
PY
echo "corpus: $(ls "$out" | wc -l) seeds in $out"
