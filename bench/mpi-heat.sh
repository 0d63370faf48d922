#!/usr/bin/env bash
# Strong scaling of examples/rust-mpi-heat over MPI ranks (not part of the
# test suite): builds the example in the release profile and runs the same
# grid with 1 and 2 ranks (mpirun on this machine, loopback only, ranks not
# bound to cores), each rank on its own device of libomptarget's host plugin
# (one core's worth of work: teams of one thread). Prints, for 1 rank, 2
# ranks, and 2 ranks that update the interior after the exchange instead of
# during it (--no-overlap), the time per step, the halo exchange's time per
# step that the interior update did not hide and the CPU time per step of a
# rank (the slowest rank's means over the steps), best of REPS rounds by
# time per step, every round's time per step and their median, and the
# speed-up of 2 ranks over 1 (medians and bests). See bench/README.md.
#
#   bench/mpi-heat.sh [NX NY STEPS REPS]     # defaults: 4096 2048 60 5
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nx=${1:-4096} ny=${2:-2048} steps=${3:-60} reps=${4:-5}
if [[ -z "${OFFLOAD_PASSES_PLUGIN:-}" ]]; then
  (cd "$root" && cargo build --release --locked --quiet)
  export OFFLOAD_PASSES_PLUGIN=$root/target/release/liboffload_passes.so
fi
example=$root/examples/rust-mpi-heat
target=${CARGO_TARGET_DIR:-$root/target/bench-cargo}
(cd "$example" && CARGO_TARGET_DIR=$target cargo build --release --locked --quiet)
image=$(ls -t "$target"/release/build/heat-kernels-*/out/*.so | head -n 1)
echo "grid $ny x $nx, $steps steps, $reps rounds; load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
runs=(1 2 "2 --no-overlap")
declare -A best times
# Rounds interleave the runs (1, 2, 2 --no-overlap, 1, 2, ...), so drift
# in what the machine gives (other tenants of its host) reaches all alike.
for _ in $(seq "$reps"); do
  for run in "${runs[@]}"; do
    read -r ranks flags <<<"$run"
    line=$(OMP_TARGET_OFFLOAD=MANDATORY timeout 600 sh "$root/scripts/run-offload.sh" "$image" \
      mpirun -n "$ranks" --oversubscribe --allow-run-as-root --bind-to none \
      --mca btl self,vader --mca oob_tcp_if_include lo -x OMP_TARGET_OFFLOAD \
      "$target/release/rust-mpi-heat" --nx "$nx" --ny "$ny" --steps "$steps" --bench $flags |
      grep '^time per step')
    step=$(echo "$line" | sed 's/time per step: \([0-9.]*\) ms.*/\1/')
    times[$run]="${times[$run]:-} $step"
    if [[ -z "${best[$run]:-}" ]] || awk "BEGIN { exit !($step < ${best[$run]%% *}) }"; then
      best[$run]="$step $line"
    fi
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A mid
for run in "${runs[@]}"; do
  mid[$run]=$(echo "${times[$run]}" | median)
  echo "$run rank(s), best: ${best[$run]#* }"
  echo "$run rank(s), all ms/step:${times[$run]} (median ${mid[$run]})"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk "BEGIN { printf \"speed-up of 2 ranks over 1: %.2fx (medians), %.2fx (bests)\\n\", ${mid[1]} / ${mid[2]}, ${best[1]%% *} / ${best[2]%% *} }"
