; Debug info is untrusted input. amdgpu-kernel-abi reads the kernel's
; DISubprogram through LLVM's DI accessors, with every walk bounded; debug
; info that contradicts itself or the IR is ignored with a warning naming the
; kernel (the IR types alone then decide), and never hangs the pass, emits IR
; that does not re-parse, or reads past the argument. Each input is an -O0
; rustc-style kernel `@k(ptr align 4 %s, ptr %out)` whose first source
; parameter's debug type varies.
; RUN: rm -rf %t && split-file %s %t
;
; Sound debug info: a 12-byte struct behind a bare `ptr align 4` becomes byref.
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/good.ll | %FileCheck --check-prefix=GOOD %s
; GOOD: define amdgpu_kernel void @k(ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s, ptr %out)
;
; A typedef of itself, and a const/volatile cycle: bounded, not an endless loop.
; RUN: timeout 20 %opt -passes=amdgpu-kernel-abi -S %t/cycle.ll -o %t.cycle.ll 2>&1 | %FileCheck --check-prefix=CYCLE %s
; RUN: %opt -passes=verify -disable-output %t.cycle.ll
; RUN: %FileCheck --check-prefix=KEPT %s < %t.cycle.ll
; CYCLE: warning: amdgpu-kernel-abi: kernel 'k': debug info of source parameter 0: more than 64 typedefs or qualifiers in a row (a cycle?); the debug info is ignored and the IR types alone decide the kernel's parameters
; RUN: timeout 20 %opt -passes=amdgpu-kernel-abi -S %t/qualifier-cycle.ll -o %t.qual.ll 2>&1 | %FileCheck --check-prefix=QUAL %s
; RUN: %FileCheck --check-prefix=KEPT %s < %t.qual.ll
; QUAL: warning: amdgpu-kernel-abi: kernel 'k': debug info of source parameter 0: more than 64 typedefs
; KEPT: define amdgpu_kernel void @k(ptr align 4 %s, ptr %out)
;
; An alignment that is not a power of two never becomes `align 3` in the output:
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/align-3.ll -o %t.align.ll 2>&1 | %FileCheck --check-prefix=ALIGN %s
; RUN: %opt -passes=verify -disable-output %t.align.ll
; RUN: %FileCheck --check-prefix=KEPT %s < %t.align.ll
; ALIGN: warning: amdgpu-kernel-abi: kernel 'k': debug info of source parameter 0: alignment 3 is not a power of two; the debug info is ignored
;
; A member past the end of its struct: no load past the byref argument.
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/past-end.ll -o %t.past.ll 2>&1 | %FileCheck --check-prefix=PAST %s
; RUN: %FileCheck --check-prefix=KEPT %s < %t.past.ll
; PAST: warning: amdgpu-kernel-abi: kernel 'k': debug info of source parameter 0: a 4-byte field at offset 8 runs past the 8-byte parameter; the debug info is ignored
;
; An array of 2^30 empty structs and one of 2^45 u32s: bounded walks, and a
; size no kernarg segment holds is an error naming the parameter.
; RUN: %no-output-file %t.out not timeout 20 %opt -passes=amdgpu-kernel-abi -S %t/empty-elements.ll -o %t.out 2>&1 | %FileCheck --check-prefix=EMPTY %s
; EMPTY: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%s) of type 'ptr': a 4294967296-byte aggregate is too large for a byref kernel argument (at most 4294967295 bytes)
; RUN: %no-output-file %t.out not timeout 20 %opt -passes=amdgpu-kernel-abi -S %t/huge-array.ll -o %t.out 2>&1 | %FileCheck --check-prefix=HUGE %s
; HUGE: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%s) of type 'ptr': a 140737488355328-byte aggregate is too large
;
; Debug info that disagrees with the IR: a {u64, u32} pair whose IR pieces
; are two i32s, and a 16-byte struct behind `dereferenceable(12)`. The IR
; wins: the pieces stay scalars, the pointer becomes a 12-byte byref.
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/pair-width.ll -o %t.pair.ll 2>&1 | %FileCheck --check-prefix=PAIR %s
; RUN: %FileCheck --check-prefix=PAIR-KEPT %s < %t.pair.ll
; PAIR: warning: amdgpu-kernel-abi: kernel 'k': its debug info lists 2 source parameters that do not match its 3 IR parameters (sizes, kinds or count disagree); the debug info is ignored and the IR types alone decide the kernel's parameters
; PAIR-KEPT: define amdgpu_kernel void @k(i32 %t.0, i32 %t.1, ptr %out)
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/dereferenceable.ll -o %t.deref.ll 2>&1 | %FileCheck --check-prefix=DEREF %s
; RUN: %FileCheck --check-prefix=DEREF-IR %s < %t.deref.ll
; DEREF: warning: amdgpu-kernel-abi: kernel 'k': its debug info lists 2 source parameters that do not match its 2 IR parameters
; DEREF-IR: define amdgpu_kernel void @k(ptr addrspace(4) noalias nofree noundef byref([12 x i8]) align 8 captures(none) dereferenceable(12) %t, ptr %out)
;
; An existing byref is held to the debug info as `dereferenceable` is, so the
; pass is a fixed point: run again on its own output (a 12-byte byref, the
; 16-byte source), it warns again and changes nothing.
; RUN: %opt -passes=amdgpu-kernel-abi -S %t.deref.ll -o %t.deref2.ll 2>&1 | %FileCheck --check-prefix=DEREF %s
; RUN: %FileCheck --check-prefix=DEREF-IR %s < %t.deref2.ll

;--- good.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", size: 96, align: 32, elements: !11)
!11 = !{!12, !13, !14}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !21, size: 32, offset: 0)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", baseType: !21, size: 32, offset: 32)
!14 = !DIDerivedType(tag: DW_TAG_member, name: "c", baseType: !21, size: 32, offset: 64)

;--- cycle.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DIDerivedType(tag: DW_TAG_typedef, name: "T", baseType: !10)

;--- qualifier-cycle.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !11)
!11 = !DIDerivedType(tag: DW_TAG_volatile_type, baseType: !10)

;--- align-3.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", size: 96, align: 24, elements: !11)
!11 = !{!12}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !21, size: 32, offset: 0)

;--- past-end.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", size: 64, align: 32, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !21, size: 32, offset: 0)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", baseType: !21, size: 32, offset: 64)

;--- empty-elements.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, size: 34359738368, align: 32, elements: !13)
!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "E", size: 32, align: 32, elements: !12)
!12 = !{}
!13 = !{!14}
!14 = !DISubrange(count: 1073741824)

;--- huge-array.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s, ptr %out) !dbg !5 {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !21, size: 1125899906842624, align: 32, elements: !13)
!13 = !{!14}
!14 = !DISubrange(count: 35184372088832)

;--- pair-width.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Debug info says {u64, u32} (a pair of 8 + 4 bytes); the IR has two i32s.
define amdgpu_kernel void @k(i32 %t.0, i32 %t.1, ptr %out) !dbg !5 {
  store i32 %t.1, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "T", size: 128, align: 64, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !22, size: 64, offset: 0)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", baseType: !21, size: 32, offset: 64)
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!22 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)

;--- dereferenceable.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Debug info says a 16-byte T; the IR says dereferenceable(12).
define amdgpu_kernel void @k(ptr dead_on_return noalias align 8 dereferenceable(12) %t, ptr %out) !dbg !5 {
  %v = load i32, ptr %t, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10, !20}
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "T", size: 128, align: 64, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", baseType: !22, size: 64, offset: 0)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", baseType: !21, size: 32, offset: 64)
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !21, size: 64, align: 64)
!21 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!22 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
