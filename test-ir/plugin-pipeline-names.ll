; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -print-pipeline-passes -disable-output %s | %FileCheck %s
; CHECK: amdgpu-kernel-abi,byref-callee-copy
define amdgpu_kernel void @k(i32 %x) {
  ret void
}
