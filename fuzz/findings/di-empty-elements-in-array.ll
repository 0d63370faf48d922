; Finding: amdgpu-kernel-abi never returns on an array whose elements are structs with
; empty member lists (elements: !{}) and a huge array size.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/di-empty-elements-in-array.ll
; Happens: opt runs (practically) forever: debug_info::flatten walks size / stride = 2^56
; elements, each adding no leaf, so its 4096-leaf limit never triggers.
; Should: finish at once; a description that disagrees with the IR (no size here, and
; 2^59 bytes cannot be a kernel argument) is an error naming kernel 'k' and parameter #0,
; or the IR alone decides.
; Fixed: finishes at once and refuses cleanly, naming kernel and parameter (the array
; describes 2^59 bytes).
; EXPECT: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%s) of type 'ptr': a 576460752303423488-byte aggregate is too large for a byref kernel argument (at most 4294967295 bytes)
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 4 %s) !dbg !4 {
  ret void
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !2, producer: "fuzz", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "k.rs", directory: "/")
!4 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!5 = !DISubroutineType(types: !6)
!6 = !{null, !10}
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, size: 4611686018427387904, align: 8, elements: !{!12})
!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "E", scope: !2, file: !2, size: 64, align: 8, elements: !{})
!12 = !DISubrange(count: 72057594037927936, lowerBound: 0)
