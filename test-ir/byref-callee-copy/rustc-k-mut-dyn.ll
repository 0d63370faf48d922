; The hard case from rustc 1.95 -O3 (kernel k_mut_dyn in
; Inputs/rustc-1.95-O3-g.ll) after amdgpu-kernel-abi made %s a byref: rustc's
; code casts the generic pointer to global, picks a field with a select and
; stores through it; loads carry !amdgpu.noclobber. On the copy the
; generic->global cast would be invalid: the whole chain moves to
; addrspace(5), and noclobber goes from loads of the copy (not from others).
; RUN: %opt -passes=byref-callee-copy -S %s | %FileCheck %s
; RUN: %opt -passes=byref-callee-copy,verify -disable-output %s

target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @k_mut_dyn(ptr addrspace(4) noalias noundef readonly byref([12 x i8]) align 4 dereferenceable(12) %s, i1 noundef zeroext %pick, ptr noundef captures(none) %out)
; CHECK-NEXT: start:
; CHECK-NEXT: %s.copy = alloca [12 x i8], align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 12, i1 false)
; CHECK-NEXT: %0 = addrspacecast ptr %out to ptr addrspace(1)
; CHECK-NEXT: [[HI:%.*]] = getelementptr inbounds nuw i8, ptr addrspace(5) %s.copy, i64 8, !dbg [[LOC:![0-9]+]]
; CHECK-NEXT: %.sroa.0.0 = select i1 %pick, ptr addrspace(5) %s.copy, ptr addrspace(5) [[HI]], !dbg [[LOC]]
; CHECK-NEXT: %_5 = load i32, ptr addrspace(1) %0, align 4, !noundef !{{[0-9]+}}, !amdgpu.noclobber !{{[0-9]+}}
; CHECK-NEXT: store i32 %_5, ptr addrspace(5) %.sroa.0.0, align 4
; CHECK-NEXT: %_8 = load i32, ptr addrspace(5) [[HI]], align 4, !noundef !{{[0-9]+$}}
; CHECK-NEXT: [[V:%.*]] = load <2 x i32>, ptr addrspace(5) %s.copy, align 4{{$}}
; CHECK-NEXT: store <2 x i32> [[V]], ptr addrspace(1) %0, align 4
; CHECK-NOT: addrspace(4)
; CHECK: ret void
define amdgpu_kernel void @k_mut_dyn(ptr addrspace(4) noalias noundef byref([12 x i8]) align 4 dereferenceable(12) %s, i1 noundef zeroext %pick, ptr noundef captures(none) %out) !dbg !3 {
start:
  %g = addrspacecast ptr addrspace(4) %s to ptr
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %g to ptr addrspace(1)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8, !dbg !6
  %.sroa.0.0 = select i1 %pick, ptr addrspace(1) %1, ptr addrspace(1) %2, !dbg !6
  %_5 = load i32, ptr addrspace(1) %0, align 4, !noundef !7, !amdgpu.noclobber !7
  store i32 %_5, ptr addrspace(1) %.sroa.0.0, align 4
  %_8 = load i32, ptr addrspace(1) %2, align 4, !noundef !7, !amdgpu.noclobber !7
  %3 = load <2 x i32>, ptr addrspace(1) %1, align 4, !amdgpu.noclobber !7
  store <2 x i32> %3, ptr addrspace(1) %0, align 4
  %4 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i32 %_8, ptr addrspace(1) %4, align 4
  ret void
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !2, producer: "rustc", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "kernels.rs", directory: "/")
!3 = distinct !DISubprogram(name: "k_mut_dyn", scope: !2, file: !2, line: 202, type: !4, scopeLine: 202, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!6 = !DILocation(line: 203, column: 26, scope: !3)
!7 = !{}
