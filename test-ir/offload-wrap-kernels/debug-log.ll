; RUST_LOG=offload_passes=debug logs each wrapped kernel with its old and new
; type (printed only when debug logging is on).
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=offload-wrap-kernels -disable-output %s 2>&1 | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

; CHECK: offload-wrap-kernels: wrapped kernel 'k': void (ptr addrspace(1), i32, double) -> void (ptr, ptr addrspace(1), i64, i64)
define amdgpu_kernel void @k(ptr addrspace(1) %a, i32 %n, double %d) {
  ret void
}
