; Finding: amdgpu-kernel-abi crashes opt (SIGSEGV in amdgpu_kernel_abi::run) when a
; single-scalar aggregate that is only loaded (debug info: struct One { v: u8 }) is
; followed by another parameter the pass rewrites (here a union, byref).
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/abi-wrapper-loads-then-param-segv.ll
; Happens: Segmentation fault. Also with the -O0 form (`ptr align 1 %a, ptr align 8 %u`),
; and with two such wrappers; not when %a is the only rewritten parameter.
; Found by the rustc family: rustc 1.95 -Copt-level=3 for
;   #[repr(C)] struct One { v: u8 }  #[repr(C)] union U { a: u8, b: u64 }
;   extern "gpu-kernel" fn k(a: One, u: U, ...) { ... a.v ... }
; Should: `(i8 %a, ptr addrspace(4) byref([8 x i8]) align 8 %u)` (the load of %a becomes
; the parameter), or byref for both.
; Fixed: no crash; the wrapper's load becomes the i8 parameter, the union a byref.
; EXPECT: output
; CHECK: define amdgpu_kernel void @k(i8 %a, ptr addrspace(4) {{.*}}byref([8 x i8]) align 8 {{.*}}%u)
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr dead_on_return noalias noundef readonly align 1 captures(none) dereferenceable(1) %a, ptr dead_on_return noalias noundef readonly align 8 captures(none) dereferenceable(8) %u) !dbg !4 {
  %v = load i8, ptr %a, align 1
  ret void
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !2, producer: "fuzz", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "k.rs", directory: "/")
!4 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!5 = !DISubroutineType(types: !6)
!6 = !{null, !10, !20}
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "One", scope: !2, file: !2, size: 8, align: 8, elements: !{!11})
!11 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !10, file: !2, baseType: !12, size: 8, align: 8)
!12 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!20 = !DICompositeType(tag: DW_TAG_union_type, name: "U", scope: !2, file: !2, size: 64, align: 64, elements: !{!21, !22})
!21 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !20, file: !2, baseType: !12, size: 8, align: 8)
!22 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !20, file: !2, baseType: !23, size: 64, align: 64)
!23 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
