; Finding: amdgpu-kernel-abi is not a fixed point when a kernel's debug info lies about an
; aggregate the IR passes by dereferenceable pointer: the first run ignores the kernel's
; debug info, a second run on its output trusts it.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/di-size-lie-not-fixed-point.ll -o out1.ll
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S out1.ll -o out2.ll
; Happens: run 1 warns "kernel 'k': its debug info lists 2 source parameters that do not
; match its 3 IR parameters (sizes, kinds or count disagree); the debug info is ignored and
; the IR types alone decide the kernel's parameters" (source parameter 1, struct Big, is
; 64 bytes; the IR pointer %p1 is dereferenceable(32)) and gives
; `(i8 %p0.0, i8 %p0.1, ptr addrspace(4) ... byref([32 x i8]) align 8 ... %p1)`: the split
; pair stays. Run 2 sees %p1 as an existing byref, no longer compares its size with the
; debug info, trusts the debug info without a warning and joins the pair:
; `(ptr addrspace(4) ... byref([2 x i8]) align 1 ... %p0, ptr addrspace(4) ... byref([32 x i8]) ... %p1)`.
; The campaign's oracle counts this "second run changed the module". Likewise an input
; that already has `ptr addrspace(4) byref([32 x i8]) align 8 %p1`: the 64-byte
; description is trusted in the first run, silently.
; Should: one decision whatever form %p1 has: an existing byref whose size disagrees with
; the debug info is a disagreement as dereferenceable(N) is (warning, the IR decides, so
; run 2 leaves out1.ll alone), or the disagreement is confined to that parameter in both
; forms.
; Found by the debuginfo family of the rerun (plugin of commit 7df8d9b): 10 of 2,000
; modules (seeds 1000000..1001999) per amdgpu-kernel-abi pipeline (abi+copy the same),
; lies `wide` 6, `huge-array` 2, `size` 2 (seeds 1000084, 1000208, 1000355, 1000672,
; 1000762, 1001179, 1001425, 1001535, 1001579, 1001674); this file is a hand reduction
; (a `size` lie) that behaves as all ten do.
; Fixed in commit 5a25e46: an existing byref is held to the debug info's size as
; dereferenceable(N) is; run 2 warns as run 1 did and changes nothing.
; EXPECT: output
; CHECK: define amdgpu_kernel void @k({{.*}}ptr addrspace(4) {{.*}}byref([32 x i8]) align 8 {{.*}}%p1)
; STDERR: warning: amdgpu-kernel-abi: kernel 'k': its debug info lists 2 source parameters that do not match its 3 IR parameters
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(i8 %p0.0, i8 %p0.1, ptr dead_on_return noalias noundef align 8 dereferenceable(32) %p1) !dbg !4 {
  ret void
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !2, producer: "fuzz", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "k.rs", directory: "/")
!4 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!5 = !DISubroutineType(types: !{null, !10, !20})
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "Pair", scope: !2, file: !2, size: 16, align: 8, elements: !{!11, !12})
!11 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !10, file: !2, baseType: !14, size: 8, align: 8, offset: 0)
!12 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !10, file: !2, baseType: !14, size: 8, align: 8, offset: 8)
!14 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!15 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!20 = !DICompositeType(tag: DW_TAG_structure_type, name: "Big", scope: !2, file: !2, size: 512, align: 64, elements: !{!21})
!21 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !20, file: !2, baseType: !15, size: 64, align: 64, offset: 0)
