#!/usr/bin/env bash
# Several host objects carrying one image (issue 11: "with several codegen
# units, launches in two units embed and register the image twice"), with the
# layouts of hostgen.py. An LD_PRELOAD interposer logs every
# __tgt_register_lib / __tgt_unregister_lib call. Prints one block per case;
# results in notes.md.
#
#   bench/clang-peer/dedup.sh [WORKDIR]     (needs the plugin built)
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

cat > regcount.c <<'EOF'
/* Logs __tgt_register_lib/__tgt_unregister_lib; REGCOUNT_TWICE=1 registers
   each descriptor twice. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
void __tgt_register_lib(void *d) {
  static void (*real)(void *);
  if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "__tgt_register_lib");
  fprintf(stderr, "register(%p) ", d);
  real(d);
  if (getenv("REGCOUNT_TWICE")) { fprintf(stderr, "register-again(%p) ", d); real(d); }
}
void __tgt_unregister_lib(void *d) {
  static void (*real)(void *);
  if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "__tgt_unregister_lib");
  fprintf(stderr, "unregister(%p) ", d);
  real(d);
}
EOF
clang-22 -O2 -shared -fPIC regcount.c -o regcount.so -ldl

# Image A: bump adds 1; image B: a different kernel body under the same name
# (adds 2).
gen device --kernel bump:4 -o devA.ll
sed 's/add i32 %v, 1/add i32 %v, 2/' devA.ll > devB.ll
for x in A B; do
  opt-22 -load-pass-plugin="$plugin" -passes=offload-wrap-kernels dev$x.ll -S -o dev$x.w.ll
  llc-22 -O2 -relocation-model=pic -filetype=obj dev$x.w.ll -o dev$x.o
  ld.lld-22 -shared dev$x.o -o dev$x.so
done
# clang-mode device object with clang's kernel linkage (weak_odr protected)
sed 's/^define void @bump/define weak_odr protected void @bump/' devA.w.ll > devA.weak.ll
llc-22 -O2 -relocation-model=pic -filetype=obj devA.weak.ll -o devA.weak.o

cat > main2.c <<'EOF'
#include <stdio.h>
int part1(long n); int part2(long n);
int main(void) { int a = part1(5), b = part2(7);
  printf("part1 %d (want 5) part2 %d (want 7)\n", a, b); return !(a == 5 && b == 7); }
EOF
cat > main3.c <<'EOF'
#include <stdio.h>
int part1(long n); int part2(long n);
int main(void) { int a = part1(5), b = part2(7);
  printf("part1 (image A, +1) %d (want 5), part2 (image B, +2) %d (want 14)\n", a, b);
  return !(a == 5 && b == 14); }
EOF

copies() { ls /tmp/tmpfile_* 2>/dev/null | wc -l; }
run() { # exe [env...]
  local exe=$1; shift
  local c0; c0=$(copies)
  local out; out=$(env "$@" LD_PRELOAD=./regcount.so OMP_TARGET_OFFLOAD=MANDATORY ./$exe 2>&1 | tr '\n' ' ')
  echo "   $out [image copies loaded: $(( $(copies) - c0 ))]"
}

two() { # name main imageA imageB link-extra hostgen-args...
  local n=$1 main=$2 a=$3 b=$4 ld=$5; shift 5
  gen host --image $a --kernel bump:4 --func part1 "$@" -o $n.1.ll
  gen host --image $b --kernel bump:4 --func part2 "$@" -o $n.2.ll
  clang-22 -Wno-override-module -O2 -c $n.1.ll -o $n.1.o
  clang-22 -Wno-override-module -O2 -c $n.2.ll -o $n.2.o
  if clang-22 $ld $main $n.1.o $n.2.o -o $n.exe -L"$L" -Wl,-rpath,"$L" > $n.log 2>&1; then
    echo "== $n ($ld; $*): image globals $(llvm-nm-22 $n.exe | grep -cE ' \.omp_offloading\.device_image(\.|$)'), .init_array $(llvm-readelf-22 -S -W $n.exe | awk '$2==".init_array"{print "0x"$6}') bytes"
    run $n.exe
    run $n.exe REGCOUNT_TWICE=1
  else
    echo "== $n ($ld; $*): LINK FAILS: $(grep -E 'error|multiple' $n.log | head -1 | cut -c1-160)"
  fi
}

for ld in bfd lld; do
  two same-nodedup-$ld main2.c devA.so devA.so "-fuse-ld=$ld -lomptarget" --embed ob-private
  two same-dedup-$ld   main2.c devA.so devA.so "-fuse-ld=$ld -lomptarget" --embed ob-private --dedup
done
two names-unhashed main3.c devA.so devB.so "-lomptarget" --embed ob-private
two names-hashed   main3.c devA.so devB.so "-lomptarget" --embed ob-private --dedup
two clang-mode-strong main2.c devA.o devA.o "${omp[*]}" --embed ob-exclude --entries clang
two clang-mode-weak   main2.c devA.weak.o devA.weak.o "${omp[*]}" --embed ob-exclude --entries clang
echo "   clang-mode-weak: llvm_offload_entries holds $(( $(llvm-readelf-22 -S -W clang-mode-weak.exe | awk '$2=="llvm_offload_entries"{print "0x"$6}') / 56 )) entries"

for f in /tmp/tmpfile_*; do
  [[ -f $f ]] || continue
  grep -qxF "$f" <<<"$before" && continue
  llvm-nm-22 -D --defined-only "$f" 2>/dev/null | awk '{print $3}' | grep -qx bump && rm -f "$f"
done
