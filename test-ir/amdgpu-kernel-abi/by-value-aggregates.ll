; First-class aggregates passed by value (clang -O0 style, hand-written IR)
; become byref in addrspace(4); single-element wrappers become the element;
; scalars, vectors and pointers stay. The kernarg layout then equals clang's.
; RUN: %opt -passes=amdgpu-kernel-abi -S %s | %FileCheck %s
; RUN: %opt -passes=amdgpu-kernel-abi %s | %kernarg_layout - | %FileCheck --check-prefix=LAYOUT %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%Three = type { i32, i32, i32 }
%Pad = type { i8, double }
%One = type { float }
%Nest = type { { [1 x i64] } }

; Scalars, vectors and pointers are already in their final form: untouched.
; CHECK-LABEL: define amdgpu_kernel void @k_scalars(i32 %a, <4 x i32> %v, ptr addrspace(1) %p, double %d)
define amdgpu_kernel void @k_scalars(i32 %a, <4 x i32> %v, ptr addrspace(1) %p, double %d) {
  ret void
}

; Not a kernel: never rewritten.
; CHECK-LABEL: define void @helper(%Three %s)
define void @helper(%Three %s) {
  ret void
}

; Rewritten kernels are re-created, so they follow the untouched functions.
; CHECK-LABEL: define amdgpu_kernel void @k_struct(
; CHECK-SAME: ptr addrspace(4) noalias nofree noundef byref(%Three) align 4 captures(none) dereferenceable(12) %s, ptr addrspace(1) %out)
; CHECK-NEXT: entry:
; CHECK-NEXT: [[S:%.*]] = load %Three, ptr addrspace(4) %s, align 4
; CHECK-NEXT: %b = extractvalue %Three [[S]], 1
define amdgpu_kernel void @k_struct(%Three %s, ptr addrspace(1) %out) {
entry:
  %b = extractvalue %Three %s, 1
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @k_padded(
; CHECK-SAME: i8 %k, ptr addrspace(4) noalias nofree noundef byref(%Pad) align 8 captures(none) dereferenceable(16) %p)
; CHECK: load %Pad, ptr addrspace(4) %p, align 8
define amdgpu_kernel void @k_padded(i8 %k, %Pad %p) {
  %d = extractvalue %Pad %p, 1
  store double %d, ptr addrspace(1) null
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @k_array(
; CHECK-SAME: ptr addrspace(4) noalias nofree noundef byref([3 x i32]) align 4 captures(none) dereferenceable(12) %a)
; CHECK: load [3 x i32], ptr addrspace(4) %a, align 4
define amdgpu_kernel void @k_array([3 x i32] %a) {
  %x = extractvalue [3 x i32] %a, 2
  store i32 %x, ptr addrspace(1) null
  ret void
}

; Single-element wrappers (recursively) are passed as the element, like clang.
; CHECK-LABEL: define amdgpu_kernel void @k_wrappers(float %f, i64 %n, i32 %unused.is.not.special)
; CHECK-NEXT: [[F:%.*]] = insertvalue %One poison, float %f, 0
; CHECK-NEXT: [[N0:%.*]] = insertvalue [1 x i64] poison, i64 %n, 0
; CHECK-NEXT: [[N1:%.*]] = insertvalue { [1 x i64] } poison, [1 x i64] [[N0]], 0
; CHECK-NEXT: [[N2:%.*]] = insertvalue %Nest poison, { [1 x i64] } [[N1]], 0
define amdgpu_kernel void @k_wrappers(%One %f, %Nest %n, i32 %unused.is.not.special) {
  %x = extractvalue %One %f, 0
  %y = extractvalue %Nest %n, 0, 0, 0
  store float %x, ptr addrspace(1) null
  store i64 %y, ptr addrspace(1) null
  ret void
}

; LAYOUT: k_array: 0:12:by_value
; LAYOUT: k_padded: 0:1:by_value 8:16:by_value
; LAYOUT: k_scalars: 0:4:by_value 16:16:by_value 32:8:global_buffer 40:8:by_value
; LAYOUT: k_struct: 0:12:by_value 16:8:global_buffer
; LAYOUT: k_wrappers: 0:4:by_value 8:8:by_value 16:4:by_value
