; Finding: offload-wrap-kernels rewrites a naked kernel into a wrapper whose body uses the
; new parameters, which the verifier refuses.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=offload-wrap-kernels -S fuzz/findings/special-naked-wrap.ll
; Happens: "cannot use argument of naked function", then "LLVM ERROR: Broken module found".
; Should: an error naming kernel 'k' (a naked function cannot take the launch signature).
; Fixed: refused cleanly, naming the kernel; no broken module.
; EXPECT: error: offload-wrap-kernels: kernel 'k' is 'naked': its body cannot use parameters, so its signature cannot change
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @k(i32 %n, ptr %p) naked noinline !offload.kernel !0 {
  call void asm sideeffect "ret", ""()
  unreachable
}

!0 = !{}
