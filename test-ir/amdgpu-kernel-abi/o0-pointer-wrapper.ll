; A struct of one pointer behind a bare `ptr align 8` (rustc -O0): a
; #[repr(C)] one is passed indirectly, a repr(Rust)/repr(transparent) one as
; the pointer itself. How the variable is declared tells them apart: @direct's
; #dbg_declare names an alloca the parameter is stored to (the pointer
; itself), @indirect's names the parameter (its address). Where neither is
; seen and the struct and its pointee have the same alignment, the pointer is
; kept with a warning (test-ir/rustc/pointer-wrappers.rs runs rustc).
; RUN: %opt -passes=amdgpu-kernel-abi -S %s -o %t.ll 2>&1 | %FileCheck --check-prefix=WARN %s
; RUN: %FileCheck %s < %t.ll
; CHECK: define amdgpu_kernel void @direct(ptr align 8 %w)
; CHECK: define amdgpu_kernel void @indirect(ptr %w)
; CHECK-NEXT: start:
; The i64 load of the pointer field becomes the pointer as an integer; the
; struct's address no longer exists, so its #dbg_declare describes poison.
; CHECK-NEXT: %0 = ptrtoint ptr %w to i64
; CHECK-NEXT: #dbg_declare(ptr poison
; CHECK-NEXT: ret void
; CHECK: define amdgpu_kernel void @unknown(ptr align 8 %w)
; WARN-NOT: 'direct'
; WARN-NOT: 'indirect'
; WARN: warning: amdgpu-kernel-abi: kernel 'unknown', parameter #0 (%w): a struct of one pointer at -O0: rustc passes a #[repr(C)] one as a pointer to the struct, a repr(Rust) or repr(transparent) one as the pointer itself, and here the IR cannot tell which (the struct and what it points at have the same alignment); it is taken as the pointer itself. If it is #[repr(C)], compile with -Copt-level=1 or more, or describe it with an !offload.aggregate.args hint

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @direct(ptr align 8 %w) !dbg !5 {
start:
  %w.dbg.spill = alloca [8 x i8], align 8, addrspace(5)
  %s = addrspacecast ptr addrspace(5) %w.dbg.spill to ptr
  store ptr %w, ptr %s, align 8
    #dbg_declare(ptr %s, !30, !DIExpression(), !40)
  ret void
}

define amdgpu_kernel void @indirect(ptr align 8 %w) !dbg !15 {
start:
    #dbg_declare(ptr %w, !31, !DIExpression(), !41)
  %v = load i64, ptr %w, align 8
  ret void
}

define amdgpu_kernel void @unknown(ptr align 8 %w) !dbg !25 {
start:
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.rs", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "direct", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!15 = distinct !DISubprogram(name: "indirect", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!25 = distinct !DISubprogram(name: "unknown", scope: !1, file: !1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !10}
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "W", size: 64, align: 64, elements: !11)
!11 = !{!12}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "r", baseType: !13, size: 64, align: 64)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&u64", baseType: !14, size: 64, align: 64)
!14 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!30 = !DILocalVariable(name: "w", arg: 1, scope: !5, file: !1, type: !10)
!31 = !DILocalVariable(name: "w", arg: 1, scope: !15, file: !1, type: !10)
!40 = !DILocation(line: 1, scope: !5)
!41 = !DILocation(line: 1, scope: !15)
