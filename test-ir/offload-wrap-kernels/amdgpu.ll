; amdgpu_kernel functions are kernels without a marker. They get the leading
; generic `ptr %dyn_ptr` (as clang's and rustc's OpenMP device kernels have),
; keep their calling convention, and keep pointers in their address space;
; scalars become i64 slots like on the CPU. Non-kernels and declarations stay.
; RUN: %opt -passes=offload-wrap-kernels -S %s | %FileCheck %s
; RUN: %opt -passes=offload-wrap-kernels %s | %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj -o /dev/null

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define void @helper(i32 %x)
define void @helper(i32 %x) {
  ret void
}

; CHECK-LABEL: declare amdgpu_kernel void @extern_kernel(i32)
declare amdgpu_kernel void @extern_kernel(i32)

; CHECK-LABEL: define amdgpu_kernel void @k(ptr %dyn_ptr, ptr addrspace(1) noalias %out, ptr %flat, i64 %n, i64 %x) #0 !offload.wrapped !0 {
; CHECK-NEXT:    %n.trunc = trunc i64 %n to i32
; CHECK-NEXT:    %x.bitcast = bitcast i64 %x to double
; CHECK-NEXT:    store i32 %n.trunc, ptr addrspace(1) %out, align 4
; CHECK-NEXT:    store double %x.bitcast, ptr %flat, align 8
; CHECK:       attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
define amdgpu_kernel void @k(ptr addrspace(1) noalias %out, ptr %flat, i32 %n, double %x) #0 {
  store i32 %n, ptr addrspace(1) %out
  store double %x, ptr %flat
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
