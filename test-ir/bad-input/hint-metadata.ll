; Malformed or contradictory !offload.aggregate.args hints (amdgpu-kernel-abi).
; Each is an error naming the pass, the kernel and the entry or parameter;
; opt exits non-zero and writes no output file. (Well-formed hints:
; amdgpu-kernel-abi/hint.ll.)
; RUN: rm -rf %t && split-file %s %t
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/range.ll -o %t.out 2>&1 | %FileCheck --check-prefix=RANGE %s
; RANGE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 1: names parameters 1..2 but the kernel has 2
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/deref.ll -o %t.out 2>&1 | %FileCheck --check-prefix=DEREF %s
; DEREF: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: size 12 disagrees with dereferenceable(16)
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/shape.ll -o %t.out 2>&1 | %FileCheck --check-prefix=SHAPE %s
; SHAPE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0 is malformed: expected !{i32 first, i32 count, i64 size, i64 align}
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/overlap.ll -o %t.out 2>&1 | %FileCheck --check-prefix=OVERLAP %s
; OVERLAP: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 1: overlaps another entry
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/duplicate.ll -o %t.out 2>&1 | %FileCheck --check-prefix=DUPLICATE %s
; DUPLICATE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: overlaps another entry
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/zero-count.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ZERO-COUNT %s
; ZERO-COUNT: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: names no parameters (count is 0)
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/zero-size.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ZERO-SIZE %s
; ZERO-SIZE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: size is 0
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/align-3.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ALIGN-3 %s
; ALIGN-3: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: alignment 3 is not a power of two
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/align-0.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ALIGN-0 %s
; ALIGN-0: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: alignment 0 is not a power of two
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/align-huge.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ALIGN-HUGE %s
; ALIGN-HUGE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: alignment 8589934592 is larger than LLVM allows (4294967296)
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/first-wraps.ll -o %t.out 2>&1 | %FileCheck --check-prefix=FIRST-WRAPS %s
; FIRST-WRAPS: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0: first 4294967296 is not a parameter index or count (expected a non-negative i32)
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/count-wraps.ll -o %t.out 2>&1 | %FileCheck --check-prefix=COUNT-WRAPS %s
; COUNT-WRAPS: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0: count 4294967298 is not a parameter index or count (expected a non-negative i32)
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/first-negative.ll -o %t.out 2>&1 | %FileCheck --check-prefix=FIRST-NEGATIVE %s
; FIRST-NEGATIVE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0: first 4294967295 is not a parameter index or count (expected a non-negative i32)
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/float-field.ll -o %t.out 2>&1 | %FileCheck --check-prefix=FLOAT-FIELD %s
; FLOAT-FIELD: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0 is malformed: expected !{i32 first, i32 count, i64 size, i64 align}
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/five-fields.ll -o %t.out 2>&1 | %FileCheck --check-prefix=FIVE-FIELDS %s
; FIVE-FIELDS: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0 is malformed: expected !{i32 first, i32 count, i64 size, i64 align}
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/null-entry.ll -o %t.out 2>&1 | %FileCheck --check-prefix=NULL-ENTRY %s
; NULL-ENTRY: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 1 is malformed: expected !{i32 first, i32 count, i64 size, i64 align}
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/entries-not-nodes.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ENTRIES-NOT-NODES %s
; ENTRIES-NOT-NODES: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0 is malformed: expected !{i32 first, i32 count, i64 size, i64 align}
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/aggregate-param.ll -o %t.out 2>&1 | %FileCheck --check-prefix=AGGREGATE-PARAM %s
; AGGREGATE-PARAM: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: parameter 0 is already an aggregate or byref
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/byref-param.ll -o %t.out 2>&1 | %FileCheck --check-prefix=BYREF-PARAM %s
; BYREF-PARAM: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: parameter 0 is already an aggregate or byref
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/scalable-param.ll -o %t.out 2>&1 | %FileCheck --check-prefix=SCALABLE-PARAM %s
; SCALABLE-PARAM: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: parameter 0 has type '<vscale x 2 x i32>', which has no fixed size
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/fields-too-big.ll -o %t.out 2>&1 | %FileCheck --check-prefix=FIELDS-TOO-BIG %s
; FIELDS-TOO-BIG: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry for parameter 0: its fields need 16 bytes but the size is 12
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/size-4gib.ll -o %t.out 2>&1 | %FileCheck --check-prefix=SIZE-4GIB %s
; SIZE-4GIB: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%a) of type 'ptr': a 4294967296-byte aggregate is too large for a byref kernel argument (at most 4294967295 bytes)
;
; A hint with no entries (`!{}`; a lone `!{null}` reads the same through the C
; API) describes no aggregates: documented skip, logged, module unchanged.
; RUN: %opt -S %t/empty.ll -o %t.plain.ll
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=amdgpu-kernel-abi -S %t/empty.ll -o %t.out.ll 2>&1 | %FileCheck --check-prefix=EMPTY %s
; RUN: diff %t.plain.ll %t.out.ll
; EMPTY: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args has no entries: no split or indirect aggregates; IR types alone decide

;
; A field wider than 64 bits would be truncated (2^64 -> 0): malformed.
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/wide-field.ll -o %t.out 2>&1 | %FileCheck --check-prefix=WIDE %s
; WIDE: error: amdgpu-kernel-abi: kernel 'k': !offload.aggregate.args entry 0 is malformed: expected !{i32 first, i32 count, i64 size, i64 align}

;--- overlap.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i64 %a, i32 %b, i32 %c) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1, !2}
!1 = !{i32 0, i32 2, i64 16, i64 8}
!2 = !{i32 1, i32 2, i64 8, i64 4}

;--- duplicate.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1, !1}
!1 = !{i32 0, i32 1, i64 16, i64 4}

;--- zero-count.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i64 %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 0, i64 16, i64 8}

;--- zero-size.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 0, i64 8}

;--- align-3.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 12, i64 3}

;--- align-0.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 12, i64 0}

;--- align-huge.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
; Before: a byref align 2^33 the verifier rejected (opt aborted).
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 16, i64 8589934592}

;--- first-wraps.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
; Before: truncated to 0 and applied to parameter 0.
!0 = !{!1}
!1 = !{i64 4294967296, i32 1, i64 12, i64 4}

;--- count-wraps.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i32 %a, i32 %b) !offload.aggregate.args !0 {
  ret void
}
; Before: truncated to 2 and applied.
!0 = !{!1}
!1 = !{i32 0, i64 4294967298, i64 12, i64 4}

;--- first-negative.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i32 %a, i32 %b) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 -1, i32 1, i64 12, i64 4}

;--- float-field.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, float 1.0, i64 4}

;--- five-fields.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 16, i64 4, i64 5}

;--- null-entry.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a, i32 %b) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1, null}
!1 = !{i32 0, i32 1, i64 16, i64 4}

;--- entries-not-nodes.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
; The entry itself instead of a list of entries.
!0 = !{i32 0, i32 1, i64 16, i64 4}

;--- aggregate-param.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k({ i32, i32 } %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 8, i64 4}

;--- byref-param.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(4) byref({ i32, i32 }) align 4 %a) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 8, i64 4}

;--- scalable-param.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(<vscale x 2 x i32> %t, i32 %a) !offload.aggregate.args !0 {
  ret void
}
; Before: a fatal TypeSize error (abort).
!0 = !{!1}
!1 = !{i32 0, i32 2, i64 8, i64 4}

;--- fields-too-big.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i64 %a, i64 %b) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 2, i64 12, i64 8}

;--- size-4gib.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr %a) !offload.aggregate.args !0 {
  ret void
}
; Before: byref([0 x i8]) dereferenceable(4294967296) (the size truncated).
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 4294967296, i64 4}

;--- empty.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i32 %a, ptr %p) !offload.aggregate.args !0 {
  ret void
}
!0 = !{}

;--- wide-field.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i64 %a, i32 %b) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i128 18446744073709551616, i32 2, i64 16, i64 8}

;--- range.ll
; A hint naming a parameter the kernel does not have.
define amdgpu_kernel void @k(i32 %a, i32 %b) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 1, i32 2, i64 8, i64 4}

;--- deref.ll
; A hint whose size contradicts the pointer's dereferenceable bytes.
define amdgpu_kernel void @k(ptr dereferenceable(16) %s) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 12, i64 4}

;--- shape.ll
; A hint entry that is not four integers.
define amdgpu_kernel void @k(ptr %s) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{!"size", i64 12}
