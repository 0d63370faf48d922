; Finding: offload-wrap-kernels changes the signature of a kernel whose body ends in a
; musttail call forwarding its parameters; the call no longer matches its caller.
;   opt-22 -load-pass-plugin=$PWD/target/release/liboffload_passes.so -passes=offload-wrap-kernels -S fuzz/findings/special-musttail-wrap.ll
; Happens: "cannot guarantee tail call due to mismatched parameter counts" (or types),
; "LLVM ERROR: Broken module found, compilation aborted!".
; Should: an error naming kernel 'k' and the musttail call (a musttail caller's signature
; cannot change), never a broken module. (A kernel that musttail-calls itself is
; already refused: "is called from IR".)
; Fixed: refused cleanly, naming the kernel and the musttail call; no broken module.
; EXPECT: error: offload-wrap-kernels: kernel 'k' makes a musttail call, which must keep the kernel's signature: `musttail call void @impl(i32 %n, ptr byval([8 x i8]) align 8 %s)`
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @impl(i32, ptr byval([8 x i8]) align 8)

define void @k(i32 %n, ptr byval([8 x i8]) align 8 %s) !offload.kernel !0 {
  musttail call void @impl(i32 %n, ptr byval([8 x i8]) align 8 %s)
  ret void
}

!0 = !{}
