; RUST_LOG=offload_passes=debug logs each rewrite (kernel, parameters, old and
; new type, where the knowledge came from) and each parameter left alone for
; lack of debug info or a hint.
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=amdgpu-kernel-abi -disable-output %s 2>&1 | %FileCheck %s
; (Types are printed only when debug logging is on.) Without RUST_LOG nothing
; is printed.
; RUN: %opt -passes=amdgpu-kernel-abi -disable-output %s 2>&1 | count 0

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-DAG: amdgpu-kernel-abi: kernel 'k', parameter #0 (%s): { i32, i32, i32 } -> ptr addrspace(4) byref({ i32, i32, i32 }) align 4 (from IR; whether it is copied is byref-callee-copy's decision)
; CHECK-DAG: amdgpu-kernel-abi: kernel 'k', parameter #1 (%r): ptr -> ptr addrspace(4) byref([16 x i8]) align 8 (from IR;
; CHECK-DAG: amdgpu-kernel-abi: kernel 'k' has no debug info: parameter #2 (%p) may be parts of an aggregate rustc split in two (PassMode::Pair) or a pointer to one (-O0), which the IR types alone cannot show; they are left as they are
; CHECK-DAG: amdgpu-kernel-abi: kernel 'h', parameter #0, #1 (%t.0, %t.1): i64, i32 -> ptr addrspace(4) byref([16 x i8]) align 8 (from hint;
; Named structs are printed by name.
; CHECK-DAG: amdgpu-kernel-abi: kernel 'n', parameter #0 (%s): %S -> ptr addrspace(4) byref(%S) align 4 (from IR;
define amdgpu_kernel void @k({ i32, i32, i32 } %s, ptr dead_on_return dereferenceable(16) align 8 %r, ptr align 4 %p) {
  ret void
}
define amdgpu_kernel void @h(i64 %t.0, i32 %t.1) !offload.aggregate.args !0 {
  ret void
}
%S = type { i32, i32, i32 }
define amdgpu_kernel void @n(%S %s) {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 2, i64 16, i64 8}
