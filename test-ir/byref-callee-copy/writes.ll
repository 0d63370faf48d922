; Each way of writing through a byref parameter makes a private copy: an
; addrspace(5) alloca of the byref type with the parameter's alignment,
; filled by a memcpy of the type's alloc size at entry, and every access
; moved to the copy. The parameter is then only the memcpy source: readonly.
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @store(ptr addrspace(4) readonly byref([12 x i8]) align 4 %s, ptr addrspace(1) %out)
; CHECK-NEXT: %s.copy = alloca [12 x i8], align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 12, i1 false)
; CHECK-NEXT: %p = getelementptr inbounds nuw i8, ptr addrspace(5) %s.copy, i64 4
; CHECK-NEXT: store i32 1, ptr addrspace(5) %p, align 4
; CHECK-NEXT: %v = load i32, ptr addrspace(5) %s.copy, align 4{{$}}
define amdgpu_kernel void @store(ptr addrspace(4) byref([12 x i8]) align 4 %s, ptr addrspace(1) %out) {
  %p = getelementptr inbounds nuw i8, ptr addrspace(4) %s, i64 4
  store i32 1, ptr addrspace(4) %p, align 4
  %v = load i32, ptr addrspace(4) %s, align 4, !amdgpu.noclobber !0, !invariant.load !0
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @atomicrmw(
; CHECK-NEXT: %s.copy = alloca i32, align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 4, i1 false)
; CHECK-NEXT: %old = atomicrmw add ptr addrspace(5) %s.copy, i32 1 monotonic
define amdgpu_kernel void @atomicrmw(ptr addrspace(4) byref(i32) align 4 %s) {
  %old = atomicrmw add ptr addrspace(4) %s, i32 1 monotonic
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @cmpxchg(
; CHECK: %s.copy = alloca i64, align 8, addrspace(5)
; CHECK: %pair = cmpxchg ptr addrspace(5) %s.copy, i64 0, i64 1 seq_cst seq_cst
define amdgpu_kernel void @cmpxchg(ptr addrspace(4) byref(i64) align 8 %s) {
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %pair = cmpxchg ptr %g, i64 0, i64 1 seq_cst seq_cst
  ret void
}

; memset/memcpy/memmove destinations: the intrinsic is re-declared for the
; copy's address space, call-site attributes kept.
; CHECK-LABEL: define amdgpu_kernel void @memset(
; CHECK: %s.copy = alloca [16 x i8], align 8, addrspace(5)
; CHECK: call void @llvm.memset.p5.i64(ptr addrspace(5) align 8 %s.copy, i8 0, i64 16, i1 false)
define amdgpu_kernel void @memset(ptr addrspace(4) byref([16 x i8]) align 8 %s) {
  call void @llvm.memset.p4.i64(ptr addrspace(4) align 8 %s, i8 0, i64 16, i1 false)
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @memcpy_into(
; CHECK: %s.copy = alloca [16 x i8], align 8, addrspace(5)
; CHECK: call void @llvm.memcpy.p5.p1.i64(ptr addrspace(5) align 8 %s.copy, ptr addrspace(1) align 4 %in, i64 8, i1 false)
define amdgpu_kernel void @memcpy_into(ptr addrspace(4) byref([16 x i8]) align 8 %s, ptr addrspace(1) %in) {
  call void @llvm.memcpy.p4.p1.i64(ptr addrspace(4) align 8 %s, ptr addrspace(1) align 4 %in, i64 8, i1 false)
  ret void
}

; Both operands derived from the parameter.
; CHECK-LABEL: define amdgpu_kernel void @memmove_within(
; CHECK: %s.copy = alloca [16 x i8], align 8, addrspace(5)
; CHECK: %hi = getelementptr i8, ptr addrspace(5) %s.copy, i64 8
; CHECK: call void @llvm.memmove.p5.p5.i64(ptr addrspace(5) %s.copy, ptr addrspace(5) %hi, i64 8, i1 true)
define amdgpu_kernel void @memmove_within(ptr addrspace(4) byref([16 x i8]) align 8 %s) {
  %hi = getelementptr i8, ptr addrspace(4) %s, i64 8
  call void @llvm.memmove.p4.p4.i64(ptr addrspace(4) %s, ptr addrspace(4) %hi, i64 8, i1 true)
  ret void
}

; A memcpy source only reads (negative), but once the kernel also writes,
; the source moves to the copy too.
; CHECK-LABEL: define amdgpu_kernel void @memcpy_from(ptr addrspace(4) readonly byref([16 x i8]) align 8 %s, ptr addrspace(1) %out)
; CHECK-NEXT: call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) %out, ptr addrspace(4) %s, i64 16, i1 false)
; CHECK-NEXT: ret void
define amdgpu_kernel void @memcpy_from(ptr addrspace(4) byref([16 x i8]) align 8 %s, ptr addrspace(1) %out) {
  call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) %out, ptr addrspace(4) %s, i64 16, i1 false)
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @memcpy_from_written(
; CHECK: store i8 1, ptr addrspace(5) %s.copy, align 1
; CHECK-NEXT: call void @llvm.memcpy.p1.p5.i64(ptr addrspace(1) %out, ptr addrspace(5) %s.copy, i64 16, i1 false)
define amdgpu_kernel void @memcpy_from_written(ptr addrspace(4) byref([16 x i8]) align 8 %s, ptr addrspace(1) %out) {
  store i8 1, ptr addrspace(4) %s, align 1
  call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) %out, ptr addrspace(4) %s, i64 16, i1 false)
  ret void
}

; No `align` on the byref: 1 for the source, the type's ABI alignment for the copy.
; CHECK-LABEL: define amdgpu_kernel void @no_align(
; CHECK-NEXT: %s.copy = alloca { i32, i64 }, align 8, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 8 %s.copy, ptr addrspace(4) align 1 %s, i64 16, i1 false)
define amdgpu_kernel void @no_align(ptr addrspace(4) byref({ i32, i64 }) %s) {
  store i32 0, ptr addrspace(4) %s, align 1
  ret void
}

!0 = !{}

; Overloads left without callers by the rebuilt calls are deleted.
; CHECK-NOT: declare void @llvm.memset.p4.i64(
; CHECK-NOT: declare void @llvm.memmove.p4.p4.i64(
; CHECK-NOT: declare void @llvm.memcpy.p4.p1.i64(
