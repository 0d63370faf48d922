; Writes found through chains of getelementptr, addrspacecast, select, phi
; (cycles included) and freeze. Chains that only ever point into the
; parameter are rebuilt in addrspace(5); where they meet a pointer from
; elsewhere they become generic pointers, the outside pointer being cast to
; generic (in the incoming block for a phi).
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

; A generic -> global cast of the copy would be invalid: the chain is
; rebuilt on the private copy, casts vanish.
; CHECK-LABEL: define amdgpu_kernel void @casts_gep_select(
; CHECK-NEXT: %s.copy = alloca [12 x i8], align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(
; CHECK-NEXT: %b = getelementptr inbounds nuw i8, ptr addrspace(5) %s.copy, i64 8
; CHECK-NEXT: %p = select i1 %c, ptr addrspace(5) %s.copy, ptr addrspace(5) %b
; CHECK-NEXT: %f = freeze ptr addrspace(5) %p
; CHECK-NEXT: store i32 1, ptr addrspace(5) %f, align 4
; CHECK-NEXT: ret void
define amdgpu_kernel void @casts_gep_select(ptr addrspace(4) byref([12 x i8]) align 4 %s, i1 %c) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %a = addrspacecast ptr %g to ptr addrspace(1)
  %b = getelementptr inbounds nuw i8, ptr addrspace(1) %a, i64 8
  %p = select i1 %c, ptr addrspace(1) %a, ptr addrspace(1) %b
  %f = freeze ptr addrspace(1) %p
  store i32 1, ptr addrspace(1) %f, align 4
  ret void
}

; The select may also pick %out: generic select, %out cast to generic (once,
; at entry: an argument); the GEP and cast after it stay generic too.
; CHECK-LABEL: define amdgpu_kernel void @select_outside(
; CHECK:      [[OUT:%.*]] = addrspacecast ptr addrspace(1) %out to ptr
; CHECK-NEXT: %s.copy.generic = addrspacecast ptr addrspace(5) %s.copy to ptr
; CHECK-NEXT: %p = select i1 %c, ptr %s.copy.generic, ptr [[OUT]]
; CHECK-NEXT: %q = getelementptr i8, ptr %p, i64 4
; CHECK-NEXT: store i32 1, ptr %q, align 4
; CHECK-NEXT: %v = load i32, ptr %p, align 4{{$}}
define amdgpu_kernel void @select_outside(ptr addrspace(4) byref([12 x i8]) align 4 %s, i1 %c, ptr addrspace(1) %out) {
  %a = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)
  %p = select i1 %c, ptr addrspace(1) %a, ptr addrspace(1) %out
  %q = getelementptr i8, ptr addrspace(1) %p, i64 4
  %r = addrspacecast ptr addrspace(1) %q to ptr
  store i32 1, ptr %r, align 4
  %v = load i32, ptr addrspace(1) %p, align 4, !amdgpu.noclobber !0
  ret void
}

; A loop walking the parameter: the phi cycle is rebuilt in addrspace(5).
; CHECK-LABEL: define amdgpu_kernel void @loop(
; CHECK:      loop:
; CHECK-NEXT: %p = phi ptr addrspace(5) [ %s.copy, %entry ], [ %q, %loop ]
; CHECK:      store i32 %i, ptr addrspace(5) %p, align 4
; CHECK-NEXT: %q = getelementptr inbounds i32, ptr addrspace(5) %p, i64 1
define amdgpu_kernel void @loop(ptr addrspace(4) byref([4 x i32]) align 4 %s) {
entry:
  br label %loop
loop:
  %p = phi ptr addrspace(4) [ %s, %entry ], [ %q, %loop ]
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  store i32 %i, ptr addrspace(4) %p, align 4
  %q = getelementptr inbounds i32, ptr addrspace(4) %p, i64 1
  %j = add i32 %i, 1
  %done = icmp eq i32 %j, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A phi merging the parameter with a global pointer: generic phi; the
; outside value is cast to generic once, where it is defined (an argument:
; at entry), which dominates its incoming block and the pointer comparison,
; which becomes a generic one.
; CHECK-LABEL: define amdgpu_kernel void @phi_outside(
; CHECK:      call void @llvm.memcpy.p5.p4.i64(
; CHECK-NEXT: [[OUT:%.*]] = addrspacecast ptr addrspace(1) %out to ptr
; CHECK:      other:
; CHECK-NEXT: br label %join
; CHECK:      join:
; CHECK-NEXT: %p = phi ptr [ %s.copy.generic, %entry ], [ [[OUT]], %other ]
; CHECK-NEXT: store i32 7, ptr %p, align 4
; CHECK-NEXT: %same = icmp eq ptr %p, [[OUT]]
define amdgpu_kernel void @phi_outside(ptr addrspace(4) byref(i32) align 4 %s, i1 %c, ptr addrspace(1) %out) {
entry:
  %a = addrspacecast ptr addrspace(4) %s to ptr addrspace(1)
  br i1 %c, label %join, label %other
other:
  br label %join
join:
  %p = phi ptr addrspace(1) [ %a, %entry ], [ %out, %other ]
  store i32 7, ptr addrspace(1) %p, align 4
  %same = icmp eq ptr addrspace(1) %p, %out
  ret void
}

!0 = !{}
