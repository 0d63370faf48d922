; The byref form clang 22 emits for a HIP/OpenCL kernel's struct argument
; (`ptr addrspace(4) noundef byref(%struct.S) align 4`): read-only gets
; readonly; written gets a copy of %struct.S (alloc size 12).
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s

target triple = "amdgcn-amd-amdhsa"

%struct.S = type { i32, i32, i32 }

; CHECK-LABEL: define amdgpu_kernel void @reads(ptr addrspace(4) noundef readonly byref(%struct.S) align 4 %s, ptr addrspace(1) noundef %out)
; CHECK-NOT: alloca
; CHECK: ret void
define amdgpu_kernel void @reads(ptr addrspace(4) noundef byref(%struct.S) align 4 %s, ptr addrspace(1) noundef %out) {
entry:
  %b = getelementptr inbounds nuw i8, ptr addrspace(4) %s, i64 4
  %v = load i32, ptr addrspace(4) %b, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; What clang emits at -O0 for `s.b += 1`, with its own copy removed by hand:
; accesses through the generic cast. The copy comes after the existing
; allocas; the chain moves to addrspace(5).
; CHECK-LABEL: define amdgpu_kernel void @writes(ptr addrspace(4) noundef readonly byref(%struct.S) align 4 %s, ptr addrspace(1) noundef %out)
; CHECK-NEXT: entry:
; CHECK-NEXT: %out.addr = alloca ptr addrspace(1), align 8, addrspace(5)
; CHECK-NEXT: %s.copy = alloca %struct.S, align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 12, i1 false)
; CHECK-NEXT: store ptr addrspace(1) %out, ptr addrspace(5) %out.addr, align 8
; CHECK-NEXT: %b = getelementptr inbounds nuw %struct.S, ptr addrspace(5) %s.copy, i32 0, i32 1
; CHECK-NEXT: %v = load i32, ptr addrspace(5) %b, align 4
; CHECK-NEXT: %inc = add nsw i32 %v, 1
; CHECK-NEXT: store i32 %inc, ptr addrspace(5) %b, align 4
define amdgpu_kernel void @writes(ptr addrspace(4) noundef byref(%struct.S) align 4 %s, ptr addrspace(1) noundef %out) {
entry:
  %out.addr = alloca ptr addrspace(1), align 8, addrspace(5)
  %g = addrspacecast ptr addrspace(4) %s to ptr
  store ptr addrspace(1) %out, ptr addrspace(5) %out.addr, align 8
  %b = getelementptr inbounds nuw %struct.S, ptr %g, i32 0, i32 1
  %v = load i32, ptr %b, align 4
  %inc = add nsw i32 %v, 1
  store i32 %inc, ptr %b, align 4
  %o = load ptr addrspace(1), ptr addrspace(5) %out.addr, align 8
  store i32 %inc, ptr addrspace(1) %o, align 4
  ret void
}
