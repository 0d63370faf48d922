; Finding: at -O0, amdgpu-kernel-abi takes an indirect aggregate with two scalar leaves
; (here #[repr(C)] struct S0 { f0: *mut u32, f1: [i8; 1] }, which rustc passes as
; `ptr align 8`) plus the NEXT parameter for a split pair, and so misreads the rest.
;   #[repr(C)] pub struct S0 { pub f0: *mut u32, pub f1: [i8; 1] }
;   #[repr(C)] pub struct S1 { pub a: i8, pub b: u32 }
;   pub unsafe extern "gpu-kernel" fn k(a0: S0, a1: S1, out: *mut u32)
;   (rustc 1.95 -Copt-level=0 -Cdebuginfo=2; this file is its output)
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/abi-o0-indirect-taken-for-pair.ll
; Happens: `(ptr align 8 %a0, i8 %a1.0, i32 %a1.1, ptr %out)` becomes
; `(ptr addrspace(4) byref([16 x i8]) align 8 %a0, i32 %a1.1, ptr %out)`: %a1.0 is
; read from byte 8 of %a0, and a1's other half stays a lone i32 (a 4-byte hole in
; clang's layout, `struct S1` is 8 bytes). split_pair counts the two leaves of S0's
; flattened type and matches them against (ptr %a0, i8 %a1.0); rustc splits only a
; struct of exactly two scalar fields (S1), never one with an array or struct field.
; At -O3 the same source is `ptr dead_on_return ... dereferenceable(16) %a0` and is
; handled right.
; Should: `(byref([16 x i8]) align 8 %a0, byref([8 x i8]) align 4 %a1, ptr %out)`.
; Found by the debuginfo family (true descriptions, 2 cases in 4,000).
; Fixed: %a0 and %a1 are each an aggregate, byref with its own size;
; %a1.0 is read from byte 0 of %a1, not from %a0.
; EXPECT: output
; CHECK: define amdgpu_kernel void @k(ptr addrspace(4) {{.*}}byref([16 x i8]) align 8 {{.*}}%a0, ptr addrspace(4) {{.*}}byref([8 x i8]) align 4 {{.*}}%a1, ptr %out)
; CHECK-NEXT: start:
; CHECK-NOT: {{^}}define
; CHECK: load i8, ptr addrspace(4) %a1, align 4
source_filename = "z.rs"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__rustc_debug_gdb_scripts_section__ = internal unnamed_addr addrspace(1) constant [34 x i8] c"\01gdb_load_rust_pretty_printers.py\00", section ".debug_gdb_scripts", align 1

; Function Attrs: nounwind
define amdgpu_kernel void @k(ptr align 8 %a0, i8 %a1.0, i32 %a1.1, ptr %out) unnamed_addr #0 !dbg !6 {
start:
  %0 = alloca [1 x i8], align 1, addrspace(5)
  %x.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
    #dbg_declare(ptr %a0, !28, !DIExpression(), !33)
  %2 = alloca [8 x i8], align 4, addrspace(5)
  %a1.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  store i8 %a1.0, ptr %a1.dbg.spill, align 4
  %3 = getelementptr inbounds i8, ptr %a1.dbg.spill, i64 4
  store i32 %a1.1, ptr %3, align 4
    #dbg_declare(ptr %a1.dbg.spill, !29, !DIExpression(), !34)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !30, !DIExpression(), !35)
  %4 = getelementptr inbounds i8, ptr %a0, i64 8, !dbg !36
  %5 = getelementptr inbounds nuw i8, ptr %4, i64 0, !dbg !36
  %x = load i8, ptr %5, align 8, !dbg !36
  store i8 %x, ptr %x.dbg.spill, align 1, !dbg !36
    #dbg_declare(ptr %x.dbg.spill, !31, !DIExpression(), !37)
  store i8 %x, ptr %out, align 1, !dbg !38
  %6 = getelementptr inbounds i8, ptr %out, i64 1, !dbg !38
  store i8 %a1.0, ptr %6, align 1, !dbg !38
  ret void, !dbg !39
}

attributes #0 = { nounwind "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.dbg.cu = !{!4}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"Dwarf Version", i32 4}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!4 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !5, producer: "clang LLVM (rustc version 1.95.0 (59807616e 2026-04-14))", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!5 = !DIFile(filename: "z.rs/@/z.3be164b671c90993-cgu.0", directory: "/src")
!6 = distinct !DISubprogram(name: "k", scope: !8, file: !7, line: 35, type: !9, scopeLine: 35, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !22, retainedNodes: !27)
!7 = !DIFile(filename: "z.rs", directory: "/src", checksumkind: CSK_MD5, checksum: "477b073b7c99b961a3cf3cf2605296a2")
!8 = !DINamespace(name: "z", scope: null)
!9 = !DISubroutineType(types: !10)
!10 = !{null, !11, !23, !15}
!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "S0", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !13, templateParams: !22, identifier: "7ac817cfeae6a48c72715363b21b6f18")
!12 = !DIFile(filename: "<unknown>", directory: "")
!13 = !{!14, !17}
!14 = !DIDerivedType(tag: DW_TAG_member, name: "f0", scope: !11, file: !12, baseType: !15, size: 64, align: 64, flags: DIFlagPublic)
!15 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !16, size: 64, align: 64, dwarfAddressSpace: 0)
!16 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!17 = !DIDerivedType(tag: DW_TAG_member, name: "f1", scope: !11, file: !12, baseType: !18, size: 8, align: 8, offset: 64, flags: DIFlagPublic)
!18 = !DICompositeType(tag: DW_TAG_array_type, baseType: !19, size: 8, align: 8, elements: !20)
!19 = !DIBasicType(name: "i8", size: 8, encoding: DW_ATE_signed)
!20 = !{!21}
!21 = !DISubrange(count: 1, lowerBound: 0)
!22 = !{}
!23 = !DICompositeType(tag: DW_TAG_structure_type, name: "S1", scope: !8, file: !12, size: 64, align: 32, flags: DIFlagPublic, elements: !24, templateParams: !22, identifier: "2f8559a14eff70884d1cc0efec0c22b")
!24 = !{!25, !26}
!25 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !23, file: !12, baseType: !19, size: 8, align: 8, flags: DIFlagPublic)
!26 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !23, file: !12, baseType: !16, size: 32, align: 32, offset: 32, flags: DIFlagPublic)
!27 = !{!28, !29, !30, !31}
!28 = !DILocalVariable(name: "a0", arg: 1, scope: !6, file: !7, line: 35, type: !11)
!29 = !DILocalVariable(name: "a1", arg: 2, scope: !6, file: !7, line: 35, type: !23)
!30 = !DILocalVariable(name: "out", arg: 3, scope: !6, file: !7, line: 35, type: !15)
!31 = !DILocalVariable(name: "x", scope: !32, file: !7, line: 36, type: !19, align: 8)
!32 = distinct !DILexicalBlock(scope: !6, file: !7, line: 36, column: 14)
!33 = !DILocation(line: 35, column: 37, scope: !6)
!34 = !DILocation(line: 35, column: 45, scope: !6)
!35 = !DILocation(line: 35, column: 53, scope: !6)
!36 = !DILocation(line: 36, column: 19, scope: !6)
!37 = !DILocation(line: 36, column: 19, scope: !32)
!38 = !DILocation(line: 36, column: 31, scope: !32)
!39 = !DILocation(line: 37, column: 2, scope: !6)
