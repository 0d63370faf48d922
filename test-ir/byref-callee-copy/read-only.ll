; A byref parameter the kernel only reads gets `readonly` and no copy; the
; kernel body is left as it is. `readnone` stays; `writeonly` (contradicted
; by the proof of no writes) is replaced by `readonly`.
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck --check-prefix=NOCOPY %s

target triple = "amdgcn-amd-amdhsa"

; NOCOPY-NOT: alloca
; NOCOPY-NOT: llvm.memcpy

; CHECK-LABEL: define amdgpu_kernel void @load(ptr addrspace(4) readonly byref([12 x i8]) align 4 %s, ptr addrspace(1) %out)
; CHECK-NEXT: %v = load i32, ptr addrspace(4) %s, align 4, !amdgpu.noclobber
define amdgpu_kernel void @load(ptr addrspace(4) byref([12 x i8]) align 4 %s, ptr addrspace(1) %out) {
  %v = load i32, ptr addrspace(4) %s, align 4, !amdgpu.noclobber !0
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; Loads through GEP, generic and global casts, select and icmp only read.
; CHECK-LABEL: define amdgpu_kernel void @chain(ptr addrspace(4) readonly byref([12 x i8]) align 4 %s, i1 %c, ptr addrspace(1) %out)
; CHECK: %p = select i1 %c, ptr addrspace(1) %a, ptr addrspace(1) %b
; CHECK: %v = load i32, ptr addrspace(1) %p, align 4
define amdgpu_kernel void @chain(ptr addrspace(4) byref([12 x i8]) align 4 %s, i1 %c, ptr addrspace(1) %out) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %a = addrspacecast ptr %g to ptr addrspace(1)
  %b = getelementptr inbounds i8, ptr addrspace(1) %a, i64 8
  %p = select i1 %c, ptr addrspace(1) %a, ptr addrspace(1) %b
  %v = load i32, ptr addrspace(1) %p, align 4
  %z = icmp eq ptr addrspace(1) %p, null
  %w = select i1 %z, i32 0, i32 %v
  store i32 %w, ptr addrspace(1) %out, align 4
  ret void
}

; Unused: readonly is true too.
; CHECK-LABEL: define amdgpu_kernel void @unused(ptr addrspace(4) readonly byref(i32) align 4 %s)
define amdgpu_kernel void @unused(ptr addrspace(4) byref(i32) align 4 %s) {
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @already_readnone(ptr addrspace(4) readnone byref(i32) align 4 %s)
define amdgpu_kernel void @already_readnone(ptr addrspace(4) readnone byref(i32) align 4 %s) {
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @was_writeonly(ptr addrspace(4) readonly byref(i32) align 4 %s)
define amdgpu_kernel void @was_writeonly(ptr addrspace(4) writeonly byref(i32) align 4 %s) {
  ret void
}

; Not kernels: a device function's byref is the caller's business.
; CHECK-LABEL: define void @device(ptr addrspace(4) byref(i32) align 4 %s)
define void @device(ptr addrspace(4) byref(i32) align 4 %s) {
  store i32 1, ptr addrspace(4) %s, align 4
  ret void
}

!0 = !{}
