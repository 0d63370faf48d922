; Several byref parameters: each is decided and rewritten alone; copies
; appear at entry after the existing allocas, in parameter order. A written
; select between two byref parameters makes both copies; while %a is
; rewritten %b is a pointer from elsewhere, so the select becomes generic
; (valid; InferAddressSpaces can narrow it again).
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @k(ptr addrspace(4) readonly byref([8 x i8]) align 4 %a, ptr addrspace(4) readonly byref(i32) align 4 %ro, ptr addrspace(4) readonly byref([8 x i8]) align 8 %b, i1 %c)
; CHECK-NEXT: %tmp = alloca i32, align 4, addrspace(5)
; CHECK-NEXT: %a.copy = alloca [8 x i8], align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %a.copy, ptr addrspace(4) align 4 %a, i64 8, i1 false)
; CHECK-NEXT: %b.copy = alloca [8 x i8], align 8, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 8 %b.copy, ptr addrspace(4) align 8 %b, i64 8, i1 false)
; CHECK-NEXT: %b.copy.generic = addrspacecast ptr addrspace(5) %b.copy to ptr
; CHECK-NEXT: %a.copy.generic = addrspacecast ptr addrspace(5) %a.copy to ptr
; CHECK-NEXT: %p = select i1 %c, ptr %a.copy.generic, ptr %b.copy.generic
; CHECK-NEXT: store i32 0, ptr %p, align 4
; CHECK-NEXT: %v = load i32, ptr addrspace(4) %ro, align 4
define amdgpu_kernel void @k(ptr addrspace(4) byref([8 x i8]) align 4 %a, ptr addrspace(4) byref(i32) align 4 %ro, ptr addrspace(4) byref([8 x i8]) align 8 %b, i1 %c) {
  %tmp = alloca i32, align 4, addrspace(5)
  %p = select i1 %c, ptr addrspace(4) %a, ptr addrspace(4) %b
  store i32 0, ptr addrspace(4) %p, align 4
  %v = load i32, ptr addrspace(4) %ro, align 4
  store i32 %v, ptr addrspace(5) %tmp, align 4
  ret void
}
