; Finding: amdgpu-kernel-abi drops dso_local from a kernel it rebuilds.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/special-dso-local-lost.ll
; Happens: `define dso_local amdgpu_kernel void @k({ i32, i32 } %a, ...)` becomes
; `define amdgpu_kernel void @k(ptr addrspace(4) ... byref({ i32, i32 }) ...)`
; (linkage, visibility and unnamed_addr are kept).
; Should: keep dso_local (copy the function's DSO-locality with its linkage).
; Fixed: the rebuilt kernel keeps dso_local.
; EXPECT: output
; CHECK: define dso_local amdgpu_kernel void @k(ptr addrspace(4) {{.*}}byref({ i32, i32 }) align 4 {{.*}}%a, ptr %out)
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define dso_local amdgpu_kernel void @k({ i32, i32 } %a, ptr %out) {
  %x = extractvalue { i32, i32 } %a, 1
  store i32 %x, ptr %out
  ret void
}
