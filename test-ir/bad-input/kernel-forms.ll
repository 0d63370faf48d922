; Kernels in unusual forms. Each is a documented rewrite, a logged skip or an
; error. (A kernel called from IR is an error of amdgpu-kernel-abi and
; offload-wrap-kernels: amdgpu-kernel-abi/preserves-function.ll, where the
; message is pinned, and offload-wrap-kernels/errors.ll; a variadic
; !offload.kernel function is an error of offload-wrap-kernels: errors.ll.)
; RUN: rm -rf %t && split-file %s %t
;
; Declarations have no body: skipped (logged), the module is unchanged.
; RUN: %opt -S %t/decl.ll -o %t.decl.plain.ll
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %t/decl.ll -o %t.decl.out.ll 2>&1 | %FileCheck --check-prefix=DECL %s
; RUN: diff %t.decl.plain.ll %t.decl.out.ll
; DECL: amdgpu-kernel-abi: skipping 'k': a declaration, no body to rewrite
; DECL: byref-callee-copy: skipping 'k': a declaration, no body to rewrite
;
; Address-taken kernels (a global initializer, a store, llvm.compiler.used;
; offload entries take kernel addresses this way) are rewritten and every
; reference moves to the new function, which keeps the kernel's place in the
; module: the runtime launches it by address.
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %t/address-taken.ll | %FileCheck --check-prefix=ADDR %s
; ADDR: @g = addrspace(1) global ptr @k
; ADDR: @llvm.compiler.used = appending global [1 x ptr] [ptr @k], section "llvm.metadata"
; ADDR: define amdgpu_kernel void @k(ptr addrspace(4) noalias nofree noundef readonly byref({ i32, i32 }) align 4 captures(none) dereferenceable(8) %s)
; ADDR: store ptr @k, ptr addrspace(1) %out
;
; byref-callee-copy never changes a signature, so a kernel called from IR
; (with the C calling convention; LLVM 22 refuses calls with amdgpu_kernel)
; still gets its copy.
; RUN: %opt -passes=byref-callee-copy -S %t/called.ll | %FileCheck --check-prefix=CALLED %s
; CALLED: %s.copy = alloca { i32, i32 }, align 4, addrspace(5)
; CALLED: call void @k(ptr addrspace(4) null)
;
; Forms the verifier refuses before any pass runs (pinned so a change in LLVM
; that lets them through is noticed): variadic kernels, kernels called with
; the amdgpu_kernel calling convention.
; RUN: not %opt -passes=amdgpu-kernel-abi -disable-output %t/variadic.ll 2>&1 | %FileCheck --check-prefix=VARIADIC %s
; VARIADIC: Calling convention does not support varargs or perfect forwarding!
; RUN: not %opt -passes=amdgpu-kernel-abi -disable-output %t/cc-call.ll 2>&1 | %FileCheck --check-prefix=CCCALL %s
; CCCALL: calling convention does not permit calls

; Kernels whose signature cannot change although a pass needs it to: the
; verifier would refuse the rewrite, so each is an error naming the kernel
; (never "Broken module found"), with no output file. A `naked` kernel's body
; may not use its parameters; a `musttail` call must pass the caller's
; parameters unchanged.
; RUN: %no-output-file %t.out not %opt -passes=amdgpu-kernel-abi -S %t/naked.ll -o %t.out 2>&1 | %FileCheck --check-prefix=NAKED-ABI %s
; NAKED-ABI: error: amdgpu-kernel-abi: kernel 'n' is 'naked': its body cannot use parameters, so its signature cannot change
; RUN: %no-output-file %t.out not %opt -passes=offload-wrap-kernels -S %t/naked.ll -o %t.out 2>&1 | %FileCheck --check-prefix=NAKED-WRAP %s
; NAKED-WRAP: error: offload-wrap-kernels: kernel 'n' is 'naked': its body cannot use parameters
; RUN: %no-output-file %t.out not %opt -passes=offload-wrap-kernels -S %t/musttail.ll -o %t.out 2>&1 | %FileCheck --check-prefix=MUSTTAIL %s
; MUSTTAIL: error: offload-wrap-kernels: kernel 'k' makes a musttail call, which must keep the kernel's signature: `musttail call void @g(ptr %p, i32 %n)`
; A naked kernel that needs no rewrite is left alone:
; RUN: %opt -passes=amdgpu-kernel-abi -S %t/naked-scalars.ll | %FileCheck --check-prefix=NAKED-KEPT %s
; NAKED-KEPT: define amdgpu_kernel void @n(i32 %x) #0

;--- naked.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @n({ i32, i32 } %s) naked {
  unreachable
}

;--- naked-scalars.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @n(i32 %x) naked {
  unreachable
}

;--- musttail.ll
declare void @g(ptr, i32)
define void @k(ptr %p, i32 %n) !offload.kernel !0 {
  musttail call void @g(ptr %p, i32 %n)
  ret void
}
!0 = !{}

;--- decl.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
declare amdgpu_kernel void @k({ i32, i32 }, ptr addrspace(4) byref(i32))

;--- address-taken.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@g = addrspace(1) global ptr @k
@llvm.compiler.used = appending global [1 x ptr] [ptr @k], section "llvm.metadata"
define amdgpu_kernel void @k({ i32, i32 } %s) {
  ret void
}
define void @take(ptr addrspace(1) %out) {
  store ptr @k, ptr addrspace(1) %out
  ret void
}

;--- called.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(4) byref({ i32, i32 }) align 4 %s) {
  %p = addrspacecast ptr addrspace(4) %s to ptr
  store i32 1, ptr %p
  ret void
}
define void @f() {
  call void @k(ptr addrspace(4) null)
  ret void
}

;--- variadic.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k({ i32, i32 } %s, ...) {
  ret void
}

;--- cc-call.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k({ i32, i32 } %s) {
  ret void
}
define void @f() {
  call amdgpu_kernel void @k({ i32, i32 } zeroinitializer)
  ret void
}
