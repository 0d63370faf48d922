; Calls and escapes. A call argument only reads when the call is known to
; only read it (readonly/readnone on the argument, or memory(read) or less
; on the call) AND not to keep a writable copy of it (captures without full
; provenance, return value included). Escapes (ptrtoint, the pointer stored as
; a value) may lead to writes elsewhere, so they count as writes.
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

declare void @may_write(ptr)
declare void @reads(ptr readonly captures(none))
declare void @reads_keeps(ptr readonly)
declare ptr @reads_returns(ptr readonly captures(ret: address, provenance))
declare void @read_fn(ptr captures(none)) memory(read)
declare void @read_fn_keeps(ptr) memory(read)
declare void @reads_keeps_address(ptr readonly captures(address, read_provenance))

; --- positives: copy, and the call gets the copy as a generic pointer

; CHECK-LABEL: define amdgpu_kernel void @call_may_write(ptr addrspace(4) readonly byref(i32) align 4 %s)
; CHECK-NEXT: %s.copy = alloca i32, align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 4, i1 false)
; CHECK-NEXT: %s.copy.generic = addrspacecast ptr addrspace(5) %s.copy to ptr
; CHECK-NEXT: call void @may_write(ptr %s.copy.generic)
define amdgpu_kernel void @call_may_write(ptr addrspace(4) byref(i32) align 4 %s) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  call void @may_write(ptr %g)
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @readonly_but_captured(
; CHECK: call void @reads_keeps(ptr %s.copy.generic)
define amdgpu_kernel void @readonly_but_captured(ptr addrspace(4) byref(i32) align 4 %s) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  call void @reads_keeps(ptr %g)
  ret void
}

; The returned pointer is written through.
; CHECK-LABEL: define amdgpu_kernel void @readonly_but_returned(
; CHECK: %r = call ptr @reads_returns(ptr %s.copy.generic)
; CHECK-NEXT: store i32 0, ptr %r, align 4
define amdgpu_kernel void @readonly_but_returned(ptr addrspace(4) byref(i32) align 4 %s) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %r = call ptr @reads_returns(ptr %g)
  store i32 0, ptr %r, align 4
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @read_fn_but_captured(
; CHECK: call void @read_fn_keeps(ptr %s.copy.generic)
define amdgpu_kernel void @read_fn_but_captured(ptr addrspace(4) byref(i32) align 4 %s) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  call void @read_fn_keeps(ptr %g)
  ret void
}

; Call-site attributes count as much as the declaration's: a call site that
; says nothing about a declaration that says nothing may write.
; CHECK-LABEL: define amdgpu_kernel void @indirect(
; CHECK: call void %f(ptr %s.copy.generic)
define amdgpu_kernel void @indirect(ptr addrspace(4) byref(i32) align 4 %s, ptr %f) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  call void %f(ptr %g)
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @ptrtoint(
; CHECK: %i = ptrtoint ptr %s.copy.generic to i64
define amdgpu_kernel void @ptrtoint(ptr addrspace(4) byref(i32) align 4 %s, ptr addrspace(1) %out) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %i = ptrtoint ptr %g to i64
  store i64 %i, ptr addrspace(1) %out, align 8
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @stored_pointer(
; CHECK: store ptr %s.copy.generic, ptr addrspace(1) %out, align 8
define amdgpu_kernel void @stored_pointer(ptr addrspace(4) byref(i32) align 4 %s, ptr addrspace(1) %out) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  store ptr %g, ptr addrspace(1) %out, align 8
  ret void
}

; llvm.assume bundles only state facts: they do not make a copy, and once a
; copy is made for another reason the assume is dropped (always sound).
; CHECK-LABEL: define amdgpu_kernel void @assume_then_write(
; CHECK-NOT: llvm.assume
; CHECK: ret void
define amdgpu_kernel void @assume_then_write(ptr addrspace(4) byref(i32) align 4 %s) {
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(4) %s, i64 4) ]
  store i32 1, ptr addrspace(4) %s, align 4
  ret void
}

; --- negatives: no copy, readonly

; CHECK-LABEL: define amdgpu_kernel void @call_reads(ptr addrspace(4) readonly byref(i32) align 4 %s)
; CHECK-NEXT: %g = addrspacecast ptr addrspace(4) %s to ptr
; CHECK-NEXT: call void @reads(ptr %g)
; CHECK-NEXT: call void @read_fn(ptr %g)
; CHECK-NEXT: call void @reads_keeps_address(ptr %g)
; CHECK-NEXT: call void @may_write(ptr readonly captures(none) %g)
; CHECK-NEXT: call void @llvm.assume(i1 true) [ "align"(ptr addrspace(4) %s, i64 4) ]
; CHECK-NEXT: %i = ptrtoaddr ptr %g to i64
; CHECK-NEXT: ret void
define amdgpu_kernel void @call_reads(ptr addrspace(4) byref(i32) align 4 %s) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  call void @reads(ptr %g)
  call void @read_fn(ptr %g)
  call void @reads_keeps_address(ptr %g)
  call void @may_write(ptr readonly captures(none) %g)
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(4) %s, i64 4) ]
  %i = ptrtoaddr ptr %g to i64
  ret void
}
