#!/usr/bin/env bash
# Interop matrix for issue 11 part 4: one object from clang-22's OpenMP
# offload (clang_half.c, its own target region) and one host object in one of
# the layouts hostgen.py writes (our_part: 10 launches of `bump`, image built
# with offload-wrap-kernels), linked by clang's offload driver
# (clang-22 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu, which runs
# clang-linker-wrapper), run with OMP_TARGET_OFFLOAD=MANDATORY. Also: the
# same host object alone through the clang driver, by a plain link
# (-lomptarget) and from a static archive, and what llvm-objdump-22
# --offloading shows. Prints one line per case; see notes.md for the results.
#
#   bench/clang-peer/interop.sh [WORKDIR]     (needs the plugin built)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
plugin=${OFFLOAD_PASSES_PLUGIN:-$root/target/release/liboffload_passes.so}
work=${1:-$(mktemp -d)}
mkdir -p "$work"; cd "$work"
L=$(llvm-config-22 --libdir)
omp=(-fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu)
gen() { python3 "$here/hostgen.py" "$@"; }
before=$(ls /tmp/tmpfile_* 2>/dev/null)

# Our device image: the natural kernel through offload-wrap-kernels.
gen device --kernel bump:4 -o dev.ll
opt-22 -load-pass-plugin="$plugin" -passes=offload-wrap-kernels dev.ll -o dev.bc
llc-22 -O2 -relocation-model=pic -filetype=obj dev.bc -o dev.o
ld.lld-22 -shared dev.o -o dev.so

cat > clang_half.c <<'EOF'
#include <stdio.h>
int our_part(long n);   /* from the offload-host-style object */
static int cpeer_clang_part(int n) {
  int x[1] = {0};
  for (int it = 0; it < n; ++it) {
#pragma omp target map(tofrom: x[0:1])
    { x[0] += 3; }
  }
  return x[0];
}
int main(void) {
  int c = cpeer_clang_part(10), o = our_part(10);
  printf("clang half: %d (want 30), our half: %d (want 10)\n", c, o);
  return !(c == 30 && o == 10);
}
EOF
clang-22 -O2 "${omp[@]}" -c clang_half.c -o clang_half.o

# today's offload-host output, for the record
opt-22 -load-pass-plugin="$plugin" "-passes=offload-host<image=dev.so>" \
  <(gen natural --kernel bump:4 --func our_part -o /dev/stdout) -o today.bc
clang-22 -O2 -c today.bc -o today.o 2>/dev/null

run_prog() { # exe -> "rc=N: last line"
  local out rc
  out=$(OMP_TARGET_OFFLOAD=MANDATORY timeout 30 "$@" 2>&1); rc=$?
  echo "rc=$rc: $(echo "$out" | grep -v '^$' | tail -1 | cut -c1-150)"
}

case_() { # name image hostgen-args...
  local n=$1 img=$2; shift 2
  if [[ $n != today ]]; then
    gen host --image "$img" --kernel bump:4 --func our_part "$@" -o $n.ll &&
      clang-22 -Wno-override-module -O2 -c $n.ll -o $n.o || { echo "$n: does not compile"; return; }
    gen host --image "$img" --kernel bump:4 --main "$@" -o $n.alone.ll &&
      clang-22 -Wno-override-module -O2 -c $n.alone.ll -o $n.alone.o
  fi
  echo "== $n: $*"
  if clang-22 -v "${omp[@]}" clang_half.o $n.o -o $n.exe -L"$L" -Wl,-rpath,"$L" > $n.link.log 2>&1; then
    local links inputs
    links=$(grep -cE '^ "[^"]*/clang" --no-default-config' $n.link.log)
    inputs=$(grep -E '^ "[^"]*/clang" --no-default-config' $n.link.log | grep -oE '/tmp/[^ ]*\.o' |
      sed -E 's|/tmp/||; s/-[0-9a-f]{6}\.o$//' | tr '\n' ' ')
    echo "   clang driver + clang object: device links $links ($inputs); $(run_prog ./$n.exe)"
    echo "   llvm-objdump-22 --offloading: $(llvm-objdump-22 --offloading $n.exe 2>&1 | grep -cE '^OFFLOADING IMAGE') images;" \
      "$(llvm-objdump-22 --offloading $n.exe 2>&1 | grep -E 'producer|triple|error' | awk '{print $NF}' | paste -sd' ')"
  else
    echo "   clang driver + clang object: LINK FAILS: $(grep -E 'error' $n.link.log | head -1 | cut -c1-150)"
  fi
  [[ -f $n.alone.o ]] || return
  if clang-22 "${omp[@]}" $n.alone.o -o $n.alone.exe -L"$L" -Wl,-rpath,"$L" > $n.alone.log 2>&1; then
    echo "   alone through the clang driver: $(run_prog ./$n.alone.exe 10)"
  else
    echo "   alone through the clang driver: LINK FAILS: $(grep error $n.alone.log | head -1 | cut -c1-120)"
  fi
  if clang-22 $n.alone.o -o $n.plain.exe -L"$L" -lomptarget -Wl,-rpath,"$L" 2>/dev/null; then
    echo "   alone, plain link (-lomptarget): $(run_prog ./$n.plain.exe 10)"
  fi
  rm -f lib$n.a; ar rcs lib$n.a $n.o
  if clang-22 "${omp[@]}" clang_half.o lib$n.a -o $n.ar.exe -L"$L" -Wl,-rpath,"$L" > /dev/null 2>&1; then
    echo "   from a static archive + clang object: $(run_prog ./$n.ar.exe)"
  else
    echo "   from a static archive + clang object: LINK FAILS"
  fi
}

case_ today   dev.so
case_ v1-bare dev.so --embed bare --entries array-clang-section
case_ v2      dev.so --embed ob --entries array-clang-section
case_ v3      dev.so --embed ob --entries array-own
case_ v4      dev.so --embed ob-none --entries array-own
case_ v5      dev.so --embed ob --ob-arch '' --entries array-own
case_ v6      dev.so --embed ob-none --ob-triple x86_64-unknown-linux --entries array-own
case_ v6b     dev.so --embed ob --ob-triple x86_64-unknown-linux --entries array-own
case_ v7      dev.so --embed ob-private --entries array-own
case_ v7d     dev.so --embed ob-private --entries array-own --dedup
case_ v8      dev.so --embed ob-private --entries array-clang-section
case_ v10     dev.so --embed ob-private --entries start-stop
case_ v9      dev.o  --embed ob-exclude --entries clang
case_ v6d     dev.so --embed ob-none --ob-triple x86_64-unknown-linux --entries array-own --dedup

# For comparison, LLVM's own object with a registered, embedded image: our_part
# in C, compiled by clang and relocatably linked by its offload driver
# (clang -r runs clang-linker-wrapper --relocatable: the image is wrapped and
# registered, entries renamed to llvm_offload_entries_<hash>, the image kept in
# .llvm.offloading.relocatable), then linked with clang_half.o.
cat > our_part.c <<'EOF'
int our_part(long n) {
  int x[1] = {0};
  for (long it = 0; it < n; ++it) {
#pragma omp target map(tofrom: x[0:1])
    { x[0] += 1; }
  }
  return x[0];
}
EOF
clang-22 -O2 "${omp[@]}" -c our_part.c -o our_part.o
clang-22 "${omp[@]}" -r our_part.o -o clang-r.o
echo "== clang-r: the output of clang-22 -fopenmp ... -r (sections:" \
  "$(llvm-readelf-22 -S clang-r.o | grep -oE '(\.llvm\.offloading[a-z.]*|llvm_offload_entries[_0-9a-f]*)' | sort -u | paste -sd' '))"
if clang-22 -v "${omp[@]}" clang_half.o clang-r.o -o clang-r.exe -L"$L" -Wl,-rpath,"$L" > clang-r.link.log 2>&1; then
  echo "   clang driver + clang object: device links $(grep -cE '^ "[^"]*/clang" --no-default-config' clang-r.link.log); $(run_prog ./clang-r.exe)"
fi
clang-22 "${omp[@]}" our_part.o clang_half.o -o clang-plain.exe -L"$L" -Wl,-rpath,"$L"
echo "== both halves from clang -c (no -r): $(run_prog ./clang-plain.exe)"

# Remove the image copies the host plugin left in /tmp during this run (only
# new ones holding our kernel's or clang_half's names).
for f in /tmp/tmpfile_*; do
  [[ -f $f ]] || continue
  grep -qxF "$f" <<<"$before" && continue
  grep -qaE 'cpeer_clang_part|_our_part_l|bump' "$f" && rm -f "$f"
done
