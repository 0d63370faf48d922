; Running the pass twice gives exactly what running it once gives: after the
; copy the parameter is only the memcpy source and already readonly.
; (Input from stdin so that the ModuleID line is the same in every output.)
; RUN: %opt -passes=byref-callee-copy -S < %s -o %t.once.ll
; RUN: %opt -passes=byref-callee-copy,byref-callee-copy -S < %s -o %t.twice.ll
; RUN: %opt -passes=byref-callee-copy -S < %t.once.ll -o %t.again.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: diff %t.once.ll %t.again.ll
; RUN: %FileCheck %s < %t.twice.ll

target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @written(ptr addrspace(4) readonly byref([12 x i8]) align 4 %s, ptr addrspace(4) readonly byref(i32) align 4 %r)
; CHECK-COUNT-1: alloca
; CHECK-NOT: alloca
; CHECK-COUNT-1: call void @llvm.memcpy.p5.p4.i64(
; CHECK-NOT: call void @llvm.memcpy
; CHECK: ret void
define amdgpu_kernel void @written(ptr addrspace(4) byref([12 x i8]) align 4 %s, ptr addrspace(4) byref(i32) align 4 %r) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %a = addrspacecast ptr %g to ptr addrspace(1)
  store i32 1, ptr addrspace(1) %a, align 4
  %v = load i32, ptr addrspace(4) %r, align 4
  ret void
}
