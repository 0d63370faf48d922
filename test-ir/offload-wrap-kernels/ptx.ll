; ptx_kernel functions are kernels without a marker: leading `ptr %dyn_ptr`,
; calling convention kept, scalars in i64 slots.
; RUN: %opt -passes=offload-wrap-kernels -S %s | %FileCheck %s
; RUN: %opt -passes=offload-wrap-kernels %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_70 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @device_fn(float %f)
define void @device_fn(float %f) {
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(ptr %dyn_ptr, ptr addrspace(1) %out, i64 %h, i64 %f) !offload.wrapped !0 {
; CHECK-NEXT:    %h.trunc = trunc i64 %h to i16
; CHECK-NEXT:    %h.bitcast = bitcast i16 %h.trunc to half
; CHECK-NEXT:    %f.trunc = trunc i64 %f to i32
; CHECK-NEXT:    %f.bitcast = bitcast i32 %f.trunc to float
; CHECK-NEXT:    store half %h.bitcast, ptr addrspace(1) %out, align 2
; CHECK-NEXT:    store float %f.bitcast, ptr addrspace(1) %out, align 4
define ptx_kernel void @k(ptr addrspace(1) %out, half %h, float %f) {
  store half %h, ptr addrspace(1) %out
  store float %f, ptr addrspace(1) %out
  ret void
}
