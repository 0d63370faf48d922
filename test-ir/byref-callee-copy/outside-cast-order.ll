; Pointers from outside the parameter (here another byref, %o) that meet the
; copy in selects are cast to generic once, right after their definition, so
; the cast dominates every user whatever order the users are rebuilt in (here
; the later select's GEP is defined first). The output must verify.
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s

; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 16, i1 false)
; CHECK-NEXT: [[O:%.*]] = addrspacecast ptr addrspace(4) %o to ptr
; CHECK-NOT: addrspacecast ptr addrspace(4) %o
; CHECK: %sb = select i1 %c, ptr %b.generic, ptr [[O]]
; CHECK-NEXT: %sa = select i1 %c, ptr %a.generic, ptr [[O]]
; CHECK: store i32 1, ptr addrspace(5) %s.copy
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(4) byref([16 x i8]) align 4 %s, ptr addrspace(4) readonly byref([16 x i8]) align 4 %o, i1 %c, ptr addrspace(1) %out) {
  %b = getelementptr i8, ptr addrspace(4) %s, i64 8
  %a = getelementptr i8, ptr addrspace(4) %s, i64 4
  %sb = select i1 %c, ptr addrspace(4) %b, ptr addrspace(4) %o
  %sa = select i1 %c, ptr addrspace(4) %a, ptr addrspace(4) %o
  %v = load i32, ptr addrspace(4) %sb
  %w = load i32, ptr addrspace(4) %sa
  store i32 %v, ptr addrspace(1) %out
  store i32 %w, ptr addrspace(1) %out
  %g = addrspacecast ptr addrspace(4) %s to ptr
  store i32 1, ptr %g
  ret void
}
