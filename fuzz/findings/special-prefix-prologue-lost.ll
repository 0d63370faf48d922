; Finding: amdgpu-kernel-abi drops the kernel's prefix and prologue data when it rebuilds
; the kernel with the new signature.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/special-prefix-prologue-lost.ll
; Happens: the output is `define amdgpu_kernel void @k(ptr addrspace(4) ... byref({ i32, i32 }) ...)`
; without `prefix i32 7 prologue i32 9` (opt exits 0, the module verifies).
; Should: the new function keeps prefix, prologue (and personality, gc, section, comdat,
; align, as it does today); offload-wrap-kernels keeps them.
; Fixed: the rebuilt kernel keeps its prefix and prologue data.
; EXPECT: output
; CHECK: define amdgpu_kernel void @k(ptr addrspace(4) {{.*}}byref({ i32, i32 }) align 4 {{.*}}%a, ptr %out) prefix i32 7 prologue i32 9 {
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k({ i32, i32 } %a, ptr %out) prefix i32 7 prologue i32 9 {
  %x = extractvalue { i32, i32 } %a, 1
  store i32 %x, ptr %out
  ret void
}
