; Finding: amdgpu-kernel-abi never returns on a cycle of qualifiers (const -> volatile -> const).
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/di-qualifier-cycle.ll
; Happens: opt runs forever (debug_info::strip_qualifiers follows !10 -> !11 -> !10).
; Should: finish; the type describes nothing, so an error naming kernel 'k' and
; parameter #0, or the IR alone decides (the bare `ptr align 4` is left alone, logged).
; The LLVM verifier accepts this debug info; restrict, atomic and typedef links cycle the same way.
; Fixed: finishes; a warning (more than 64 typedefs or qualifiers in a row); the IR
; decides: the bare `ptr align 4` is left alone.
; EXPECT: output
; STDERR: warning: amdgpu-kernel-abi: kernel 'k': debug info of source parameter 0: more than 64 typedefs or qualifiers in a row (a cycle?); the debug info is ignored and the IR types alone decide the kernel's parameters
; CHECK: define amdgpu_kernel void @k(ptr align 4 %s)
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
!10 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !11)
!11 = !DIDerivedType(tag: DW_TAG_volatile_type, baseType: !10)
