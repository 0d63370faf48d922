; Finding: amdgpu-kernel-abi rewrites a naked kernel's signature and gives its body uses
; of the new parameter, which the verifier refuses.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=amdgpu-kernel-abi -S fuzz/findings/special-naked-abi.ll
; Happens: "cannot use argument of naked function", "LLVM ERROR: Broken module found,
; compilation aborted!" (opt aborts). The same for ptr dead_on_return ... parameters.
; Should: a naked kernel's body cannot adapt to a new signature: an error naming kernel
; 'k' (or the kernel left alone, logged).
; Fixed: refused cleanly, naming the kernel; no broken module.
; EXPECT: error: amdgpu-kernel-abi: kernel 'k' is 'naked': its body cannot use parameters, so its signature cannot change
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k({ i32, i32 } %a, ptr dead_on_return noalias noundef align 4 dereferenceable(12) %r) naked noinline {
  call void asm sideeffect "s_endpgm", ""()
  unreachable
}
