; RUST_LOG=offload_passes=debug logs each decision: kernel, parameter, copy
; or not, and the first writing use found.
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=byref-callee-copy -disable-output %s 2>&1 | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

; CHECK-DAG: byref-callee-copy: kernel 'k', parameter #0 (%s): may be written (store through it: `store i32 1, ptr %g, align 4`); copying to private memory
; CHECK-DAG: byref-callee-copy: kernel 'k', parameter #1 (%r): only read, no copy; marked readonly
define amdgpu_kernel void @k(ptr addrspace(4) byref(i32) align 4 %s, ptr addrspace(4) byref(i32) align 4 %r) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %v = load i32, ptr addrspace(4) %r, align 4
  store i32 1, ptr %g, align 4
  ret void
}
