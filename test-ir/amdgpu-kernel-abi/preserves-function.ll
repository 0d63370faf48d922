; The rewritten kernel keeps its name, linkage, visibility, comdat, section,
; alignment, function attributes and every metadata attachment (!dbg too);
; @llvm.used follows it. Only unnamed_addr goes: a kernel's symbol identifies
; it (kernel-identity.ll). An alias of the kernel, which would get no kernel
; descriptor, becomes a kernel of its own: a copy with its own DISubprogram,
; the alias's linkage and visibility, no comdat (kernel-identity.ll has the
; aliases that stay). A second run of the pass changes nothing.
; RUN: %opt -passes=amdgpu-kernel-abi -S < %s -o %t1.ll
; RUN: %FileCheck %s < %t1.ll
; RUN: %opt -passes=amdgpu-kernel-abi -S < %t1.ll -o %t2.ll
; RUN: diff %t1.ll %t2.ll
; Kernels are launched, never called: a call would break with a new type.
; (The one place the message, shared with offload-wrap-kernels, is pinned.)
; RUN: not %opt -passes=amdgpu-kernel-abi -disable-output %S/Inputs/called-kernel.ll 2>&1 | %FileCheck --check-prefix=CALLED %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

$k = comdat any
%S = type { i32, i32, i32 }

; CHECK: @llvm.used = appending global [1 x ptr] [ptr @k], section "llvm.metadata"
; CHECK-NOT: alias
@llvm.used = appending global [1 x ptr] [ptr @k], section "llvm.metadata"
@k.alias = alias void (%S), ptr @k

; CHECK: define weak_odr protected amdgpu_kernel void @k(ptr addrspace(4) noalias nofree noundef byref(%S) align 4 captures(none) dereferenceable(12) %s) #0 section ".text.k" comdat align 256 !dbg [[SP:![0-9]+]] !custom [[CUSTOM:![0-9]+]] {
; CHECK: define amdgpu_kernel void @k.alias(ptr addrspace(4) noalias nofree noundef byref(%S) align 4 captures(none) dereferenceable(12) %s) #0 section ".text.k" align 256 !dbg [[SP2:![0-9]+]] !custom [[CUSTOM]] {
; CHECK: attributes #0 = { nounwind "amdgpu-flat-work-group-size"="1,256" }
; CHECK-DAG: [[SP]] = distinct !DISubprogram(name: "k"
; CHECK-DAG: [[SP2]] = distinct !DISubprogram(name: "k", linkageName: "k.alias"
; CHECK-DAG: [[CUSTOM]] = !{!"kept"}
define weak_odr protected amdgpu_kernel void @k(%S %s) unnamed_addr #0 section ".text.k" comdat align 256 !dbg !3 !custom !7 {
  %a = extractvalue %S %s, 0, !dbg !6
  store i32 %a, ptr addrspace(1) null, align 4, !dbg !6
  ret void, !dbg !6
}

attributes #0 = { nounwind "amdgpu-flat-work-group-size"="1,256" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!6 = !DILocation(line: 2, scope: !3)
!7 = !{!"kept"}

; CALLED: error: amdgpu-kernel-abi: kernel 'k' is called from IR; a kernel's signature can only change when the runtime alone launches it
