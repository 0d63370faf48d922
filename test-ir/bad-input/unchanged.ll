; Inputs that need nothing: the output equals plain `opt -S` (diff).
; RUN: rm -rf %t && split-file %s %t
;
; byref parameters already in their final form (clang's: readonly, only
; read) and a kernel with only scalars, vectors and pointers.
; RUN: %opt -S %t/final-form.ll -o %t.plain.ll
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %t/final-form.ll -o %t.out.ll
; RUN: diff %t.plain.ll %t.out.ll
;
; Modules with no kernels (functions with aggregate and byref parameters
; that are not kernels, plus a declaration): every device pass, alone and together.
; RUN: %opt -S %t/no-kernels.ll -o %t.nk.plain.ll
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/no-kernels.ll -o %t.nk.abi.ll
; RUN: diff %t.nk.plain.ll %t.nk.abi.ll
; RUN: %opt -passes=byref-callee-copy -S %t/no-kernels.ll -o %t.nk.copy.ll
; RUN: diff %t.nk.plain.ll %t.nk.copy.ll
; RUN: %opt -passes=offload-wrap-kernels -S %t/no-kernels.ll -o %t.nk.wrap.ll
; RUN: diff %t.nk.plain.ll %t.nk.wrap.ll
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy,offload-wrap-kernels -S %t/no-kernels.ll -o %t.nk.all.ll
; RUN: diff %t.nk.plain.ll %t.nk.all.ll
; An empty module.
; RUN: %opt -S %t/empty.ll -o %t.e.plain.ll
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy,offload-wrap-kernels -S %t/empty.ll -o %t.e.all.ll
; RUN: diff %t.e.plain.ll %t.e.all.ll

;--- final-form.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
%struct.S = type { i32, i32, i32 }
define amdgpu_kernel void @clang(ptr addrspace(4) noundef readonly byref(%struct.S) align 4 %s, ptr addrspace(1) %out) {
  %v = load i32, ptr addrspace(4) %s, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
define amdgpu_kernel void @fixed_rustc(ptr addrspace(4) noalias nofree noundef readnone byref([12 x i8]) align 4 captures(none) dereferenceable(12) %s, i32 %n) {
  ret void
}
define amdgpu_kernel void @scalars(i32 %a, <4 x float> %v, ptr addrspace(1) %p, float %f) {
  ret void
}

;--- no-kernels.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define void @f({ i32, i32 } %s, ptr addrspace(4) byref({ i32, i32 }) align 4 %b, ptr dead_on_return dereferenceable(8) align 4 %r) {
  %p = addrspacecast ptr addrspace(4) %b to ptr
  store i32 0, ptr %p
  store i32 0, ptr %r
  ret void
}
declare amdgpu_kernel void @decl({ i32, i32 })

;--- empty.ll
