; Compile-only: an NVPTX cubin (ptxas from NVIDIA's PyPI wheel): its kernels
; are the entry functions (STO_CUDA_ENTRY), their manifests the bytes of the
; __offload_manifest_<K> symbols ptxas keeps; launches are checked against
; them like on any other image, and the OffloadBinary around the cubin says
; kind cubin, arch sm_90, triple nvptx64-nvidia-cuda.
; REQUIRES: ptxas
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-wrap-kernels %t/dev.ll -o %t/dev.bc
; RUN: %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 %t/dev.bc -o %t/dev.ptx
; RUN: %ptxas -arch=sm_90 %t/dev.ptx -o %t/dev.cubin
; RUN: %opt -passes='offload-host<image=%t/dev.cubin>' %t/host.ll -S -o - | %FileCheck %s
; RUN: %opt -passes='offload-host<image=%t/dev.cubin>' %t/host.ll -o %t/host.bc
; RUN: %clang -c %t/host.bc -o %t/host.o
; RUN: llvm-objcopy --dump-section=.offload_passes.image=%t/image.bin %t/host.o %t/copy.o
; RUN: llvm-objdump --offloading %t/image.bin | %FileCheck %s --check-prefix=OBJDUMP
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.cubin>' %t/wrong.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=WRONG

; Entries for the kernel alone (the device function is no entry):
; CHECK: @.offloading.entries.[[H:[0-9a-f]+]] = linkonce_odr hidden constant [1 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.scale.region_id.[[H]],
; CHECK: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.scale.region_id.[[H]],

; OBJDUMP:      kind            cubin
; OBJDUMP-NEXT: arch            sm_90
; OBJDUMP-NEXT: triple          nvptx64-nvidia-cuda

; WRONG: error: offload-host: launch of 'scale' in function 'f': argument 1 is 'double', but kernel 'scale' takes 'float' (its manifest in image

;--- dev.ll
target triple = "nvptx64-nvidia-cuda"
define void @twice(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %w = fmul float %v, 2.0
  store float %w, ptr addrspace(1) %p
  ret void
}
define ptx_kernel void @scale(ptr addrspace(1) %p, float %f) {
  call void @twice(ptr addrspace(1) %p)
  ret void
}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare void @scale(ptr dereferenceable(4), float)
define void @f(ptr %p) {
  call void @scale(ptr %p, float 2.0)
  ret void
}

;--- wrong.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @scale(ptr dereferenceable(4), double)
define void @f(ptr %p) {
  call void @scale(ptr %p, double 2.0)
  ret void
}
