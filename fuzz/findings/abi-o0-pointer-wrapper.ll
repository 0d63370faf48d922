; Finding: at -O0 rustc 1.95 passes a #[repr(C)] struct around one raw pointer (or an
; array [S; 1] of one) indirectly, as `ptr align 8`; with the debug info saying so,
; amdgpu-kernel-abi leaves the parameter a pointer to the struct.
;   #[repr(C)] pub struct PtrW { p: *mut u32 }
;   pub unsafe extern "gpu-kernel" fn k(w: PtrW, out: *mut u32) { *out = *w.p; }
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/abi-o0-pointer-wrapper.ll
; Happens: `define amdgpu_kernel void @k(ptr align 8 %w, ptr %out)` is unchanged. The host
; writes the struct (the pointer p) into the kernarg slot, clang's layout for
; `struct {int *p}`, but the body loads p from *w: it dereferences the wrong pointer.
; debug_info says `Some([leaf]) if leaf.kind == Pointer => keep` ("passed as that
; pointer"), which holds for a Rust-repr wrapper, not for this -O0 indirect form
; (`ptr align 8`; the same source at -O3 is `ptr dead_on_return ... dereferenceable(8)`
; and becomes `byref([8 x i8]) align 8`, correctly).
; Should: `ptr addrspace(4) byref([8 x i8]) align 8 %w` (or the pointer by value, with
; the body's load of p replaced), as at -O3. Found by the debuginfo family (true
; descriptions) and by the rustc family (-Copt-level=0).
; Fixed: the struct of one pointer becomes that pointer, by
; value (clang's kernarg for `struct {int *p}`); the body's load of p from *w is gone
; and it dereferences the pointer itself.
; EXPECT: output
; CHECK: define amdgpu_kernel void @k(ptr %w, ptr %out)
; CHECK-NOT: load ptr
; CHECK: load i32, ptr %w, align 4
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr align 8 %w, ptr %out) !dbg !4 {
  %p = load ptr, ptr %w, align 8
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %out, align 4
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
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "PtrW", scope: !2, file: !2, size: 64, align: 64, elements: !{!11})
!11 = !DIDerivedType(tag: DW_TAG_member, name: "p", scope: !10, file: !2, baseType: !15, size: 64, align: 64)
!14 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!15 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !14, size: 64, align: 64, dwarfAddressSpace: 0)
