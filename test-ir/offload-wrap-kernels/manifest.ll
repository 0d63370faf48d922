; offload-wrap-kernels records a kernel manifest per kernel it wraps (format:
; docs/kernel-manifest.md), and the manifest survives into each kind of linked
; image: an x86_64 shared object (also stripped), an AMDGPU code object and an
; NVPTX cubin (ptxas keeps the .visible global). The example reader
; scripts/read-manifest.py reads all three.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-wrap-kernels -S %t/cpu.ll -o - | %FileCheck %s --check-prefix=IR
; RUN: %device-image -passes=offload-wrap-kernels %t/cpu.ll %t/cpu.so
; RUN: %read-manifest %t/cpu.so | %FileCheck %s --check-prefix=CPU
; RUN: llvm-strip %t/cpu.so -o %t/cpu.stripped.so
; RUN: %read-manifest %t/cpu.stripped.so | %FileCheck %s --check-prefix=CPU
; RUN: llvm-readelf --notes %t/cpu.so | %FileCheck %s --check-prefix=NOTES
; RUN: %device-image -passes=offload-wrap-kernels %t/amdgpu.ll %t/amdgpu.so -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a
; RUN: %read-manifest %t/amdgpu.so | %FileCheck %s --check-prefix=AMDGPU
; (A second run adds nothing: idempotence.ll.)

; IR: @__offload_manifest_k = constant [{{[0-9]+}} x i8] c"\0F\00\00\00{{.*}}KM\00\00offload-passes\00\00\01\00\00\00\05\00\00\00\01\00\00\00\08\01\00\00{{.*}}k\00\00\00", section ".note.offload_passes.manifest", align 4
; IR: @llvm.used = appending global [1 x ptr] [ptr @__offload_manifest_k], section "llvm.metadata"

; CPU:      kernel k: 5 parameters, 8-byte slots after 1 leading slot (dyn_ptr)
; CPU-NEXT:   slot 1: param 0 ptr -> pointer
; CPU-NEXT:   slot 2: param 1 i32 -> value (zero-extended to 64 bits)
; CPU-NEXT:   slot 3: param 2 float -> value (zero-extended to 64 bits)
; CPU-NEXT:   slot 4: param 3 ptr byval({16 bytes, align 8}) -> pointer to the host's TO-mapped copy
; CPU-NEXT:   slot 5: param 4 {16 bytes, align 8} by value -> pointer to the host's TO-mapped copy
; CPU-NOT: kernel

; NOTES: Displaying notes found in: .note.offload_passes.manifest
; NOTES: offload-passes {{.*}}Unknown note type: (0x00004d4b)

; AMDGPU:      kernel ka: 3 parameters, 8-byte slots after 1 leading slot (dyn_ptr)
; AMDGPU-NEXT:   slot 1: param 0 ptr addrspace(1) -> pointer
; AMDGPU-NEXT:   slot 2: param 1 i16 -> value (zero-extended to 64 bits)
; AMDGPU-NEXT:   slot 3: param 2 half -> value (zero-extended to 64 bits)

;--- cpu.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%S = type { i32, double }
define void @k(ptr %a, i32 %n, float %f, ptr byval(%S) %s, %S %v) !offload.kernel !0 {
  ret void
}
define void @helper(ptr %a) {
  ret void
}
!0 = !{}

;--- amdgpu.ll
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @ka(ptr addrspace(1) %a, i16 %n, half %h) {
  ret void
}
