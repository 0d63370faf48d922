; A launch from C++ that may throw is an `invoke`, which offload-host
; refuses: the message names the kernel and the C++ caller demangled, and
; says what to do (declare the launch function `noexcept`).
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/invoke.ll -o %t.out 2>&1 | %FileCheck %s
; CHECK: error: offload-host: launch of 'scale' in function 'run(float*, int)': an invoke; launches must be plain calls (kernels do not unwind): in C++, declare the launch function `noexcept` (or compile with -fno-exceptions)

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
define void @scale(ptr %p, i32 %n) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- invoke.ll
@desc = private unnamed_addr constant [7 x i64] [i64 2, i64 1, i64 2, i64 3, i64 0, i64 0, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
declare i32 @__gxx_personality_v0(...)
define i32 @_Z3runPfi(ptr %p, i32 %n) personality ptr @__gxx_personality_v0 {
  %cfg = alloca [8 x i64]
  %r = invoke i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 %n) to label %ok unwind label %lp
ok:
  ret i32 %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}
