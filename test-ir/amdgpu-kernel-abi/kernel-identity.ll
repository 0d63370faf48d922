; A kernel is found by its symbol, so amdgpu-kernel-abi clears unnamed_addr
; on every kernel (rustc marks all functions unnamed_addr, which lets its
; MergeFunctions make one of two identical kernels an alias, and an alias has
; no kernel descriptor). After the pass, MergeFunctions keeps both kernels
; and llc emits a descriptor for each. An alias of a kernel in the input (the
; merge already happened: rustc's .ll at -O3) becomes a kernel again, a copy
; of its aliasee under its own symbol, linkage and visibility, and is
; rewritten like any kernel; @llvm.used keeps naming it. An alias something
; else refers to (here a global holding its address), or whose signature is
; not its aliasee's (MergeFunctions takes ptr and i64 for one type; the
; alias's own debug info went with its body), stays, with a warning: the
; code object will lack it.
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
; A copy is planned from its aliasee's debug info or hint (the alias's own
; went with its body): MergeFunctions compares IR, not source types, so the
; parameters those decided, or that the IR leaves in doubt, get a warning.
; RUN: %opt -passes=amdgpu-kernel-abi -S %t.alias.ll -o %t.unmerged.ll 2>&1 | %FileCheck --check-prefix=ALIAS %s
; RUN: %FileCheck --check-prefix=UNMERGED %s < %t.unmerged.ll
; RUN: %llc -O0 -filetype=obj %t.unmerged.ll -o %t.unmerged.o
; RUN: llvm-readelf-22 --symbols %t.unmerged.o | %FileCheck --check-prefix=UNMERGED-KD %s
; A second run changes nothing (the remaining alias is warned about again:
; its aliasee has been rewritten).
; RUN: %opt -passes=amdgpu-kernel-abi -S %t.unmerged.ll -o %t.unmerged2.ll 2>&1 | %FileCheck --check-prefix=ALIAS2 %s
; RUN: grep -v '^; ModuleID' %t.unmerged.ll > %t.first.ll
; RUN: grep -v '^; ModuleID' %t.unmerged2.ll > %t.second.ll
; RUN: diff %t.first.ll %t.second.ll
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
; ALIAS: warning: amdgpu-kernel-abi: kernel 'crate::fill_d' is an alias of kernel 'crate::fill_a' (MergeFunctions merges identical unnamed_addr kernels) that something other than @llvm.used refers to; it stays an alias, which gets no kernel descriptor, so the code object lacks 'crate::fill_d' and offload-host refuses launches of it; run amdgpu-kernel-abi before MergeFunctions (at rustc's pipeline start) or compile with -Zmerge-functions=disabled
; ALIAS: warning: amdgpu-kernel-abi: kernel 'crate::fill_e' is an alias of kernel 'crate::fill_a' (MergeFunctions merges identical unnamed_addr kernels) whose signature is not that kernel's, so it cannot be made a copy of it; it stays an alias,
; ALIAS: warning: amdgpu-kernel-abi: kernel 'crate::fill_c' was an alias of the identical kernel 'crate::fill_a' (MergeFunctions) and is a copy of it again, planned from that kernel's source types (its debug info or hint; this kernel's own went with its body): parameter #0 (%s.0), parameter #1 (%s.1) are passed as those types say; if this kernel's differ, its argument layout is not clang's. Run amdgpu-kernel-abi before MergeFunctions (at rustc's pipeline start) or compile with -Zmerge-functions=disabled
; ALIAS: warning: amdgpu-kernel-abi: kernel 'crate::fill_f' was an alias of the identical kernel 'crate::fill_a'
; ALIAS-NOT: warning
; ALIAS2: warning: amdgpu-kernel-abi: kernel 'crate::fill_d' is an alias of kernel 'crate::fill_a' (MergeFunctions merges identical unnamed_addr kernels) whose signature is not that kernel's, so it cannot be made a copy of it; it stays an alias,
; ALIAS2: warning: amdgpu-kernel-abi: kernel 'crate::fill_e' is an alias of kernel 'crate::fill_a'
; ALIAS2-NOT: warning
; UNMERGED: @llvm.used = appending global [1 x ptr] [ptr @_RNvCs1_5crate6fill_c]
; UNMERGED: @llvm.compiler.used = appending global [1 x ptr] [ptr @_RNvCs1_5crate6fill_f]
; UNMERGED: @_RNvCs1_5crate6fill_d = unnamed_addr alias void (ptr, i64), ptr @_RNvCs1_5crate6fill_a
; UNMERGED-NOT: fill_c = {{.*}}alias
; UNMERGED-NOT: fill_f = {{.*}}alias
; UNMERGED: define amdgpu_kernel void @_RNvCs1_5crate6fill_a(ptr addrspace(4) {{.*}}byref([16 x i8]) align 8 {{.*}}%s) {
; UNMERGED: define hidden amdgpu_kernel void @_RNvCs1_5crate6fill_c(ptr addrspace(4) {{.*}}byref([16 x i8]) align 8 {{.*}}%s) {
; UNMERGED-NEXT: start:
; UNMERGED-NEXT: %0 = load ptr, ptr addrspace(4) %s, align 8
; UNMERGED-NEXT: %1 = getelementptr inbounds i8, ptr addrspace(4) %s, i64 8
; UNMERGED-NEXT: %2 = load i64, ptr addrspace(4) %1, align 8
; UNMERGED-NEXT: %w = getelementptr i8, ptr %0, i64 %2
; UNMERGED-KD-DAG: _RNvCs1_5crate6fill_a.kd
; UNMERGED-KD-DAG: _RNvCs1_5crate6fill_b.kd
; UNMERGED-KD-DAG: _RNvCs1_5crate6fill_c.kd
; UNMERGED-KD-DAG: _RNvCs1_5crate6fill_f.kd

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

;input-alias: @_RNvCs1_5crate6fill_c = hidden unnamed_addr alias void (ptr, i64), ptr @_RNvCs1_5crate6fill_a
;input-alias: @_RNvCs1_5crate6fill_d = unnamed_addr alias void (ptr, i64), ptr @_RNvCs1_5crate6fill_a
;input-alias: @_RNvCs1_5crate6fill_e = unnamed_addr alias void (i64, i64), ptr @_RNvCs1_5crate6fill_a
;input-alias: @table = global ptr @_RNvCs1_5crate6fill_d
;input-alias: @llvm.used = appending global [1 x ptr] [ptr @_RNvCs1_5crate6fill_c], section "llvm.metadata"
;input-alias: @_RNvCs1_5crate6fill_f = alias void (ptr, i64), ptr @_RNvCs1_5crate6fill_a
;input-alias: @llvm.compiler.used = appending global [1 x ptr] [ptr @_RNvCs1_5crate6fill_f], section "llvm.metadata"

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
