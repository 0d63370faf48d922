; Why the pass exists. The kernel writes 42 through a generic cast of its
; byref parameter, reads it back and stores it to %out.
; At -O2 alone AMDGPU alias analysis treats the kernarg (addrspace 4) as never
; written: the store is deleted and %out receives the OLD value of s.a.
; With byref-callee-copy first, the write goes to a private copy and -O2
; (SROA) forwards it: %out receives 42.
; RUN: %opt -O2 -S %s | %FileCheck --check-prefix=O2 %s
; RUN: %opt -passes='byref-callee-copy,default<O2>' -S %s | %FileCheck --check-prefix=COPY %s

target triple = "amdgcn-amd-amdhsa"

; O2-LABEL: define amdgpu_kernel void @k(
; O2-NEXT:  [[OLD:%.*]] = load i32, ptr addrspace(4) %s, align 4
; O2-NEXT:  store i32 [[OLD]], ptr addrspace(1) %out, align 4
; O2-NEXT:  ret void

; COPY-LABEL: define amdgpu_kernel void @k(
; COPY-NEXT:  store i32 42, ptr addrspace(1) %out, align 4
; COPY-NEXT:  ret void
define amdgpu_kernel void @k(ptr addrspace(4) byref([8 x i8]) align 4 %s, ptr addrspace(1) %out) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  store i32 42, ptr %g, align 4
  %v = load i32, ptr addrspace(4) %s, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
