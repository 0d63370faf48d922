; Regression: a use-after-free in amdgpu-kernel-abi (opt died with SIGSEGV,
; or heap corruption went unnoticed; valgrind showed an invalid read in the
; load of a pair piece). rustc -O3 puts the addrspacecast of its last pointer
; parameter first in the entry block; here that is %w, a one-u32 #[repr(C)]
; struct passed indirectly, which the pass turns into the scalar and whose
; cast it erases. The entry builder sat before that cast, and the pieces of
; the pair %t that follows were built there after it was erased. Dead
; instructions are now erased only after every parameter is rebound.
;
; rustc 1.95 -Copt-level=3 -Cdebuginfo=2 of
;   #[repr(C)] pub struct W { a: u32 }  #[repr(C)] pub struct T { a: u64, b: u32 }
;   pub extern "gpu-kernel" fn k(out: *mut u32, o2: *mut u64, o3: *mut u32, w: W, t: T)
;   { *out = w.a; *o2 = t.a; *o3 = t.b; }
;
; RUN: %opt -passes=amdgpu-kernel-abi -S %s | %FileCheck %s
; REQUIRES: valgrind
; RUN: valgrind -q --error-exitcode=9 %opt -passes=amdgpu-kernel-abi -disable-output %s
;
; CHECK: define amdgpu_kernel void @k(ptr noundef writeonly captures(none) %out, ptr noundef writeonly captures(none) %o2, ptr noundef writeonly captures(none) %o3, i32 %w, ptr addrspace(4) noalias nofree noundef byref([16 x i8]) align 8 captures(none) dereferenceable(16) %t)
; CHECK-NEXT: start:
; CHECK-NEXT:   %0 = load i64, ptr addrspace(4) %t, align 8
; CHECK-NEXT:   %1 = getelementptr inbounds i8, ptr addrspace(4) %t, i64 8
; CHECK-NEXT:   %2 = load i32, ptr addrspace(4) %1, align 8
; CHECK:        store i32 %w, ptr addrspace(1) %5, align 4
; CHECK-NEXT:   store i64 %0, ptr addrspace(1) %4, align 8
; CHECK-NEXT:   store i32 %2, ptr addrspace(1) %3, align 4

; ModuleID = 'k.79f6e3749a3a7320-cgu.0'
source_filename = "k.79f6e3749a3a7320-cgu.0"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k(ptr noundef writeonly captures(none) %out, ptr noundef writeonly captures(none) %o2, ptr noundef writeonly captures(none) %o3, ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %w, i64 noundef %t.0, i32 noundef %t.1) unnamed_addr #0 !dbg !6 {
start:
  %0 = addrspacecast ptr %w to ptr addrspace(1)
  %1 = addrspacecast ptr %o3 to ptr addrspace(1)
  %2 = addrspacecast ptr %o2 to ptr addrspace(1)
  %3 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !25, !DIExpression(), !30)
    #dbg_declare(ptr undef, !26, !DIExpression(), !31)
    #dbg_declare(ptr undef, !27, !DIExpression(), !32)
    #dbg_declare(ptr %w, !28, !DIExpression(), !33)
    #dbg_declare(ptr undef, !29, !DIExpression(), !34)
  %_6 = load i32, ptr addrspace(1) %0, align 4, !dbg !35, !noundef !19, !amdgpu.noclobber !19
  store i32 %_6, ptr addrspace(1) %3, align 4, !dbg !36
  store i64 %t.0, ptr addrspace(1) %2, align 8, !dbg !37
  store i32 %t.1, ptr addrspace(1) %1, align 4, !dbg !38
  ret void, !dbg !39
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "uniform-work-group-size"="false" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.dbg.cu = !{!4}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"Dwarf Version", i32 4}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!4 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !5, producer: "clang LLVM (rustc version 1.95.0 (59807616e 2026-04-14))", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!5 = !DIFile(filename: "k.rs/@/k.79f6e3749a3a7320-cgu.0", directory: "/")
!6 = distinct !DISubprogram(name: "k", scope: !8, file: !7, line: 19, type: !9, scopeLine: 19, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !19, retainedNodes: !24)
!7 = !DIFile(filename: "k.rs", directory: "/", checksumkind: CSK_MD5, checksum: "beb53e70dd1e3ea08fedc643af7ef277")
!8 = !DINamespace(name: "k", scope: null)
!9 = !DISubroutineType(types: !10)
!10 = !{null, !11, !13, !11, !15, !20}
!11 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !12, size: 64, align: 64, dwarfAddressSpace: 0)
!12 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u64", baseType: !14, size: 64, align: 64, dwarfAddressSpace: 0)
!14 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!15 = !DICompositeType(tag: DW_TAG_structure_type, name: "W", scope: !8, file: !16, size: 32, align: 32, flags: DIFlagPublic, elements: !17, templateParams: !19, identifier: "856ed1737d674fc4a36c90d9cbb7d2e1")
!16 = !DIFile(filename: "<unknown>", directory: "")
!17 = !{!18}
!18 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !15, file: !16, baseType: !12, size: 32, align: 32, flags: DIFlagPrivate)
!19 = !{}
!20 = !DICompositeType(tag: DW_TAG_structure_type, name: "T", scope: !8, file: !16, size: 128, align: 64, flags: DIFlagPublic, elements: !21, templateParams: !19, identifier: "90442672937e25b451ab0aac3d11e24e")
!21 = !{!22, !23}
!22 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !20, file: !16, baseType: !14, size: 64, align: 64, flags: DIFlagPrivate)
!23 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !20, file: !16, baseType: !12, size: 32, align: 32, offset: 64, flags: DIFlagPrivate)
!24 = !{!25, !26, !27, !28, !29}
!25 = !DILocalVariable(name: "out", arg: 1, scope: !6, file: !7, line: 19, type: !11)
!26 = !DILocalVariable(name: "o2", arg: 2, scope: !6, file: !7, line: 19, type: !13)
!27 = !DILocalVariable(name: "o3", arg: 3, scope: !6, file: !7, line: 19, type: !11)
!28 = !DILocalVariable(name: "w", arg: 4, scope: !6, file: !7, line: 19, type: !15)
!29 = !DILocalVariable(name: "t", arg: 5, scope: !6, file: !7, line: 19, type: !20)
!30 = !DILocation(line: 19, column: 30, scope: !6)
!31 = !DILocation(line: 19, column: 45, scope: !6)
!32 = !DILocation(line: 19, column: 59, scope: !6)
!33 = !DILocation(line: 19, column: 73, scope: !6)
!34 = !DILocation(line: 19, column: 79, scope: !6)
!35 = !DILocation(line: 20, column: 21, scope: !6)
!36 = !DILocation(line: 20, column: 14, scope: !6)
!37 = !DILocation(line: 20, column: 26, scope: !6)
!38 = !DILocation(line: 20, column: 37, scope: !6)
!39 = !DILocation(line: 21, column: 2, scope: !6)
