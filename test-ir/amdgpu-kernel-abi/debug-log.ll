; RUST_LOG=offload_passes=debug logs every rewrite: kernel, old parameter
; indices and types, the new parameter and where the knowledge came from.
; (The pass prints types only when debug logging is on; this pins that the
; log still appears.) Without RUST_LOG nothing is logged.
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=amdgpu-kernel-abi -disable-output %s 2>&1 | %FileCheck %s
; RUN: %opt -passes=amdgpu-kernel-abi -disable-output %s 2>&1 | count 0

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%S = type { i32, i32, i32 }

; CHECK-DAG: amdgpu-kernel-abi: k: parameter [0]: %S = type { i32, i32, i32 } -> ptr addrspace(4) byref(%S = type { i32, i32, i32 }) align 4 (from IR; copy: decided by byref-callee-copy)
; CHECK-DAG: amdgpu-kernel-abi: k: parameter [1, 2]: i64, i32 -> ptr addrspace(4) byref([16 x i8]) align 8 (from hint; copy: decided by byref-callee-copy)
define amdgpu_kernel void @k(%S %s, i64 %t.0, i32 %t.1) !offload.aggregate.args !0 {
  ret void
}

!0 = !{!1}
!1 = !{i32 1, i32 2, i64 16, i64 8}
