; Without debug info (or with -Cdebuginfo=1, which keeps no parameter types)
; rustc's split pairs and -O0 indirect aggregates look like scalars and
; pointers: amdgpu-kernel-abi leaves them, and for a module rustc made
; (`!llvm.ident`) warns once per kernel, naming the parameters in doubt and
; the fix. The same kernel from another producer is not warned about (clang
; and hand-written IR do not split aggregates); RUST_LOG still says it.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/rustc.ll -o %t.out.ll 2>&1 | %FileCheck %s
; RUN: %FileCheck --check-prefix=KEPT %s < %t.out.ll
; CHECK: warning: amdgpu-kernel-abi: kernel 'k' has no debug info: parameter #0 (%t.0), parameter #1 (%t.1), parameter #2 (%s) may be parts of an aggregate rustc split in two (PassMode::Pair) or a pointer to one (-O0), which the IR types alone cannot show; they are left as they are, so the kernel argument layout may not be clang's. Compile with -Cdebuginfo=2 (strip it later if you like) or describe them with an !offload.aggregate.args hint
; An indirect 8-byte aggregate the body only copies as an i64 may be a
; struct of one pointer (clang: the pointer, a global_buffer argument):
; CHECK: warning: amdgpu-kernel-abi: kernel 'bits' has no debug info: parameter #0 (%w) may be a struct of one pointer, which clang passes as the pointer (a global_buffer argument); it becomes 8 bytes by value, the same bytes, so the kernel argument layout may not be clang's. Compile with -Cdebuginfo=2 (strip it later if you like) or describe them with an !offload.aggregate.args hint
; CHECK-NOT: warning
; KEPT: define amdgpu_kernel void @k(i64 noundef %t.0, i32 noundef %t.1, ptr align 4 %s, ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 4 captures(none) dereferenceable(12) %r)
; A kernel whose parameters are all known is not warned about:
; KEPT: define amdgpu_kernel void @known(ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 4
; One the body loads as a pointer holds one: it becomes the pointer. One
; loaded as a double does not: 8 bytes by value, no doubt.
; KEPT: define amdgpu_kernel void @bits(ptr addrspace(4) noalias nofree noundef byref([8 x i8]) align 8 captures(none) dereferenceable(8) %w, ptr %out)
; KEPT: define amdgpu_kernel void @pointer(ptr %w, ptr %out)
; KEPT-NEXT: start:
; KEPT-NEXT: store ptr %w, ptr %out, align 8
; KEPT: define amdgpu_kernel void @double(ptr addrspace(4) noalias nofree noundef byref([8 x i8]) align 8 captures(none) dereferenceable(8) %w, ptr %out)
; RUN: %opt -passes=amdgpu-kernel-abi -disable-output %t/other.ll 2>&1 | count 0

;--- rustc.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i64 noundef %t.0, i32 noundef %t.1, ptr align 4 %s, ptr dead_on_return noalias noundef readonly align 4 dereferenceable(12) %r) {
  ret void
}
define amdgpu_kernel void @known(ptr dead_on_return noalias noundef readonly align 4 dereferenceable(12) %r) {
  ret void
}
define amdgpu_kernel void @bits(ptr dead_on_return noalias noundef readonly align 8 dereferenceable(8) %w, ptr %out) {
start:
  %v = load i64, ptr %w, align 8
  store i64 %v, ptr %out, align 8
  ret void
}
define amdgpu_kernel void @pointer(ptr dead_on_return noalias noundef readonly align 8 dereferenceable(8) %w, ptr %out) {
start:
  %v = load ptr, ptr %w, align 8
  store ptr %v, ptr %out, align 8
  ret void
}
define amdgpu_kernel void @double(ptr dead_on_return noalias noundef readonly align 8 dereferenceable(8) %w, ptr %out) {
start:
  %v = load double, ptr %w, align 8
  store double %v, ptr %out, align 8
  ret void
}
!llvm.ident = !{!0}
!0 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}

;--- other.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i64 noundef %t.0, i32 noundef %t.1, ptr align 4 %s) {
  ret void
}
!llvm.ident = !{!0}
!0 = !{!"clang version 22.1.8"}
