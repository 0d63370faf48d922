; rustc owns a by-value argument and may write to it; writing through a
; `byref` pointer is undefined (AMDGPU alias analysis treats the kernarg
; segment as constant: -O2 deletes such a store). So when the body may write
; through the pointer rustc passed, amdgpu-kernel-abi gives the kernel a
; private copy itself (alloca in addrspace(5) + memcpy), and the pass order
; no longer matters: -O2 straight after it keeps the write. A read-only body
; gets no copy. byref-callee-copy afterwards finds only a memcpy source.
; RUN: %opt -passes=amdgpu-kernel-abi -S %s | %FileCheck %s
; RUN: %opt -passes='amdgpu-kernel-abi,default<O2>' -S %s | %FileCheck --check-prefix=O2 %s
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %s | %FileCheck --check-prefix=THEN-COPY %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @writes(ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s, ptr addrspace(1) %out)
; CHECK-NEXT:    %s.copy = alloca [12 x i8], align 4, addrspace(5)
; CHECK-NEXT:    call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 12, i1 false)
; CHECK-NEXT:    %s.copy.generic = addrspacecast ptr addrspace(5) %s.copy to ptr
; CHECK-NEXT:    store i32 7, ptr %s.copy.generic, align 4
; CHECK-NEXT:    %v = load i32, ptr %s.copy.generic, align 4
; O2-LABEL: define amdgpu_kernel void @writes(
; O2:         store i32 7, ptr addrspace(1) %out, align 4
; THEN-COPY-LABEL: define amdgpu_kernel void @writes(ptr addrspace(4) noalias nofree noundef readonly byref([12 x i8])
; THEN-COPY-NOT:   alloca
; THEN-COPY:       %s.copy = alloca [12 x i8], align 4, addrspace(5)
; THEN-COPY-NOT:   alloca
; THEN-COPY:       ret void
define amdgpu_kernel void @writes(ptr dead_on_return noalias noundef align 4 dereferenceable(12) %s, ptr addrspace(1) %out) {
  store i32 7, ptr %s, align 4
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @reads(ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s, ptr addrspace(1) %out)
; CHECK-NOT:     alloca
; CHECK:         %1 = addrspacecast ptr addrspace(4) %s to ptr
; CHECK-NEXT:    %v = load i32, ptr %1, align 4
define amdgpu_kernel void @reads(ptr dead_on_return noalias noundef align 4 dereferenceable(12) %s, ptr addrspace(1) %out) {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; An empty aggregate by value: byref with no dereferenceable (0 is not valid
; IR), output that re-parses.
; CHECK-LABEL: define amdgpu_kernel void @empty(ptr addrspace(4) noalias nofree noundef byref({}) align 1 captures(none) %e, ptr addrspace(4) noalias nofree noundef byref([0 x i32]) align 4 captures(none) %z, i32 %x)
define amdgpu_kernel void @empty({} %e, [0 x i32] %z, i32 %x) {
  ret void
}
; RUN: %opt -passes=amdgpu-kernel-abi -S %s | %opt -passes=verify -disable-output
