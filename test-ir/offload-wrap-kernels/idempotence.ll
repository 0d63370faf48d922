; Wrapping happens exactly once: the marker is !offload.wrapped, never a value
; name. Running the pass twice, running it on its own output, and doing both
; with value names discarded all give the module of a single run.
; Running on the output is compared with a plain round trip of that output
; through opt: a reparse registers metadata kinds in textual order, which
; changes the printed order of !offload.kernel and !offload.wrapped.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %opt -passes=offload-wrap-kernels -S < %s -o %t/once.ll
; RUN: %opt -passes=offload-wrap-kernels,offload-wrap-kernels -S < %s -o %t/twice.ll
; RUN: diff %t/once.ll %t/twice.ll
; RUN: %opt -S < %t/once.ll -o %t/once-rt.ll
; RUN: %opt -passes=offload-wrap-kernels -S < %t/once.ll -o %t/again.ll
; RUN: diff %t/once-rt.ll %t/again.ll
; Without value names (rustc release builds, -discard-value-names; such a
; context reads bitcode only):
; RUN: llvm-as < %s -o %t/in.bc
; RUN: %opt -discard-value-names -passes=offload-wrap-kernels %t/in.bc -S -o %t/once-nn.ll
; RUN: %opt -discard-value-names -passes=offload-wrap-kernels,offload-wrap-kernels %t/in.bc -S -o %t/twice-nn.ll
; RUN: diff %t/once-nn.ll %t/twice-nn.ll
; RUN: %opt -discard-value-names -passes=offload-wrap-kernels %t/in.bc -o %t/once-nn.bc
; RUN: %opt -discard-value-names %t/once-nn.bc -S -o %t/once-nn-rt.ll
; RUN: %opt -discard-value-names -passes=offload-wrap-kernels %t/once-nn.bc -S -o %t/again-nn.ll
; RUN: diff %t/once-nn-rt.ll %t/again-nn.ll
; RUN: %FileCheck %s --check-prefix=NN < %t/once-nn.ll
; The same holds with the kernel named by the parameter instead of a marker:
; RUN: %opt -discard-value-names -passes='offload-wrap-kernels<kernels=named>' %t/in.bc -o %t/p-once.bc
; RUN: %opt -discard-value-names %t/p-once.bc -S -o %t/p-once-rt.ll
; RUN: %opt -discard-value-names -passes='offload-wrap-kernels<kernels=named>' %t/p-once.bc -S -o %t/p-again.ll
; RUN: diff %t/p-once-rt.ll %t/p-again.ll
; RUN: %FileCheck %s --check-prefix=PARAM < %t/p-again.ll

; NN: define void @named(i32 %0)
; NN: define amdgpu_kernel void @gpu(ptr %0, ptr addrspace(1) %1, i64 %2) !offload.wrapped !0 {
; NN: define void @cpu(ptr %0, i64 %1, i64 %2) !offload.kernel !0 !offload.wrapped !0 {
; PARAM: define void @named(ptr %0, i64 %1) !offload.wrapped !0 {

define void @named(i32 %x) {
  ret void
}

define amdgpu_kernel void @gpu(ptr addrspace(1) %p, float %f) {
  store float %f, ptr addrspace(1) %p
  ret void
}

define void @cpu(i32 %n, double %d) !offload.kernel !0 {
  %x = sitofp i32 %n to double
  %y = fadd double %x, %d
  ret void
}

!0 = !{}
