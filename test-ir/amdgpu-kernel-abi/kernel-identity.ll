; A kernel is found by its symbol, so amdgpu-kernel-abi clears unnamed_addr
; on every kernel (rustc marks all functions unnamed_addr, which lets its
; MergeFunctions make one of two identical kernels an alias, and an alias has
; no kernel descriptor). After the pass, MergeFunctions keeps both kernels
; and llc emits a descriptor for each. An alias of a kernel in the input (the
; merge already happened) gets a warning: the code object will lack it.
;
; RUN: %opt -passes=amdgpu-kernel-abi -S %s -o %t.ll
; RUN: %FileCheck --check-prefix=ABI %s < %t.ll
; RUN: %opt -passes=mergefunc -mergefunc-use-aliases -S %t.ll | %FileCheck --check-prefix=MERGED %s
; RUN: %opt -passes=mergefunc -mergefunc-use-aliases -S %t.ll | %llc -O0 -filetype=obj -o %t.o
; RUN: llvm-readelf-22 --symbols %t.o | %FileCheck --check-prefix=DESCRIPTORS %s
;
; The rewritten kernels are identical: with unnamed_addr back, MergeFunctions
; makes the second an alias (what clearing it prevents).
; RUN: sed -e 's/%%s) {/%%s) unnamed_addr {/' %t.ll | %opt -passes=mergefunc -mergefunc-use-aliases -S | %FileCheck --check-prefix=WITHOUT %s
;
; RUN: sed -e 's/^;input-alias: //' %s > %t.alias.ll
; RUN: %opt -passes=amdgpu-kernel-abi -S %t.alias.ll -o /dev/null 2>&1 | %FileCheck --check-prefix=ALIAS %s
;
; ABI: define amdgpu_kernel void @_RNvCs1_5crate6fill_a(ptr addrspace(4) {{.*}}byref([16 x i8]) align 8 {{.*}}%s) {
; ABI: define amdgpu_kernel void @_RNvCs1_5crate6fill_b(ptr addrspace(4) {{.*}}byref([16 x i8]) align 8 {{.*}}%s) {
; ABI-NOT: unnamed_addr
; MERGED-NOT: alias
; MERGED: define amdgpu_kernel void @_RNvCs1_5crate6fill_a(
; MERGED: define amdgpu_kernel void @_RNvCs1_5crate6fill_b(
; DESCRIPTORS-DAG: _RNvCs1_5crate6fill_a.kd
; DESCRIPTORS-DAG: _RNvCs1_5crate6fill_b.kd
; WITHOUT: @_RNvCs1_5crate6fill_b = unnamed_addr alias void (ptr addrspace(4)), ptr @_RNvCs1_5crate6fill_a
; ALIAS: warning: amdgpu-kernel-abi: kernel 'crate::fill_c' is an alias of kernel 'crate::fill_a' (MergeFunctions merges identical unnamed_addr kernels): an alias gets no kernel descriptor, so the code object lacks 'crate::fill_c' and offload-host refuses launches of it; run amdgpu-kernel-abi before MergeFunctions (at rustc's pipeline start, where it keeps kernels from being merged) or compile with -Zmerge-functions=disabled

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

;input-alias: @_RNvCs1_5crate6fill_c = unnamed_addr alias void (ptr, i64), ptr @_RNvCs1_5crate6fill_a

; Two slices (`&mut [u16]`, `&mut [u32]` in Rust) split into (ptr, i64) pairs;
; the body is the same, only the pointer's align differs. The rewrite gives
; both `byref([16 x i8]) align 8`: identical kernels.
define amdgpu_kernel void @_RNvCs1_5crate6fill_a(ptr align 2 %s.0, i64 %s.1) unnamed_addr !offload.aggregate.args !0 {
start:
  %w = getelementptr i8, ptr %s.0, i64 %s.1
  store volatile i64 %s.1, ptr %s.0, align 8
  store volatile ptr %w, ptr %s.0, align 8
  store volatile i64 %s.1, ptr %w, align 8
  ret void
}

define amdgpu_kernel void @_RNvCs1_5crate6fill_b(ptr align 4 %s.0, i64 %s.1) unnamed_addr !offload.aggregate.args !0 {
start:
  %w = getelementptr i8, ptr %s.0, i64 %s.1
  store volatile i64 %s.1, ptr %s.0, align 8
  store volatile ptr %w, ptr %s.0, align 8
  store volatile i64 %s.1, ptr %w, align 8
  ret void
}

!0 = !{!1}
!1 = !{i32 0, i32 2, i64 16, i64 8}
