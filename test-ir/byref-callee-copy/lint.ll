; `opt -passes=lint` reports the write through the byref parameter in the
; input and nothing about constant memory after the pass.
; RUN: %opt -passes=lint -disable-output %s 2>&1 | %FileCheck --check-prefix=INPUT %s
; RUN: %opt -passes=byref-callee-copy -S %s -o %t.ll
; RUN: %opt -passes=lint -disable-output %t.ll 2>&1 | %FileCheck --allow-empty --check-prefix=OUTPUT %s
; The write went to a private copy (not away):
; RUN: %FileCheck --check-prefix=COPY %s < %t.ll
; COPY: %s.copy = alloca [8 x i8], align 4, addrspace(5)
; COPY-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 8, i1 false)
; COPY: store i32 %x, ptr addrspace(5) %s.copy, align 4
; COPY-NEXT: %v = load i32, ptr addrspace(5) %s.copy, align 4

target triple = "amdgcn-amd-amdhsa"

; INPUT: Undefined behavior: Write to memory in const addrspace
; INPUT-NEXT: store i32 %x, ptr %g, align 4
; OUTPUT-NOT: Write to memory in const addrspace
define amdgpu_kernel void @k(ptr addrspace(4) byref([8 x i8]) align 4 %s, i32 %x, ptr addrspace(1) %out) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  store i32 %x, ptr %g, align 4
  %v = load i32, ptr addrspace(4) %s, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
