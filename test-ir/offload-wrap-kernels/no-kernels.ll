; A module without kernels is left exactly as it is (and so is a module whose
; kernels are all wrapped: see idempotence.ll).
; RUN: %opt -S %s -o %t.plain.ll
; RUN: %opt -passes=offload-wrap-kernels -S %s -o %t.wrapped.ll
; RUN: diff %t.plain.ll %t.wrapped.ll

target triple = "x86_64-pc-linux-gnu"

define void @f(i32 %x, double %d) {
  ret void
}

declare amdgpu_kernel void @declared_gpu_kernel(i32)

define internal float @g(float %x) !other !0 {
  ret float %x
}

!0 = !{}
