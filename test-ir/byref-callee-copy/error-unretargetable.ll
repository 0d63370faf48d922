; A use that needs the old non-generic pointer type (here a call taking
; `ptr addrspace(1)`) cannot point at the private copy. The pass fails with
; an error naming itself, the kernel and the parameter, instead of
; miscompiling, and changes nothing.
; RUN: not %opt -passes=byref-callee-copy -disable-output %s 2>&1 | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

declare void @global_only(ptr addrspace(1))

; CHECK: byref-callee-copy: kernel 'k', parameter #1 (%s): cannot retarget `call void @global_only(ptr addrspace(1) %a)` to the private copy: it needs a 'ptr addrspace(1)'
define amdgpu_kernel void @k(i32 %x, ptr addrspace(4) byref([12 x i8]) align 4 %s) {
  %a = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)
  store i32 %x, ptr addrspace(1) %a, align 4
  call void @global_only(ptr addrspace(1) %a)
  ret void
}
