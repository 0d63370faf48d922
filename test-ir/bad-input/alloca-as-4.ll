; Found by cargo fuzz (fuzz/README.md): with allocas in address space 4 (A4
; in the data layout), a byref argument in addrspace(4) is a "stack byref",
; which the verifier refuses for amdgpu_kernel. amdgpu-kernel-abi used to
; write it anyway, so opt aborted with "Broken module found". Now an error
; naming the pass and kernel, before anything changes; no output file.
; RUN: %no-output-file %t.out not %opt -passes=amdgpu-kernel-abi -S %s -o %t.out 2>&1 | %FileCheck %s
; CHECK: error: amdgpu-kernel-abi: kernel 'k_struct': the data layout puts allocas in address space 4 (A4), where byref kernel arguments go; is this an amdgcn module?
; CHECK-NOT: Broken module

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A4-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%Three = type { i32, i32, i32 }

; Nothing to rewrite here: no error on its own.
define amdgpu_kernel void @k_scalars(i32 %a, ptr addrspace(1) %p) {
  ret void
}

define amdgpu_kernel void @k_struct(%Three %s, ptr addrspace(1) %out) {
  %b = extractvalue %Three %s, 1
  store i32 %b, ptr addrspace(1) %out
  ret void
}
