; Found by cargo fuzz (fuzz/README.md): an entry block may start with phis
; (empty ones: it has no predecessors). byref-callee-copy put its alloca and
; memcpy before them and amdgpu-kernel-abi and offload-wrap-kernels their
; parameter replacements, so the output failed the verifier ("PHI nodes not
; grouped at top of basic block") and opt aborted. They now go after the phis.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %t/device.ll | %FileCheck %s
; RUN: %opt -passes=offload-wrap-kernels -S %t/wrap.ll | %FileCheck --check-prefix=WRAP %s

;--- device.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @copy(
; CHECK-NEXT: %1 = phi ptr
; CHECK-NEXT: %s.copy = alloca [12 x i8], align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy
define amdgpu_kernel void @copy(ptr addrspace(4) byref([12 x i8]) align 4 %s) {
  %1 = phi ptr
  %g = addrspacecast ptr addrspace(4) %s to ptr
  store i32 1, ptr %g, align 4
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @abi(
; CHECK-NEXT: {{%[0-9]+}} = phi i32
; CHECK-NEXT: {{%[0-9]+}} = phi ptr
; CHECK-NEXT: load { i32, i32 }, ptr addrspace(4) %s
define amdgpu_kernel void @abi({ i32, i32 } %s) {
  %1 = phi i32
  %2 = phi ptr
  %a = extractvalue { i32, i32 } %s, 0
  ret void
}

;--- wrap.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; WRAP-LABEL: define amdgpu_kernel void @wrap(ptr %dyn_ptr, i64 %x)
; WRAP-NEXT: {{%[0-9]+}} = phi i32
; WRAP-NEXT: trunc i64 %x to i32
define amdgpu_kernel void @wrap(i32 %x) {
  %1 = phi i32
  %y = add i32 %x, 1
  ret void
}
