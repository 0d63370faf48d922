; Finding: amdgpu-kernel-abi writes `align 3` (from a DI alignment of 24 bits) into the
; byref attribute: the output does not parse again.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/di-align-not-power-of-two.ll -o out.ll
;   opt-22 -passes=verify -disable-output out.ll
; Happens: out.ll has `byref([16 x i8]) align 3`; the second opt says "error: alignment is
; not a power of two". (With align: 56, i.e. 7 bytes, the pass instead fails with
; "error: amdgpu-kernel-abi: kernel 'k': Alignment Error: 7 is not a power of two ...",
; which names no parameter.)
; Should: never emit an alignment that is not a power of two: an error naming kernel 'k'
; and parameter #0 (a split pair: #0 and #1), or the alignment the IR proves.
; Fixed: a warning naming kernel and source parameter; the debug info is ignored, the
; IR decides (the two pieces stay as they are), and no `align 3` reaches the output.
; EXPECT: output
; STDERR: warning: amdgpu-kernel-abi: kernel 'k': debug info of source parameter 0: alignment 3 is not a power of two; the debug info is ignored and the IR types alone decide the kernel's parameters
; CHECK: define amdgpu_kernel void @k(i64 %t.0, i32 %t.1, ptr %out)
; CHECK-NOT: align 3
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(i64 %t.0, i32 %t.1, ptr %out) !dbg !4 {
  store i64 %t.0, ptr %out, align 8
  %p = getelementptr i8, ptr %out, i64 8
  store i32 %t.1, ptr %p, align 4
  ret void
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !2, producer: "fuzz", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "k.rs", directory: "/")
!4 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!5 = !DISubroutineType(types: !6)
!6 = !{null, !10, !15}
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "Tail", scope: !2, file: !2, size: 128, align: 24, elements: !{!11, !12})
!11 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !10, file: !2, baseType: !13, size: 64, align: 64)
!12 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !10, file: !2, baseType: !14, size: 32, align: 32, offset: 64)
!13 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!14 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!15 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !14, size: 64, align: 64, dwarfAddressSpace: 0)
