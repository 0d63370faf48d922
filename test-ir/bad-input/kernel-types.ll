; Kernels with parameter types the passes cannot size or rebuild around:
; target(...) types (inkwell panicked on them) and scalable vectors (LLVM's
; TypeSize aborted). Each is a documented skip when nothing needs to change,
; else an error naming the pass, kernel, parameter and type; no output file.
; RUN: rm -rf %t && split-file %s %t
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/abi-target-and-aggregate.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-TARGET-AND-AGGREGATE %s
; ABI-TARGET-AND-AGGREGATE: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%t) of type 'target("amdgcn.named.barrier", 0)': the kernel's other parameters need a new signature, which cannot be built with a parameter of this type
;
; The same when a hint (!offload.aggregate.args) asks for the new signature:
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/abi-target-and-hint.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-TARGET-AND-HINT %s
; ABI-TARGET-AND-HINT: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%t) of type 'target("amdgcn.named.barrier", 0)': the kernel's other parameters need a new signature, which cannot be built with a parameter of this type
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/abi-scalable-struct.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-SCALABLE-STRUCT %s
; ABI-SCALABLE-STRUCT: error: amdgpu-kernel-abi: kernel 'k', parameter #1 (%s) of type '{ <vscale x 2 x i32>, <vscale x 2 x i32> }': an aggregate holding '<vscale x 2 x i32>', which has no fixed size, cannot be passed in the kernel argument segment
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi' -S %t/abi-scalable-array.ll -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-SCALABLE-ARRAY %s
; ABI-SCALABLE-ARRAY: error: amdgpu-kernel-abi: kernel 'k', parameter #0 (%s) of type '[1 x <vscale x 2 x i32>]': an aggregate holding '<vscale x 2 x i32>', which has no fixed size, cannot be passed in the kernel argument segment
;
; RUN: %no-output-file %t.out not %opt -passes='byref-callee-copy' -S %t/copy-byref-scalable-written.ll -o %t.out 2>&1 | %FileCheck --check-prefix=COPY-BYREF-SCALABLE-WRITTEN %s
; COPY-BYREF-SCALABLE-WRITTEN: error: byref-callee-copy: kernel 'k', parameter #0 (%s): byref type '<vscale x 2 x i32>' has no fixed size; cannot copy it
;
; RUN: %no-output-file %t.out not %opt -passes='byref-callee-copy' -S %t/copy-byref-target-written.ll -o %t.out 2>&1 | %FileCheck --check-prefix=COPY-BYREF-TARGET-WRITTEN %s
; COPY-BYREF-TARGET-WRITTEN: error: byref-callee-copy: kernel 'k', parameter #0 (%s): byref type 'target("amdgcn.named.barrier", 0)' has no fixed size; cannot copy it
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels' -S %t/wrap-byval-scalable.ll -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-BYVAL-SCALABLE %s
; WRAP-BYVAL-SCALABLE: error: offload-wrap-kernels: kernel 'k', parameter #0 (%b) of type 'ptr': 'byval' of type '<vscale x 2 x i32>', which has no fixed size
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels' -S %t/wrap-byval-target.ll -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-BYVAL-TARGET %s
; WRAP-BYVAL-TARGET: error: offload-wrap-kernels: kernel 'k', parameter #0 (%b) of type 'ptr': 'byval' of type 'target("spirv.Event")', which has no fixed size
;
; RUN: env RUST_LOG=offload_passes=debug %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %t/skips.ll -o %t.skips.ll 2>&1 | %FileCheck --check-prefix=LOG %s
; RUN: %FileCheck --check-prefix=SKIPS %s < %t.skips.ll
; LOG: amdgpu-kernel-abi: kernel 'only_target', parameter #0 (%t): a type no signature can be rebuilt around; nothing else to rewrite, kernel left alone
; SKIPS: define amdgpu_kernel void @only_target(target("amdgcn.named.barrier", 0) %t, i32 %a, ptr %p)
; SKIPS: define amdgpu_kernel void @read_scalable(ptr addrspace(4) readonly byref(<vscale x 2 x i32>) align 4 %s)
; SKIPS: define amdgpu_kernel void @scalable_vector(<vscale x 2 x i32> %v, ptr addrspace(4) noalias nofree noundef readonly byref({ i32, i32 }) align 4 captures(none) dereferenceable(8) %s)

;--- abi-target-and-aggregate.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(target("amdgcn.named.barrier", 0) %t, { i32, i32 } %s) {
  ret void
}

;--- abi-target-and-hint.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(target("amdgcn.named.barrier", 0) %t, ptr %a) !offload.aggregate.args !0 {
  ret void
}
; Before: a Rust panic in inkwell.
!0 = !{!1}
!1 = !{i32 1, i32 1, i64 8, i64 4}

;--- abi-scalable-struct.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(i32 %a, { <vscale x 2 x i32>, <vscale x 2 x i32> } %s) {
  ret void
}

;--- abi-scalable-array.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k([1 x <vscale x 2 x i32>] %s) {
  ret void
}

;--- copy-byref-scalable-written.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(4) byref(<vscale x 2 x i32>) align 4 %s) {
  %p = addrspacecast ptr addrspace(4) %s to ptr
  store i32 0, ptr %p
  ret void
}

;--- copy-byref-target-written.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(4) byref(target("amdgcn.named.barrier", 0)) %s) {
  %p = addrspacecast ptr addrspace(4) %s to ptr
  store i32 0, ptr %p
  ret void
}

;--- wrap-byval-scalable.ll
define void @k(ptr byval(<vscale x 2 x i32>) %b) !offload.kernel !0 {
  store i32 0, ptr %b
  ret void
}
!0 = !{}

;--- wrap-byval-target.ll
define void @k(ptr byval(target("spirv.Event")) %b) !offload.kernel !0 {
  store i32 0, ptr %b
  ret void
}
!0 = !{}

;--- skips.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
; Nothing else to rewrite: left alone.
define amdgpu_kernel void @only_target(target("amdgcn.named.barrier", 0) %t, i32 %a, ptr %p) {
  ret void
}
; Only read: no copy needed, so no size needed; marked readonly.
define amdgpu_kernel void @read_scalable(ptr addrspace(4) byref(<vscale x 2 x i32>) align 4 %s) {
  %v = load i32, ptr addrspace(4) %s
  ret void
}
; A scalable vector by value is not an aggregate: kept; the struct next to it is rewritten.
define amdgpu_kernel void @scalable_vector(<vscale x 2 x i32> %v, { i32, i32 } %s) {
  ret void
}
