; The opt-in extension points: OFFLOAD_PASSES_PIPELINE_START and
; OFFLOAD_PASSES_OPTIMIZER_LAST hold a module pipeline the plugin adds at that
; point of a default<...> pipeline (how rustc runs the passes without
; -Cpasses; test-ir/rustc/kernel-abi.rs runs them under rustc).
;
; Each adds its pipeline, at -O0 too:
; RUN: env OFFLOAD_PASSES_PIPELINE_START=amdgpu-kernel-abi %opt -passes='default<O0>' -S %s | %FileCheck --check-prefix=REWRITTEN %s
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='default<O2>' -S %s | %FileCheck --check-prefix=REWRITTEN %s
; REWRITTEN: define amdgpu_kernel void @k(ptr addrspace(4) {{.*}}byref({ i32, i32 }) align 4
;
; Under LTO, OFFLOAD_PASSES_OPTIMIZER_LAST runs in the phase whose module
; becomes code: each ThinLTO backend (post-link) and the end of full LTO's
; link-time pipeline; never in a pre-link pipeline (counted in the printed
; pipeline):
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='thinlto-pre-link<O2>' -print-pipeline-passes -disable-output %s | %python -c "import sys; print('runs', sys.stdin.read().count('amdgpu-kernel-abi'))" | %FileCheck --check-prefix=NONE %s
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='lto-pre-link<O2>' -print-pipeline-passes -disable-output %s | %python -c "import sys; print('runs', sys.stdin.read().count('amdgpu-kernel-abi'))" | %FileCheck --check-prefix=NONE %s
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='thinlto<O2>' -print-pipeline-passes -disable-output %s | %python -c "import sys; print('runs', sys.stdin.read().count('amdgpu-kernel-abi'))" | %FileCheck --check-prefix=ONCE %s
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='lto<O2>' -print-pipeline-passes -disable-output %s | %python -c "import sys; print('runs', sys.stdin.read().count('amdgpu-kernel-abi'))" | %FileCheck --check-prefix=ONCE %s
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='default<O2>' -print-pipeline-passes -disable-output %s | %python -c "import sys; print('runs', sys.stdin.read().count('amdgpu-kernel-abi'))" | %FileCheck --check-prefix=ONCE %s
; NONE: runs 0
; ONCE: runs 1
; RUN: env OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='lto<O2>' -S %s | %FileCheck --check-prefix=REWRITTEN %s
;
; Unset or empty, nothing is added:
; RUN: env OFFLOAD_PASSES_PIPELINE_START= %opt -passes='default<O0>' -S %s | %FileCheck --check-prefix=UNCHANGED %s
; UNCHANGED: define amdgpu_kernel void @k({ i32, i32 } %s)
;
; A pipeline that runs the extension points itself (a default<...> one) would
; be added again inside itself without end: it is refused, at either point,
; with an error naming the variable, and opt writes no output.
; RUN: %no-output-file %t.out not env OFFLOAD_PASSES_PIPELINE_START='default<O1>' %opt -passes='default<O2>' %s -o %t.out 2>&1 | %FileCheck --check-prefix=START %s
; START: error: offload-passes: OFFLOAD_PASSES_PIPELINE_START='default<O1>' builds a pipeline that runs the extension points again (reaching OFFLOAD_PASSES_PIPELINE_START); name the passes to add (e.g. amdgpu-kernel-abi,byref-callee-copy), not a default<...> pipeline
; RUN: %no-output-file %t.out not env OFFLOAD_PASSES_OPTIMIZER_LAST='default<O1>' %opt -passes='default<O2>' %s -o %t.out 2>&1 | %FileCheck --check-prefix=LAST %s
; LAST: error: offload-passes: OFFLOAD_PASSES_OPTIMIZER_LAST='default<O1>' builds a pipeline that runs the extension points again (reaching OFFLOAD_PASSES_OPTIMIZER_LAST)
; One variable's pipeline reaching the other point is refused the same way:
; RUN: %no-output-file %t.out not env OFFLOAD_PASSES_PIPELINE_START='default<O1>' OFFLOAD_PASSES_OPTIMIZER_LAST=amdgpu-kernel-abi %opt -passes='default<O2>' %s -o %t.out 2>&1 | %FileCheck --check-prefix=CROSS %s
; CROSS: error: offload-passes: OFFLOAD_PASSES_PIPELINE_START='default<O1>' builds a pipeline that runs the extension points again (reaching

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k({ i32, i32 } %s) {
  %a = extractvalue { i32, i32 } %s, 0
  store i32 %a, ptr addrspace(1) null, align 4
  ret void
}
