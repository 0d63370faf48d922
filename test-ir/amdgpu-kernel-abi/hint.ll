; The !offload.aggregate.args hint names IR parameters that form one source
; aggregate: split fields (count > 1) or a pointer to it (count == 1).
; RUN: %opt -passes=amdgpu-kernel-abi -S %s | %FileCheck %s
; Bad hints are errors naming the pass, kernel and parameter; nothing is
; written: bad-input/hint-metadata.ll.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Params 0..1 are one {u64, u32} (16 bytes, align 8); param 3 points at a
; 12-byte aggregate (rustc -O0 style: a bare `ptr align 4`).
; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK-SAME: ptr addrspace(4) noalias nofree noundef byref([16 x i8]) align 8 captures(none) dereferenceable(16) %t, i8 %k,
; CHECK-SAME: ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s)
; CHECK-NOT: !offload.aggregate.args
; CHECK: [[A:%.*]] = load i64, ptr addrspace(4) %t, align 8
; CHECK-NEXT: [[BP:%.*]] = getelementptr inbounds i8, ptr addrspace(4) %t, i64 8
; CHECK-NEXT: [[B:%.*]] = load i32, ptr addrspace(4) [[BP]], align 8
; CHECK-NEXT: [[S:%.*]] = addrspacecast ptr addrspace(4) %s to ptr
; CHECK-NEXT: store i64 [[A]], ptr addrspace(1) null
; CHECK-NEXT: store i32 [[B]], ptr addrspace(1) null
; CHECK-NEXT: load i32, ptr [[S]]
define amdgpu_kernel void @k(i64 %t.0, i32 %t.1, i8 %k, ptr align 4 %s) !offload.aggregate.args !0 {
  store i64 %t.0, ptr addrspace(1) null
  store i32 %t.1, ptr addrspace(1) null
  %x = load i32, ptr %s
  store i32 %x, ptr addrspace(1) null
  ret void
}

; Hint entries may come in any order; fields follow their natural alignment
; ({i8, double} → offsets 0 and 8).
; CHECK-LABEL: define amdgpu_kernel void @pad(
; CHECK-SAME: ptr addrspace(4) noalias nofree noundef byref([16 x i8]) align 8 captures(none) dereferenceable(16) %p)
; CHECK: getelementptr inbounds i8, ptr addrspace(4) %p, i64 8
; CHECK-NEXT: load double, {{.*}} align 8
define amdgpu_kernel void @pad(i8 %p.0, double %p.1) !offload.aggregate.args !3 {
  ret void
}

!0 = !{!2, !1}
!1 = !{i32 0, i32 2, i64 16, i64 8}
!2 = !{i32 3, i32 1, i64 12, i64 4}
!3 = !{!4}
!4 = !{i32 0, i32 2, i64 16, i64 8}
